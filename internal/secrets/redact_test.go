package secrets

import (
	"bytes"
	"strings"
	"testing"
)

func TestFT39_Redact(t *testing.T) {
	const R = Placeholder
	tests := []struct {
		name, in, want string
	}{
		{"php define", `define('DB_PASSWORD', 'hunter2');`, `define('DB_PASSWORD', '` + R + `');`},
		{"php define double quotes", `define( "AUTH_KEY", "k3y" );`, `define( "AUTH_KEY", "` + R + `" );`},
		{"wp salt", `define('NONCE_SALT', 'x');`, `define('NONCE_SALT', '` + R + `');`},
		{"laravel env default", `'password' => env('DB_PASSWORD', 'secret123'),`, `'password' => env('DB_PASSWORD', '` + R + `'),`},
		{"array entry", `'password' => 'hunter2',`, `'password' => '` + R + `',`},
		{"array entry among others", `['user' => 'bob', 'pass' => "pw", 'host' => 'db']`, `['user' => 'bob', 'pass' => "` + R + `", 'host' => 'db']`},
		{"php assignment", `$password = "hunter2";`, `$password = "` + R + `";`},
		{"property assignment", `$this->apiKey = 'abc';`, `$this->apiKey = '` + R + `';`},
		{"nested array assignment", `$cfg['db']['password'] = 'abc';`, `$cfg['db']['password'] = '` + R + `';`},
		{"class const", `const CLIENT_SECRET = 'abc';`, `const CLIENT_SECRET = '` + R + `';`},
		{"json", `{"api_key": "abc", "name": "x"}`, `{"api_key": "` + R + `", "name": "x"}`},
		{"yaml", `  password: hunter2`, `  password: ` + R},
		{"yaml quoted", `password: "hunter2"`, `password: "` + R + `"`},
		{"yaml with comment", `secret: s3cr3t # prod`, `secret: ` + R + ` # prod`},
		{"ini", `password=hunter2`, `password=` + R},
		{"env export", `export DB_PASSWORD=hunter2`, `export DB_PASSWORD=` + R},
		{"token", `access_token = abc-def9`, `access_token = ` + R},
		{"dsn", `$dsn = "mysql://root:hunter2@localhost/db";`, `$dsn = "mysql://root:` + R + `@localhost/db";`},
		{"aws key id", `aws_access_key_id = AKIAIOSFODNN7EXAMPLE`, `aws_access_key_id = ` + R},
		{"aws key id in code", `$k = 'AKIAIOSFODNN7EXAMPLE';`, `$k = '` + R + `';`},
		{"aws secret", `aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`, `aws_secret_access_key = ` + R},
		{"github token", `$t = "ghp_` + strings.Repeat("a1B2", 9) + `";`, `$t = "` + R + `";`},
		{"github pat", `x github_pat_11ABCDEFG0123456789abcdefghij y`, `x ` + R + ` y`},
		{"gitlab", `glpat-ABCDEFGHIJ0123456789 `, R + ` `},
		{"slack", `hook xoxb-123456789012-abcdefghij`, `hook ` + R},
		{"stripe", `Stripe::setApiKey('sk_live_abcdefghijklmnop1234');`, `Stripe::setApiKey('` + R + `');`},
		{"google", `key=AIzaSyA1234567890abcdefghijklmnopqrstuv`, `key=` + R},
		{"jwt", `$jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abcdefghijklmnop';`, `$jwt = '` + R + `';`},
		{"authorization header", `Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abcdefghijklmnop`, `Authorization: ` + R},
		{"high entropy weak key", `'key' => 'f8Kq2Lz9Xw4Vb7Nm1Pq6Rt3Y',`, `'key' => '` + R + `',`},
		{"wp logged in key", `define('LOGGED_IN_KEY', 'f8Kq2Lz9Xw4Vb7Nm1Pq6Rt3Y$#@!');`, `define('LOGGED_IN_KEY', '` + R + `');`},
		{"weak key php variable", `$key = 'f8Kq2Lz9Xw4Vb7Nm1Pq6Rt3Y';`, `$key = '` + R + `';`},
		{"comment with an apostrophe", `// don't lose it: password = "hunter2"`, `// don't lose it: password = "` + R + `"`},
		{"trailing comment with an apostrophe", `$x = 1; # it's the password: "hunter2"`, `$x = 1; # it's the password: "` + R + `"`},
		{"single-quoted dollar", `$password = 'pa$sword';`, `$password = '` + R + `';`},
		{"pem block", "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nAAAA\n-----END RSA PRIVATE KEY-----\n",
			"-----BEGIN RSA PRIVATE KEY-----" + R + "\n\n\n-----END RSA PRIVATE KEY-----\n"},
		{"pem unterminated", "-----BEGIN PRIVATE KEY-----\nMIIE\nAAA", "-----BEGIN PRIVATE KEY-----" + R + "\n\n"},
		// key names with a qualifier after the secret word
		{"numbered key", `$db_password_2 = 'pw9';`, `$db_password_2 = '` + R + `';`},
		{"new key", `$password_new = "pw9";`, `$password_new = "` + R + `";`},
		{"camel qualifier", `$passwordConfirm = 'pw9';`, `$passwordConfirm = '` + R + `';`},
		{"digit suffix", `$DB_PASS1 = 'pw9';`, `$DB_PASS1 = '` + R + `';`},
		// values away from their key
		{"value on the next line", "'pass' =>\n    'pw9',", "'pass' =>\n    '" + R + "',"},
		{"separator on the next line", "'password'\n    => \"pw9\",", "'password'\n    => \"" + R + "\","},
		{"concatenation", `$password = 'ab1' . 'cd2';`, `$password = '` + R + `' . '` + R + `';`},
		{"after a variable", `$secret = $prefix . 'cd2';`, `$secret = $prefix . '` + R + `';`},
		{"env fallback", `$pass = $_ENV['DB_PASSWORD'] ?? 'pw9';`, `$pass = $_ENV['DB_PASSWORD'] ?? '` + R + `';`},
		{"getenv fallback", `$k = getenv('STRIPE_SECRET') ?: 'pw9';`, `$k = getenv('STRIPE_SECRET') ?: '` + R + `';`},
		{"nested array", `['credentials' => ['key' => 'k', 'secret' => 'pw9']]`, `['credentials' => ['key' => 'k', 'secret' => '` + R + `']]`},
		{"putenv", `putenv('DB_PASSWORD=pw9');`, `putenv('DB_PASSWORD=` + R + `');`},
		{"pairs in a string", `pg_connect("host=h user=u password=pw9");`, `pg_connect("host=h user=u password=` + R + `");`},
		{"flag in a string", `exec('mysql --password=pw9 db');`, `exec('mysql --password=` + R + ` db');`},
		{"mysql -p", `exec("mysqldump -uroot -ppw9 db");`, `exec("mysqldump -uroot -p` + R + ` db");`},
		{"bearer in a string", `["Authorization: Bearer abc123def456"]`, `["Authorization: Bearer ` + R + `"]`},
		{"api key header", `["X-Api-Key: abc123def456"]`, `["X-Api-Key: ` + R + `"]`},
		{"userpwd", `curl_setopt($ch, CURLOPT_USERPWD, "admin:pw9");`, `curl_setopt($ch, CURLOPT_USERPWD, "admin:` + R + `");`},
		{"slack webhook", `$h = 'https://hooks.slack.com/services/T01/B02/abcdefghijklmnop';`, `$h = 'https://hooks.slack.com/services/` + R + `';`},
		{"stripe test", `'sk_test_abcdefghijklmnop1234'`, `'` + R + `'`},
		{"sendgrid", `SG.abcdefghijklmnop1234.abcdefghijklmnop1234`, R},
		// calls
		{"new PDO", `new PDO('mysql:host=h', 'u', 'pw9');`, `new PDO('mysql:host=h', 'u', '` + R + `');`},
		{"new PDO over lines", "new \\PDO(\n  $dsn,\n  'u',\n  'pw9'\n);", "new \\PDO(\n  $dsn,\n  'u',\n  '" + R + "'\n);"},
		{"mysqli_connect", `mysqli_connect('h', 'u', 'pw9', 'db');`, `mysqli_connect('h', 'u', '` + R + `', 'db');`},
		{"setter", `$m->setPassword('pw9');`, `$m->setPassword('` + R + `');`},
		{"key-value call", `Config::set('mail.password', 'pw9');`, `Config::set('mail.password', '` + R + `');`},
		{"define over lines", "define(\n 'DB_PASSWORD',\n 'pw9'\n);", "define(\n 'DB_PASSWORD',\n '" + R + "'\n);"},
		// SQL
		{"insert columns", `INSERT INTO users (id, login, password) VALUES (1, 'a', 'pw9'), (2, 'b', 'pw8');`,
			`INSERT INTO users (id, login, password) VALUES (1, 'a', '` + R + `'), (2, 'b', '` + R + `');`},
		{"identified by", `CREATE USER 'u'@'h' IDENTIFIED BY 'pw9';`, `CREATE USER 'u'@'h' IDENTIFIED BY '` + R + `';`},
		{"password()", `SET PASSWORD FOR 'u' = PASSWORD('pw9');`, `SET PASSWORD FOR 'u' = PASSWORD('` + R + `');`},
		// prose
		{"comment", `// password: pw9abc`, `// password: ` + R},
		{"prose is", ` * the admin password is Zq8pw9abc.`, ` * the admin password is ` + R + `.`},
		{"markdown code", "Log in with the password `Zq8pw9abc`.", "Log in with the password `" + R + "`."},
		{"two-word key", "- API key: abc123def456", "- API key: " + R},
		{"sql comment", `-- admin password: Zq8pw9abc`, `-- admin password: ` + R},
		{"xml", `<password>pw9</password>`, `<password>` + R + `</password>`},
		{"yaml block", "private_key: |\n  abc\n  def\nname: x", "private_key: |\n  " + R + "\n  " + R + "\nname: x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, n := Redact([]byte(tt.in))
			if string(got) != tt.want {
				t.Errorf("Redact(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			if n == 0 {
				t.Errorf("count = 0")
			}
		})
	}
}

