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
// The rule is positional (positions.go): whatever stands in a credential's
// position is redacted, whatever it looks like ('SuperSecret1815', 'letmein',
// a 2 KB base64 key). Positions besides the above: every literal of a strong
// key's expression (both branches of a ternary, a concatenation continued on
// later lines, md5('v'), a heredoc), the get hook of a secret-named property
// and a secret's getter, the password argument of connection and auth calls
// ($redis->auth, oci_connect, ->real_connect, ->login, hash_hmac's key),
// command lines (sshpass -p, curl -u, PGPASSWORD=v cmd), SQL SET `col`='v',
// <parameter key="mailer_password">, Markdown tables (| password | v | and a
// password column), **Password:** v, <!-- password: v -->, // pass=v, and the
// paths of Teams and Telegram webhook URLs.
//
// Strong names (password, secret, token, api_key ...) redact any value but
// what cannot hold one (isCredential: nothing, a reference, a placeholder
// without a letter or digit, null or a type name, a class name, the name of
// another secret as a constant or dotted key, a compared literal); weak names
// (key, hash, signature ...) only values of 20+ characters with Shannon
// entropy above 3.5 bits per character and two character classes.
// A qualifier after the secret word keeps the name secret (DB_PASSWORD_2,
// password_new, api_key_prod, DB_PASSWORD_RO), and so does a service glued
// to it (PGPASSWORD, smtppass). In prose, outside a key's position, values
// that name or describe a secret are kept: plain words, constants
// (FTP_PASS) and names of secrets (user_pass, AllowNoPassword). secretstest writes a corpus of planted
// secrets that the tests of this package, rev and cli look for everywhere.
package secrets
