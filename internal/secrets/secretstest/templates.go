// This file holds the corpus templates: one file each, {kind} where a value
// goes (kinds are in plant.go).

package secretstest

type template struct{ name, path, text string }

var templates = []template{
	{"php/wp-config", "wp-config.php", `<?php
define( 'DB_NAME', 'wordpress' );
define( 'DB_USER', 'wpuser' );
define( 'DB_PASSWORD', '{pw}' );
define( 'DB_HOST', 'localhost' );
define('AUTH_KEY',         '{wpkey}');
define('SECURE_AUTH_KEY',  '{wpkey}');
define('LOGGED_IN_KEY',    '{wpkey}');
define('NONCE_KEY',        '{wpkey}');
define('AUTH_SALT',        '{wpkey}');
define('SECURE_AUTH_SALT', '{wpkey}');
define('LOGGED_IN_SALT',   '{wpkey}');
define('NONCE_SALT',       '{wpkey}');
define(
    'DB_PASSWORD_2',
    '{pw}'
);
define("SMTP_PASS", "{pw}");
$table_prefix = 'wp_';
`},
	{"php/suffixed-keys", "src/Suffixed.php", `<?php
$db_password_2 = '{pw}';
$password_new = "{pw}";
$passwordConfirm = '{pw}';
$config['smtp_pass_old'] = '{pw}';
$settings = ['api_key_prod' => '{word}', 'secret_key_v2' => "{word}"];
$DB_PASS1 = '{pw}';
`},
	{"php/value-next-line", "src/NextLine.php", `<?php
$db = array(
    'pass' =>
        '{pw}',
    'password'
        => "{pw}",
    'secret' =>
    '{word}',
);
$token =
    '{word}';
`},
	{"php/concatenation", "src/Concat.php", `<?php
$password = '{pw}' . '{pw}';
$apiKey = 'sk' . "{word}";
$secret = $prefix . '{word}';
$cfg = ['token' => 'tok_' . '{word}'];
`},
	{"php/env-fallbacks", "src/EnvFallback.php", `<?php
putenv('DB_PASSWORD={pw}');
putenv("API_KEY={word}");
$pass = $_ENV['DB_PASSWORD'] ?? '{pw}';
$key = getenv('STRIPE_SECRET') ?: '{word}';
$_ENV['DB_PASSWORD'] = '{pw}';
$_SERVER['API_TOKEN'] = "{word}";
$conn = new Conn($_ENV['DB_PASS'] ?? '{pw}');
$db = ['password' => $_ENV['DB_PASSWORD'] ?? '{pw}'];
$password = env('DB_PASSWORD') ?: '{pw}';
`},
	{"php/headers", "src/Headers.php", `<?php
curl_setopt($ch, CURLOPT_HTTPHEADER, ["Authorization: Bearer {word}", "X-Api-Key: {word}"]);
$headers = array('Authorization' => 'Bearer {word}');
$basic = "Authorization: Basic {b64}";
header("Authorization: token {ghp}");
curl_setopt($ch, CURLOPT_USERPWD, "admin:{pw}");
`},
	{"php/positional", "src/Positional.php", `<?php
$pdo = new PDO('mysql:host=localhost;dbname=shop', 'shop', '{pw}');
$pdo2 = new \PDO(
    $dsn,
    'root',
    '{pw}'
);
$link = mysqli_connect('localhost', 'root', '{pw}', 'shop');
$m = new mysqli("localhost", "root", "{pw}", "shop");
mysqli_real_connect($link, 'db', 'app', '{pw}');
$old = mysql_connect('db', 'app', '{pw}');
ftp_login($conn, 'deploy', '{pw}');
ldap_bind($ds, 'cn=admin,dc=example,dc=org', '{pw}');
ssh2_auth_password($session, 'root', '{pw}');
$mbox = imap_open('{imap.example.com:993/imap/ssl}INBOX', 'me', '{pw}');
$mailer->setPassword('{pw}');
$client->setApiKey("{word}");
$http = $this->withToken('{word}');
$smtp->setUsername('mailer')->setPassword('{pw}');
\Stripe\Stripe::setApiKey('{stripe}');
$pg = pg_connect("host=localhost dbname=shop user=shop password={pw}");
$mail->Password = '{pw}';
`},
	{"php/dsn", "src/Dsn.php", `<?php
$dsn = 'mysql://shop:{pw}@db.example.com/shop';
$cfg = ['url' => "postgres://app:{pw}@localhost:5432/app"];
$redis = 'redis://:{pw}@cache:6379/0';
$amqp = "amqp://guest:{pw}@mq:5672";
$repo = 'https://deploy:{pw}@git.example.com/repo.git';
$mongo = 'mongodb+srv://u:{pw}@cluster0.example.net';
$smtpUrl = 'smtp://u:{pw}@smtp.example.com:587';
`},
	{"php/provider-tokens", "src/Tokens.php", `<?php
$aws = ['key' => '{aws}', 'secret' => '{awssecret}'];
$s3 = new S3Client(['credentials' => ['key' => '{aws}', 'secret' => '{awssecret}']]);
$gh = "{ghp}";
$pat = '{ghpat}';
$gl = '{glpat}';
$bot = '{xoxb}';
$hook = '{slackhook}';
$discord = '{discord}';
const STRIPE = '{stripe}';
$test = '{stripetest}';
$restricted = '{stripe_rk}';
$webhook = '{whsec}';
$maps = '{google}';
$jwt = '{jwt}';
$sg = '{sendgrid}';
$ai = '{openai}';
$claude = '{anthropic}';
$npm = '{npm}';
$mg = '{mailgun}';
$shop = '{shopify}';
`},
	{"php/comments", "src/Comments.php", `<?php
// password: {pw}
// the admin password is {pw}
# api_key = {word}
/* secret: {word} */

/**
 * Connects to the API.
 *
 * The sandbox token is {word}.
 * password = "{pw}"
 * @example $client->setToken('{word}');
 * @param string $password Defaults to '{pw}'.
 */
function connect_api($password = '{pw}') {}
`},
	{"php/properties", "src/Props.php", `<?php
namespace App;

class Gateway
{
    private $secret = '{word}';
    protected static $apiToken = "{word}";
    public const CLIENT_SECRET = '{word}';
    private string $password = '{pw}';

    public function __construct(private string $accessToken = '{word}') {}

    public function connect()
    {
        return new Client(username: 'app', password: '{pw}');
    }
}
`},
	{"php/calls-with-keys", "src/ConfigCalls.php", `<?php
Config::set('mail.password', '{pw}');
update_option('api_key', '{word}');
$this->config->set_item('encryption_key', '{word}');
$container->setParameter('database_password', "{pw}");
`},
	{"php/sql-in-php", "src/SqlInPhp.php", `<?php
$wpdb->query("INSERT INTO wp_users (user_login, user_pass) VALUES ('admin', '{pw}')");
$db->exec("CREATE USER 'app'@'localhost' IDENTIFIED BY '{pw}'");
`},
	{"php/heredoc", "src/Heredoc.php", `<?php
$ini = <<<INI
[database]
password = "{pw}"
api_key={word}
INI;
$env = <<<'ENV'
DB_PASSWORD={pw}
ENV;
`},
	{"php/pem", "src/Pem.php", `<?php
$key = "-----BEGIN RSA PRIVATE KEY-----\n{pemescaped}\n-----END RSA PRIVATE KEY-----";
$ssh = <<<KEY
-----BEGIN OPENSSH PRIVATE KEY-----
{pembody}
-----END OPENSSH PRIVATE KEY-----
KEY;
`},
	{"php/shell", "src/Shell.php", `<?php
exec("mysqldump -uroot -p{pw} shop > dump.sql");
exec('mysql --user=root --password={pw} shop');
`},
	{"php/template", "templates/login.php", `<div>
<script>var apiKey = "{word}";</script>
<?php $password = '{pw}'; ?>
</div>
`},
	{"md/readme", "docs/setup.md", "# Setup\n\n" +
		"The admin password is `{pw}`.\n" +
		"Set `DB_PASSWORD={pw}` in your environment.\n\n" +
		"- password: {pw}\n" +
		"- API key: {word}\n\n" +
		"Use `Authorization: Bearer {word}` for calls.\n" +
		"The sandbox token is {word}.\n" +
		"Connect with mysql://root:{pw}@localhost/shop and the key {aws}.\n\n" +
		"```php\n$password = '{pw}';\ndefine('AUTH_KEY', '{wpkey}');\n```\n\n" +
		"```ini\npassword = {pw}\n```\n\n" +
		"```yaml\napi_key: {word}\n```\n\n" +
		"```\n-----BEGIN PRIVATE KEY-----\n{pembody}\n-----END PRIVATE KEY-----\n```\n"},
	{"md/prose", "docs/deploy.md", "# Deploy\n\n" +
		"Log in as `deploy` with the password `{pw}` and push.\n" +
		"Export SLACK_WEBHOOK={slackhook} before the release.\n" +
		"Our GitHub token: {ghp}\n"},
	{"sql/dump", "db/seed.sql", `INSERT INTO users (id, login, password, api_token) VALUES (1, 'admin', '{pw}', '{word}');
INSERT INTO ` + "`users` (`id`, `user_pass`)" + ` VALUES
  (2, '{pw}'),
  (3, '{pw}');
INSERT INTO settings (name, value) VALUES ('smtp_password', '{pw}');
CREATE USER 'app'@'localhost' IDENTIFIED BY '{pw}';
GRANT ALL PRIVILEGES ON shop.* TO 'app'@'%' IDENTIFIED BY '{pw}';
ALTER USER 'app'@'localhost' IDENTIFIED WITH mysql_native_password BY '{pw}';
SET PASSWORD FOR 'app'@'localhost' = PASSWORD('{pw}');
UPDATE users SET password = '{pw}' WHERE id = 1;
CREATE ROLE reporter LOGIN PASSWORD '{pw}';
-- admin password: {pw}
`},
	{"sql/schema", "db/schema.sql", `CREATE TABLE users (
  id INT PRIMARY KEY,
  login VARCHAR(60),
  password VARCHAR(255) DEFAULT '{pw}'
);
`},
	{"ini", "config/app.ini", `[database]
host = localhost
password = "{pw}"
db.password={pw}
pass = {pw}
`},
	{"yaml", "config/app.yaml", `database:
  host: localhost
  password: {pw}
  api_key: "{word}"
  secret: '{word}'
  url: mysql://app:{pw}@db/app
private_key: |
  {word}
`},
	{"json", "config/app.json", `{
  "database": {"host": "localhost", "password": "{pw}"},
  "apiKey":"{word}",
  "auth": {"token": "{word}"},
  "client_secret":
    "{word}"
}
`},
	{"xml", "config/app.xml", `<config>
  <password>{pw}</password>
  <add key="ApiKey" value="{word}"/>
</config>
`},
}