// TestFT39_RedactPositional: whatever stands in a credential's position is
// redacted, whatever it looks like: a word, a name, a value too long for
// a line's first 256 bytes, a ternary's branches, a heredoc, a hook's value,
// the password argument of a connection or auth call, a table cell under
// "password", a command line's password.
func TestFT39_RedactPositional(t *testing.T) {
	const R = Placeholder
	long := strings.Repeat("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC", 12)
	tests := []struct{ name, in, want string }{
		{"long value under a strong key", `'private_key' => '` + long + `',`, `'private_key' => '` + R + `',`},
		{"long json value", `"client_secret": "` + long + `"`, `"client_secret": "` + R + `"`},
		{"word-like define", `define('DB_PASSWORD', 'SuperSecret1815');`, `define('DB_PASSWORD', '` + R + `');`},
		{"word-like token", `$token = 'MyToken960308';`, `$token = '` + R + `';`},
		{"plain word", `'password' => 'letmein',`, `'password' => '` + R + `',`},
		{"snake word", `$password = 'admin_pass';`, `$password = '` + R + `';`},
		{"key word as value", `'mailserver_pass' => 'password',`, `'mailserver_pass' => '` + R + `',`},
		{"names in a credential's position", `'id_password'    => 'user_pass',`, `'id_password'    => '` + R + `',`},
		{"ternary", `$password = $prod ? 'Prod1815x' : 'Dev1815x';`, `$password = $prod ? '` + R + `' : '` + R + `';`},
		{"define ternary", `define('DB_PASSWORD', $prod ? 'Prod1815x' : 'Dev1815x');`, `define('DB_PASSWORD', $prod ? '` + R + `' : '` + R + `');`},
		{"concatenation on the next line", "$password = 'abc123' .\n    'def456';", "$password = '" + R + "' .\n    '" + R + "';"},
		{"concatenation led by the operator", "$secret = 'abc123'\n    . 'def456';", "$secret = '" + R + "'\n    . '" + R + "';"},
		{"wrapped value", `$password = md5('Summer2024');`, `$password = md5('` + R + `');`},
		{"heredoc", "$secret = <<<EOT\nline-one-9\n  line-two-9\nEOT;\n$x = 'kept';", "$secret = <<<EOT\n" + R + "\n  " + R + "\nEOT;\n$x = 'kept';"},
		{"nowdoc", "$apiToken = <<<'EOT'\nabc123\nEOT;", "$apiToken = <<<'EOT'\n" + R + "\nEOT;"},
		{"property hook", "public string $password {\n    get => 'SuperSecret1815';\n}", "public string $password {\n    get => '" + R + "';\n}"},
		{"property hook on one line", "public string $apiToken { get => 'MyToken960308'; }", "public string $apiToken { get => '" + R + "'; }"},
		{"getter", "public function getPassword(): string\n{\n    return 'SuperSecret1815';\n}", "public function getPassword(): string\n{\n    return '" + R + "';\n}"},
		{"suffix ro", `$DB_PASSWORD_RO = 'Secret1815';`, `$DB_PASSWORD_RO = '` + R + `';`},
		{"define suffix ro", `define('DB_PASSWORD_RO', 'Secret1815');`, `define('DB_PASSWORD_RO', '` + R + `');`},
		{"glued name", `PGPASSWORD=Secret1815 psql -h db`, `PGPASSWORD=` + R + ` psql -h db`},
		{"glued name in a string", `exec("PGPASSWORD=Secret1815 pg_dump shop");`, `exec("PGPASSWORD=` + R + ` pg_dump shop");`},
		{"markdown key-value table", "| key | value |\n|---|---|\n| password | Secret1815 |", "| key | value |\n|---|---|\n| password | " + R + " |"},
		{"markdown column", "| user | password |\n| --- | --- |\n| admin | `hunter22` |\n| bob | letmein |", "| user | password |\n| --- | --- |\n| admin | `" + R + "` |\n| bob | " + R + " |"},
		{"markdown bold", "**Password:** Secret1815", "**Password:** " + R},
		{"markdown bold key", "**Password**: letmein99", "**Password**: " + R},
		{"html comment", "<!-- password: Secret1815 -->", "<!-- password: " + R + " -->"},
		{"pass in a comment", "// pass=Secret1815", "// pass=" + R},
		{"insert set", "INSERT INTO wp_users SET `user_login`='admin', `user_pass`='Secret1815';", "INSERT INTO wp_users SET `user_login`='admin', `user_pass`='" + R + "';"},
		{"xml parameter", `<parameter key="mailer_password">Secret1815</parameter>`, `<parameter key="mailer_password">` + R + `</parameter>`},
		{"sshpass", `sshpass -p 'Secret1815' ssh root@host`, `sshpass -p '` + R + `' ssh root@host`},
		{"curl -u", `curl -u admin:Secret1815 https://example.com/api`, `curl -u admin:` + R + ` https://example.com/api`},
		{"curl --user in php", `exec("curl --user 'admin:Secret1815' $url");`, `exec("curl --user 'admin:` + R + `' $url");`},
		{"teams webhook", `$hook = 'https://acme.webhook.office.com/webhookb2/1b2c3d4e-aaaa@5f6a7b8c-bbbb/IncomingWebhook/0123456789abcdef/9f8e7d6c';`,
			`$hook = 'https://acme.webhook.office.com/webhookb2/` + R + `';`},
		{"telegram bot", `$url = "https://api.telegram.org/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/sendMessage";`,
			`$url = "https://api.telegram.org/bot` + R + `/sendMessage";`},
		{"redis auth", `$redis->auth('Secret1815');`, `$redis->auth('` + R + `');`},
		{"oci_connect", `$c = oci_connect('scott', 'Secret1815', 'orcl');`, `$c = oci_connect('scott', '` + R + `', 'orcl');`},
		{"real_connect", `$db->real_connect('db', 'app', 'Secret1815', 'shop');`, `$db->real_connect('db', 'app', '` + R + `', 'shop');`},
		{"ssh login", `$ssh->login('root', 'Secret1815');`, `$ssh->login('root', '` + R + `');`},
		{"hash_hmac key", `hash_hmac('sha256', $body, 'Secret1815');`, `hash_hmac('sha256', $body, '` + R + `');`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, n := Redact([]byte(tt.in))
			if string(got) != tt.want {
				t.Errorf("Redact(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			if n == 0 {
				t.Errorf("count = 0")
			}
		})
	}
}

