// This file classifies key names (password, DB_PASSWORD, apiKey ...) for the
// detectors in redact.go, and measures the entropy of candidate values.

package secrets

import (
	"math"
	"strings"
)

type strength int

const (
	notSecret strength = iota
	weak               // redact only high-entropy literals
	strong             // redact any non-empty literal
)

// strongLast are last name segments that mark a secret on their own.
var strongLast = map[string]bool{
	"password": true, "passwd": true, "pwd": true, "pass": true, "passphrase": true,
	"passwords": true, "secret": true, "secrets": true, "token": true, "tokens": true,
	"apikey": true, "credential": true, "credentials": true, "salt": true, "privatekey": true,
	"secretkey": true, "accesskey": true, "authkey": true,
}

// strongKeyPrefix are segments that make a following "key" segment strong:
// api_key, AUTH_KEY, secretKey, NONCE_KEY.
var strongKeyPrefix = map[string]bool{
	"api": true, "auth": true, "private": true, "access": true, "secret": true,
	"encryption": true, "signing": true, "master": true, "app": true, "license": true,
	"nonce": true, "account": true, "consumer": true, "client": true,
}

// weakLast are last segments that mark a secret only for high-entropy values.
var weakLast = map[string]bool{
	"key": true, "hash": true, "signature": true, "sig": true, "auth": true,
	"authorization": true, "bearer": true, "private": true, "cookie": true,
}

// classify returns how secret a key name is, judged by its last segments: a
// name whose last word is "type", "url" or "length" describes a secret without
// holding one (token_type, password_reset_url), so it is not secret.
func classify(name []byte) strength {
	segs := segments(name)
	// DB_PASSWORD_2, password_new, passwordConfirm, api_key_prod: a
	// qualifier after the secret word names another copy of it.
	for len(segs) > 1 && qualifier(segs[len(segs)-1]) {
		segs = segs[:len(segs)-1]
	}
	if len(segs) == 0 {
		return notSecret
	}
	last := strings.TrimRight(segs[len(segs)-1], "0123456789") // DB_PASS1
	if last == "" {
		return notSecret
	}
	segs[len(segs)-1] = last
	if strongLast[last] || len(segs) == 1 && gluedStrong(last) {
		return strong
	}
	if last == "key" && len(segs) > 1 && strongKeyPrefix[segs[len(segs)-2]] {
		return strong
	}
	if weakLast[last] {
		return weak
	}
	return notSecret
}

// qualifiers are last name segments that say which copy of a value a name
// holds, not what it is.
var qualifiers = map[string]bool{
	"new": true, "old": true, "confirm": true, "confirmation": true, "repeat": true, "again": true,
	"current": true, "prev": true, "previous": true, "next": true, "prod": true, "production": true,
	"dev": true, "development": true, "test": true, "testing": true, "staging": true, "live": true,
	"local": true, "default": true, "fallback": true, "primary": true, "secondary": true, "backup": true,
	"value": true, "val": true, "plain": true, "raw": true, "enc": true, "encrypted": true, "env": true,
	// which access or which server: DB_PASSWORD_RO, SMTP_PASSWORD_ADMIN
	"ro": true, "rw": true, "readonly": true, "readwrite": true, "read": true, "write": true, "reader": true,
	"writer": true, "admin": true, "root": true, "master": true, "replica": true, "slave": true, "main": true,
	"alt": true, "tmp": true, "temp": true, "orig": true, "original": true, "stage": true, "qa": true, "uat": true,
	"ci": true, "sandbox": true, "demo": true, "internal": true, "external": true, "override": true,
	"custom": true, "b64": true, "base64": true, "hex": true, "str": true,
}

// gluedStrongWords end one-word names that glue a service to a strong
// word: PGPASSWORD, MYSQLPASSWORD, smtppass, clientsecret, bottoken. Only
// the prefixes of gluedPrefixes count: resetpassword and lostpassword name
// an action.
var gluedStrongWords = []string{"password", "passwd", "pass", "pwd", "passphrase", "secret", "token", "apikey", "key"}

var gluedPrefixes = map[string]bool{
	"pg": true, "mysql": true, "mssql": true, "db": true, "smtp": true, "mail": true, "ftp": true, "sftp": true,
	"ssh": true, "ldap": true, "admin": true, "root": true, "client": true, "app": true, "api": true, "auth": true,
	"access": true, "bot": true, "redis": true, "sql": true, "rds": true, "proxy": true, "master": true,
	"github": true, "gitlab": true, "slack": true, "aws": true, "oauth": true, "imap": true, "pop": true, "pop3": true,
	"sa": true, "rabbitmq": true, "amqp": true, "mongo": true, "mongodb": true, "ora": true, "oracle": true,
}

func gluedStrong(seg string) bool {
	for _, w := range gluedStrongWords {
		if p, ok := strings.CutSuffix(seg, w); ok && gluedPrefixes[p] && (w != "key" || p == "api" || p == "app" || p == "auth" || p == "access" || p == "master") {
			return true
		}
	}
	return false
}

// qualifier reports a segment that qualifies the segment before it: a word
// of qualifiers, a number, or a version (v2).
func qualifier(seg string) bool {
	if qualifiers[seg] {
		return true
	}
	if len(seg) > 1 && seg[0] == 'v' {
		seg = seg[1:]
	}
	return strings.Trim(seg, "0123456789") == ""
}

// segments splits a name into lower-case words at non-alphanumerics and
// camelCase boundaries: "DB_PASSWORD" -> [db password], "apiKey" -> [api key],
// "APIKey" -> [api key].
func segments(name []byte) []string {
	var segs []string
	var cur []byte
	flush := func() {
		if len(cur) > 0 {
			segs = append(segs, string(cur))
			cur = cur[:0]
		}
	}
	for i, c := range name {
		if !isAlnum(c) {
			flush()
			continue
		}
		if isUpper(c) && i > 0 && isAlnum(name[i-1]) {
			prevLower := !isUpper(name[i-1])
			nextLower := i+1 < len(name) && isAlpha(name[i+1]) && !isUpper(name[i+1])
			if prevLower || (isUpper(name[i-1]) && nextLower) {
				flush()
			}
		}
		cur = append(cur, c|0x20*b2u(isUpper(c)))
	}
	flush()
	return segs
}

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// entropy is the Shannon entropy of v in bits per byte.
func entropy(v []byte) float64 {
	var counts [256]int
	for _, c := range v {
		counts[c]++
	}
	n := float64(len(v))
	var h float64
	for _, k := range counts {
		if k > 0 {
			p := float64(k) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}
