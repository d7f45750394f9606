// This file reads one file for extraction. Walk (walk.go) decides which files
// are read; Read makes their bytes ready for the parsers.

package corpus

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"unicode/utf8"
)

// sniffLen is how much of a file is checked for NUL bytes, as git does.
const sniffLen = 8 << 10

// Content is one file as read by Read.
type Content struct {
	Data      []byte // normalised: no BOM, CRLF turned into LF; raw bytes when Binary
	Hash      string // sha256 hex of the raw bytes
	Lines     int    // number of lines in Data (a final line without "\n" counts)
	Binary    bool   // a NUL byte in the first 8 KB
	ValidUTF8 bool   // Data is valid UTF-8 (invalid bytes are kept as they are)
	HadBOM    bool   // the raw bytes began with a UTF-8 byte order mark
	CRLF      bool   // the raw bytes contained "\r\n"
	CR        bool   // the raw bytes contained a "\r" that ends a line alone (old Mac)
}

var bom = []byte{0xEF, 0xBB, 0xBF}

// Read reads the file at abs. Normalisation keeps line numbers: a BOM is not a
// line, "\r\n" becomes "\n" and a "\r" alone becomes "\n" (PHP, editors and
// language servers all end a line there), so line N of Data is line N of the
// file.
func Read(abs string) (Content, error) {
	raw, err := os.ReadFile(abs)
	if err != nil {
		return Content{}, fmt.Errorf("reading %s: %w", abs, err)
	}
	return NewContent(raw), nil
}

// NewContent prepares raw file bytes as Read does: the same hash, the same
// normalisation, so a file read elsewhere (live_read) compares equal to its
// indexed snapshot.
func NewContent(raw []byte) Content {
	sum := sha256.Sum256(raw)
	c := Content{Hash: hex.EncodeToString(sum[:])}
	c.Binary = bytes.IndexByte(raw[:min(len(raw), sniffLen)], 0) >= 0
	if c.Binary {
		c.Data = raw
		c.Lines = countLines(raw)
		return c
	}
	data := raw
	if bytes.HasPrefix(data, bom) {
		c.HadBOM = true
		data = data[len(bom):]
	}
	if bytes.Contains(data, []byte("\r\n")) {
		c.CRLF = true
		data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	}
	if bytes.IndexByte(data, '\r') >= 0 {
		c.CR = true
		if !c.CRLF {
			data = bytes.Clone(data) // raw is the caller's when nothing was replaced
		}
		for i, b := range data {
			if b == '\r' {
				data[i] = '\n'
			}
		}
	}
	c.Data = data
	c.ValidUTF8 = utf8.Valid(data)
	c.Lines = countLines(data)
	return c
}

func countLines(b []byte) int {
	n := bytes.Count(b, []byte{'\n'})
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}