func TestFT39_RedactKeepsOrdinaryCode(t *testing.T) {
	for _, in := range []string{
		`$password = $_POST['password'];`,
		// routes whose path is a key word: the handler names code (pixelfed)
		`Route::get('password', 'SettingsController@password')->name('settings.password');`,
		`Route::post('change-password', 'Api\ApiV1Dot1Controller@accountChangePassword');`,
		`'password' => 'App\Http\Controllers\PasswordController',`,
		`$hash = password_hash($password, PASSWORD_DEFAULT);`,
		`'password' => '',`,
		`'password' => $pass,`,
		`function setPassword($password) {`,
		`public function getApiKey(): string`,
		`if ($password === 'x') {`,
		`if ($token == "abc") {`,
		`<input type="password" name="password" value="">`,
		`$passed = 'yes';`,
		`$bypass = 'x';`,
		`'token_type' => 'bearer',`,
		`'password_reset_url' => 'https://example.com/reset',`,
		`'key' => 'value',`,
		`$key = 'post_title';`,
		`'hash' => 'md5',`,
		`password: string;`,
		`password: ${DB_PASSWORD}`,
		`password: %env(DB_PASSWORD)%`,
		`DB_PASSWORD=${SECRET}`,
		`password: process.env.DB_PASS`,
		`password = get_password()`,
		`$dsn = "mysql://root:$pass@localhost";`,
		`$url = "https://example.com:8080/path";`,
		`define('DB_HOST', 'localhost');`,
		`-----BEGIN CERTIFICATE-----`,
		`$tokens = token_get_all($src);`,
		`Asia/Tokyo`,
		`// Set the password here.`,
		// a separator inside a string literal is text: what follows it is code
		`$cookie_headers .= $cookieKey."=".urlencode($cookieVal)."; ";`,
		`<?php _e( 'Password:' ); ?></span> <?php echo $result['password']; ?>`,
		`. __( 'Password:' ) . ' <input name="post_password" id="' . $label . '" type="password" size="20" />`,
		`$this->ERROR = "POP3 pass: " . _("Authentication failed") . " [$reply]";`,
		// a weak key's value the code builds
		`$cache_key    = "find_post_by_old_slug:$key:$last_changed";`,
		`$key = "lastpost{$field}:$timezone";`,
		`WHERE meta_key = '{$blog_prefix}capabilities'`,
		`$key = '_wp_attachment_custom_header_last_used_' . get_stylesheet();`,
		// read in the Debian corpora: names, placeholders, prose and markup
		`'password'   => '[------]',`,
		`'password'    => 'FTP_PASS',`,
		`$password_value = '*****';`,
		`<input name="password" type="password" id="password" value="<?php echo $password_value; ?>" />`,
		`<input type="radio" name="visibility" id="visibility-radio-password" value="password" />`,
		` * Pass 'none' to leave div.wp-menu-image empty so an icon can be added via CSS.`,
		` * @since 4.5.0 Added the ability to pass 'lang' and 'dir' meta data.`,
		` * "Indicate" validation should pass if value is null.`,
		`OR meta_key = 'manageedittagscolumnshidden'`,
		`<tr id="password" class="user-pass1-wrap">`,
		`<input name="pass2" type="password" id="pass2" aria-describedby="pass2-desc" />`,
		`foreach ( array( 'AUTH_KEY', 'SECURE_AUTH_KEY', 'LOGGED_IN_KEY' ) as $key ) {`,
		`$this->warning('Unhandled "uuid" atom identified by "'.$atom_structure['uuid_field_id'].'" at offset');`,
		` * ` + "`root` and the password `password`" + `. All tables will be prefixed with ` + "`sp_`",
		`$out .= "Authorization: Basic " . base64_encode("$url_parts[user]:$url_parts[pass]") . "\r\n";`,
		`protected static function flatten_tree( $tree, $prefix = '', $token = '--' ) {`,
		`$html = str_replace( '<blockquote', "<blockquote data-secret=\"$secret\"", $html );`,
		`'key'                          => 'application/vnd.apple.keynote',`,
		`header( 'Access-Control-Allow-Credentials: true' );`,
		`Password: PASSWORD`,
		`private const STORAGE_KEY = 'flashMessages';`,
		`'MASTER_PASSWORD=\'' . $password . '\',' .`,
		`// to be 'sha256_password' type`,
		`'Password' => '?',`,
		`$result = $this->dbi->fetchSingleRow("SELECT PASSWORD('" . $password . "') AS ` + "`password`" + `;");`,
		`$cacheKey = 'storage-engine.mroonga.has.mroonga_command';`,
		`$config['storage_key'] ?? 'api_token',`,
		`protected $signature = 'auth:clear-resets {name? : The name of the password broker}';`,
		` * The name of the token "column" in persistent storage.`,
		`const INVALID_TOKEN = 'passwords.token';`,
		`'password' => '--password='.$connection['password'],`,
		`return new HtmlString('<input type="hidden" name="_token" value="'.csrf_token().'">');`,
		`$scripts->add( 'application-passwords', "/wp-admin/js/application-passwords$suffix.js", array( 'jquery' ), false, 1 );`,
		` * 'URLQueryEncryptionSecretKey' is a 32 bytes long secret key used to encrypt/decrypt the URL query string.`,
		`'AllowNoPassword',`,
		`$type = $hidden ? 'password' : 'text';`,
		`case 'password': $field = 'text'; break;`,
		`__( 'Password', 'default' )`,
		`$request->input('password', 'fallback_name');`,
		// positions that hold no credential
		"| Field | Type | Description |\n|---|---|---|\n| password | string | The user's password |",
		"<!-- the password field -->",
		`$auth = auth('web');`,
		`$user = Auth::login($user);`,
		`$password = $hidden ? $a : $b;`,
		`$token = $request->bearerToken() ?? '';`,
		"// Pass the token to the next call.",
		"**Password:** the one you chose",
		`const INVALID_TOKEN = 'passwords.token';`,
		`'password' => 'FTP_PASS',`,
	} {
		got, n := Redact([]byte(in))
		if string(got) != in || n != 0 {
			t.Errorf("Redact(%q) = %q, %d; want unchanged", in, got, n)
		}
	}
}

