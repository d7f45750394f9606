// This file holds the templates of values that only their position makes
// secret: word-like values, values too long for a line's first bytes,
// ternaries, continued lines, heredocs, property hooks and getters, the
// password arguments of connection and auth calls, command lines, webhook
// URLs, Markdown tables and comments, SQL SET, XML parameters.

package secretstest

func allTemplates() []template {
	return append(append([]template{}, templates...), positionalTemplates...)
}

var positionalTemplates = []template{
	{"php/long-values", "src/LongValues.php", `<?php
$config = [
    'private_key' => '{long}',
    'client_secret' => "{long}",
];
define('LICENSE_KEY', '{long}');
$apiToken = '{long}';
$s3 = ['credentials' => ['key' => '{aws}', 'secret' => '{long}']];
`},
	{"php/word-like", "src/WordLike.php", `<?php
define('DB_PASSWORD', '{wordy}');
define( 'DB_PASSWORD_RO', '{wordy}' );
define('SMTP_PASSWORD_ADMIN', "{lowerword}");
$token = '{wordy}';
$password = "{lowerword}";
$db_pass = '{snakeword}';
$config['api_key'] = '{wordy}';
$settings = ['secret' => '{lowerword}', 'auth_token' => '{wordy}'];
const ADMIN_PASSWORD = '{wordy}';
$DB_PASSWORD_RW = '{wordy}';
$mysqlPassword = '{lowerword}';
$cfg->password = '{snakeword}';
update_option('smtp_password', '{wordy}');
Config::set('services.mailgun.secret', '{lowerword}');
`},
	{"php/expressions", "src/Expressions.php", `<?php
$password = $isProd ? '{wordy}' : '{wordy}';
$secret = getenv('APP_SECRET') ?: ($fallback ? '{wordy}' : '{lowerword}');
$apiKey = '{word}' .
    '{word}';
$token = '{wordy}'
    . '{word}';
$password = md5('{wordy}');
$password = password_hash('{lowerword}', PASSWORD_DEFAULT);
$secret = <<<EOT
{word}
{wordy}
EOT;
$privateKey = <<<'KEY'
{long}
KEY;
define('DB_PASSWORD', $prod ? '{wordy}' : '{wordy}');
$db = [
    'password' => $env === 'prod'
        ? '{wordy}'
        : '{lowerword}',
];
`},
	{"php/hooks", "src/Hooks.php", `<?php
namespace App;

class Credentials
{
    public string $password {
        get => '{wordy}';
    }

    public string $apiToken { get => '{wordy}'; }

    public string $clientSecret {
        get {
            return '{lowerword}';
        }
    }

    public function getDbPassword(): string
    {
        return '{wordy}';
    }

    public function getSecretKey(): string { return "{word}"; }
}
`},
	{"php/auth-calls", "src/AuthCalls.php", `<?php
$redis = new Redis();
$redis->auth('{wordy}');
$conn = oci_connect('scott', '{wordy}', 'localhost/XE');
$mysqli = new mysqli();
$mysqli->real_connect('db', 'app', '{wordy}', 'shop');
$ssh->login('root', '{lowerword}');
$sftp->login('deploy', "{pw}");
$c = oci_pconnect("hr", "{wordy}", "orcl");
mysqli_change_user($link, 'app', '{wordy}', 'shop');
$sig = hash_hmac('sha256', $payload, '{word}');
$key = openssl_pkey_get_private($pem, '{wordy}');
$m->setSaslAuthData('user', '{wordy}');
$link = odbc_connect('DSN', 'sa', '{wordy}');
ldap_bind($ds, 'cn=admin,dc=example,dc=org', '{wordy}');
$db = new PDO(
    'pgsql:host=db;dbname=shop',
    'shop',
    '{lowerword}'
);
`},
	{"php/commands", "src/Commands.php", `<?php
exec("sshpass -p '{wordy}' ssh root@backup.example.com");
exec('sshpass -p {word} scp dump.sql backup:');
shell_exec("curl -u admin:{wordy} https://api.example.com/v1");
exec("curl --user 'deploy:{pw}' https://ci.example.com");
exec("PGPASSWORD={wordy} pg_dump -h db shop > dump.sql");
putenv('PGPASSWORD={lowerword}');
$cmd = "MYSQL_PWD={wordy} mysql -u root shop";
`},
	{"php/webhooks", "src/Webhooks.php", `<?php
$teams = 'https://acme.webhook.office.com/webhookb2/{teams}';
$legacy = "https://outlook.office.com/webhook/{teams}";
$telegram = "https://api.telegram.org/bot{telegram}/sendMessage";
$notify = ['url' => 'https://api.telegram.org/bot{telegram}/sendMessage?chat_id=42'];
`},
	{"php/sql-set", "src/SqlSet.php", `<?php
$wpdb->query("INSERT INTO wp_users SET ` + "`user_login`='admin', `user_pass`='{wordy}'" + `");
$db->query("UPDATE users SET password = '{lowerword}' WHERE id = 1");
`},
	{"php/comments-positional", "src/Notes.php", `<?php
// pass={wordy}
# password: {lowerword}
/* pwd = {wordy} */
/**
 * Test account: admin, password: {wordy}
 */
// DB_PASSWORD_RO={wordy}
function notes() {}
`},
	{"sql/set", "db/set.sql", "INSERT INTO `wp_users` SET `user_login` = 'admin', `user_pass` = '{wordy}';\n" +
		"UPDATE `users` SET `api_token` = '{word}' WHERE `id` = 2;\n" +
		"INSERT INTO accounts (login, password) VALUES ('a', '{wordy}'), ('b', '{lowerword}');\n" +
		"CREATE USER reporter WITH PASSWORD '{wordy}';\n"},
	{"md/credentials", "docs/credentials.md", "# Credentials\n\n" +
		"| key | value |\n|-----|-------|\n| host | db.example.com |\n| password | {wordy} |\n| API token | `{word}` |\n\n" +
		"| user | password |\n| --- | --- |\n| admin | {wordy} |\n| editor | `{lowerword}` |\n\n" +
		"**Password:** {wordy}\n\n" +
		"**API key**: {word}\n\n" +
		"<!-- password: {wordy} -->\n" +
		"<!-- db_password={lowerword} -->\n\n" +
		"- Password: {lowerword}\n" +
		"- token = {word}\n\n" +
		"```sh\nPGPASSWORD={wordy} psql -h db shop\nsshpass -p '{wordy}' ssh deploy@example.com\n" +
		"curl -u admin:{wordy} https://api.example.com\nexport DB_PASSWORD_RO={wordy}\n```\n\n" +
		"Teams: https://acme.webhook.office.com/webhookb2/{teams}\n" +
		"Bot: https://api.telegram.org/bot{telegram}/getMe\n"},
	{"xml/services", "config/services.xml", `<container>
  <parameters>
    <parameter key="mailer_password">{wordy}</parameter>
    <parameter key="database_password">{lowerword}</parameter>
    <parameter key="secret">{word}</parameter>
  </parameters>
  <env name="DB_PASSWORD" value="{wordy}"/>
  <add key="SmtpPassword" value="{wordy}" />
  <password>{lowerword}</password>
</container>
`},
	{"yaml/parameters", "config/parameters.yml", `parameters:
  database_password: {wordy}
  mailer_password: '{lowerword}'
  secret: {snakeword}
  private_key: "{long}"
  api_token: {word}
  DB_PASSWORD_RO: {wordy}
`},
	{"json/service-account", "config/service-account.json", `{
  "type": "service_account",
  "private_key": "{long}",
  "client_secret": "{wordy}",
  "password": "{lowerword}",
  "webhook": "https://acme.webhook.office.com/webhookb2/{teams}"
}
`},
	{"shell/deploy", "deploy/env.sh", `#!/bin/sh
export DB_PASSWORD='{wordy}'
export PGPASSWORD={lowerword}
MYSQL_PWD="{wordy}" mysqldump shop > dump.sql
sshpass -p "{wordy}" rsync -a dump.sql backup:
curl -fsS -u "ci:{wordy}" https://ci.example.com/hook
REDIS_PASSWORD={wordy} redis-cli ping
curl -s "https://api.telegram.org/bot{telegram}/sendMessage" -d text=done
`},
}
