// Package secrets redacts credential-looking values from text before any store
// or log sees it (FT-39, FT-40).
//
// Redact replaces each secret value with "[REDACTED]" and keeps everything else:
// key names, quotes, punctuation and the number of lines, so line numbers of
// facts stay exact and code structure stays readable.
//
// # Detectors
//
// Provider tokens are recognised by their shape anywhere (PEM private key blocks,
// AWS access key ids, GitHub, GitLab, Slack, Stripe and Google keys, JWTs,
// passwords in DSN URLs). Other values are redacted only when assigned to a
// secret-named key: PHP assignments, array entries, define() and env() calls,
// JSON, YAML, INI and .env lines. Strong names (password, secret, token, api_key
// ...) redact any non-empty literal; weak names (key, hash, signature ...) only
// literals of 20+ characters with Shannon entropy above 3.5 bits per character.
// Variables, function calls and empty strings are never redacted.
package secrets