func TestFT40_RedactKeepsLines(t *testing.T) {
	in := "<?php\r\ndefine('DB_PASSWORD', 'x');\n$a = 1;\n-----BEGIN PRIVATE KEY-----\r\nAAA\r\nBBB\r\n-----END PRIVATE KEY-----\n"
	got, n := Redact([]byte(in))
	if n != 2 {
		t.Errorf("count = %d, want 2", n)
	}
	if bytes.Count(got, []byte("\n")) != strings.Count(in, "\n") {
		t.Errorf("line count changed:\n%s", got)
	}
	if bytes.Contains(got, []byte("AAA")) || !bytes.Contains(got, []byte("$a = 1;")) {
		t.Errorf("got %q", got)
	}
}

func TestSegments(t *testing.T) {
	for in, want := range map[string]string{
		"DB_PASSWORD": "db password", "apiKey": "api key", "APIKey": "api key",
		"x-api-key": "x api key", "mail.password": "mail password", "secureAuthKey": "secure auth key",
	} {
		if got := strings.Join(segments([]byte(in)), " "); got != want {
			t.Errorf("segments(%q) = %q, want %q", in, got, want)
		}
	}
}

// plants are secrets FuzzRedact inserts on lines of their own; each holds
// the value plantValue.
var plants = []string{
	"$password = 'Zq8-planted-secret-Vx3';",
	"'api_key' => \"Zq8-planted-secret-Vx3\",",
	"define('DB_PASSWORD', 'Zq8-planted-secret-Vx3');",
	"password: Zq8-planted-secret-Vx3",
	"aws = AKIAZQ8PLANTEDSECRET",
	"putenv('DB_PASSWORD=Zq8-planted-secret-Vx3');",
	"'pass' =>\n    'Zq8-planted-secret-Vx3',",
	"$pdo = new PDO($dsn, 'root', 'Zq8-planted-secret-Vx3');",
	"$secret = $prefix . 'Zq8-planted-secret-Vx3';",
	"INSERT INTO users (login, password) VALUES ('a', 'Zq8-planted-secret-Vx3');",
	"// the admin password is Zq8-planted-secret-Vx3",
}

