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
// AWS access key ids, GitHub, GitLab, Slack tokens and webhook URLs, Discord
// webhooks, Stripe, SendGrid, OpenAI, Anthropic, npm, Mailgun, Shopify and
// Google keys, JWTs, passwords in DSN URLs). Other values are redacted when
// something names them a secret:
//
//   - assignments to a secret-named key: PHP assignments, array entries, JSON,
//     YAML (also block scalars), INI and .env lines, named arguments, with the
//     value on the same line or the next; for strong names every literal of
//     the expression ('a' . 'b', $_ENV['X'] ?? 'v', getenv('X') ?: 'v');
//   - calls: define(), env(), putenv(), any call or tuple whose first argument
//     is a secret-named key ('mail.password', 'v'), setters (setPassword('v'),
//     withToken('v')), and the password position of connection calls (new
//     PDO(dsn, user, pass), mysqli_connect, ftp_login, ldap_bind ...), over
//     several lines;
//   - inside strings: KEY=value pairs (putenv('DB_PASSWORD=v'), "host=h
//     password=v", "--password=v"), HTTP headers ("Authorization: Bearer v",
//     "X-Api-Key: v"), mysql -pVALUE, CURLOPT_USERPWD 'user:pass';
//   - SQL: secret-named columns of INSERT ... VALUES tuples, IDENTIFIED BY,
//     PASSWORD('v'), PASSWORD 'v';
//   - markup: <password>v</password>, key="ApiKey" value="v";
//   - prose (comments, docblocks, Markdown): "the password is v", "API key: v",
//     "with the password `v`", where v reads as a secret (two character classes,
//     six characters or more).
//
// Strong names (password, secret, token, api_key ...) redact any non-empty
// value; weak names (key, hash, signature ...) only values of 20+ characters
// with Shannon entropy above 3.5 bits per character and two character classes.
// A qualifier after the secret word keeps the name secret (DB_PASSWORD_2,
// password_new, api_key_prod). Values that name or describe a secret are
// kept: variables, calls, interpolated strings, placeholders without a letter
// or digit, plain words, constants (FTP_PASS) and names of secrets
// (user_pass, AllowNoPassword). secretstest writes a corpus of planted
// secrets that the tests of this package, rev and cli look for everywhere.
package secrets