func plantValue(plant string) string {
	if strings.Contains(plant, "AKIA") {
		return "AKIAZQ8PLANTEDSECRET"
	}
	return "Zq8-planted-secret-Vx3"
}

func FuzzRedact(f *testing.F) {
	// Further seeds live in testdata/fuzz/FuzzRedact.
	f.Add([]byte("<?php\n$x = 1;\n"), uint8(1))
	f.Fuzz(func(t *testing.T, in []byte, which uint8) {
		out, _ := Redact(in)
		if bytes.Count(out, []byte("\n")) != bytes.Count(in, []byte("\n")) {
			t.Fatalf("line count changed: %q -> %q", in, out)
		}
		plant := plants[int(which)%len(plants)]
		secret := plantValue(plant)
		if bytes.Contains(in, []byte(secret)) {
			return
		}
		half := len(in) / 2
		planted := append(append(append([]byte{}, in[:half]...), "\n"+plant+"\n"...), in[half:]...)
		out, _ = Redact(planted)
		if bytes.Contains(out, []byte(secret)) {
			t.Fatalf("planted secret %q survived in %q", secret, out)
		}
	})
}

func BenchmarkRedact(b *testing.B) {
	var src bytes.Buffer
	for src.Len() < 4<<20 {
		src.WriteString(`<?php
/**
 * Retrieves the user's meta data by key.
 */
function get_user_meta_value( $user_id, $key = '', $single = false ) {
	$meta = get_metadata( 'user', $user_id, $key, $single );
	if ( empty( $meta ) && isset( $_POST['password'] ) ) {
		$hash = wp_hash_password( $_POST['password'] );
		return array( 'key' => $key, 'value' => $meta, 'hash' => $hash );
	}
	$sql = "SELECT * FROM wp_usermeta WHERE meta_key = %s";
	return $wpdb->get_results( $wpdb->prepare( $sql, $key ) );
}
define( 'DB_PASSWORD', 'hunter2' );
`)
	}
	b.SetBytes(int64(src.Len()))
	for b.Loop() {
		Redact(src.Bytes())
	}
}

// BenchmarkRedactAdversarial redacts 256 KB lines that repeat a key and its
// separator, a heredoc, a table row or a hook: each must stay far from
// quadratic.
func BenchmarkRedactAdversarial(b *testing.B) {
	for _, unit := range []string{"$password = 'a' . ", "'password' => '", "password=", "$password = '",
		"$secret = <<<X\n", "| password | x |\n", "$password = md5(", "$password {get => '",
		"function getPassword() { return '", "x'password'=>'", "$password = $a ?\n", "`user_pass`='"} {
		in := []byte(strings.Repeat(unit, 256<<10/len(unit)))
		b.Run(strings.TrimSpace(unit), func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				Redact(in)
			}
		})
	}
}
