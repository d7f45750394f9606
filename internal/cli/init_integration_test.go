package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/config"
)

// initConfig runs the real binary's init in a tree of files and reads the
// project.yaml it wrote.
func initConfig(t *testing.T, files map[string]string) (config.Config, string) {
	t.Helper()
	root := writeFiles(t, files)
	r := run(t, root, "init")
	if r.code != 0 {
		t.Fatalf("init: %d %s", r.code, r.stderr)
	}
	path := filepath.Join(root, ".ragraf", "project.yaml")
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := config.Load(path)
	if err != nil {
		t.Fatalf("init wrote a file that does not load: %v\n%s", err, text)
	}
	return c, string(text)
}

// TestInit_LanguagesDetectedFromTheTree: a Go and TypeScript tree gets go
// and typescript (counts in the comment), not PHP; node_modules and vendor
// are not counted, third_party is excluded, and no table prefix is invented.
func TestInit_LanguagesDetectedFromTheTree(t *testing.T) {
	c, text := initConfig(t, map[string]string{
		"cmd/app/main.go":             "package main\n\nfunc main() {}\n",
		"internal/x/x.go":             "package x\n",
		"internal/x/x_test.go":        "package x\n",
		"web/src/app.ts":              "export const a = 1\n",
		"web/src/view.tsx":            "export const V = () => null\n",
		"web/node_modules/l/index.js": "module.exports = 1\n",
		"vendor/github.com/y/y.go":    "package y\n",
		"third_party/z/z.c":           "int z(void) { return 0; }\n",
		"README.md":                   "# app\n",
		"assets/logo.png":             "\x89PNG\x00",
	})
	if !slices.Equal(c.Languages, []string{"go", "typescript", "markdown"}) {
		t.Errorf("languages = %v, want go, typescript, markdown (most files first)", c.Languages)
	}
	if !strings.Contains(strings.ReplaceAll(text, "\n# ", " "), "go 3, typescript 2, markdown 1.") {
		t.Errorf("the comment does not count the files:\n%s", text)
	}
	if !slices.Equal(c.Exclude, []string{"third_party"}) {
		t.Errorf("exclude = %v, want third_party", c.Exclude)
	}
	if len(c.Database.TablePrefixes) != 0 {
		t.Errorf("table_prefixes = %v, want none", c.Database.TablePrefixes)
	}
}

// TestInit_WordPressPrefixDetected: a PHP tree whose config sets
// $table_prefix and whose SQL creates wp_ tables gets that prefix, with
// where it was seen.
func TestInit_WordPressPrefixDetected(t *testing.T) {
	c, text := initConfig(t, map[string]string{
		"wp-config-sample.php": "<?php\n// $table_prefix = 'xx_'; in a comment is no setting\n$table_prefix = 'wp_';\n",
		"wp-includes/load.php": "<?php\nfunction f() { global $wpdb; return $wpdb->prefix . 'options'; }\n",
		"schema/tables.sql":    "CREATE TABLE wp_posts (id int);\nCREATE TABLE `wp_options` (id int);\nCREATE TABLE IF NOT EXISTS wp_users (id int);\n",
	})
	if !slices.Equal(c.Database.TablePrefixes, []string{"wp_"}) {
		t.Errorf("table_prefixes = %v, want [wp_]", c.Database.TablePrefixes)
	}
	if !strings.Contains(text, "wp-config-sample.php:3") {
		t.Errorf("the comment does not say where the prefix was seen:\n%s", text)
	}
	if !slices.Equal(c.Languages, []string{"php", "sql"}) {
		t.Errorf("languages = %v", c.Languages)
	}

	c, _ = initConfig(t, map[string]string{
		"plugin.php":       "<?php\nfunction p() { global $wpdb; return $wpdb->get_results(\"SELECT * FROM {$wpdb->posts}\"); }\n",
		"install/shop.sql": "CREATE TABLE oc_product (id int);\nCREATE TABLE oc_order (id int);\nCREATE TABLE oc_customer (id int);\n",
	})
	if !slices.Equal(c.Database.TablePrefixes, []string{"oc_"}) {
		t.Errorf("SQL files' common prefix: table_prefixes = %v, want [oc_]", c.Database.TablePrefixes)
	}
}

// TestInit_NoPrefixWithoutEvidence: a PHP tree with no prefix setting and
// tables sharing no prefix gets none (never wp_ by default), and a Laravel
// connection's prefix is read from config/database.php.
func TestInit_NoPrefixWithoutEvidence(t *testing.T) {
	c, _ := initConfig(t, map[string]string{
		"src/Repo.php":       "<?php\nclass Repo { function all() { return $this->db->query('SELECT * FROM users'); } }\n",
		"db/schema.sql":      "CREATE TABLE users (id int);\nCREATE TABLE user_roles (id int);\nCREATE TABLE user_tokens (id int);\nCREATE TABLE orders (id int);\n",
		"config/app.php":     "<?php\nreturn ['prefix' => 'app_'];\n",
		"docs/install.md":    "Set `$table_prefix = 'wp_';` in WordPress.\n",
		"db/family_only.sql": "CREATE TABLE audit_log (id int);\n",
	})
	if len(c.Database.TablePrefixes) != 0 {
		t.Errorf("table_prefixes = %v, want none", c.Database.TablePrefixes)
	}
	c, _ = initConfig(t, map[string]string{
		"config/database.php": "<?php\nreturn ['connections' => ['mysql' => ['prefix' => env('DB_PREFIX', 'lv_')]],\n  'redis' => ['options' => ['prefix' => env('REDIS_PREFIX', Str::slug('x'))]]];\n",
	})
	if !slices.Equal(c.Database.TablePrefixes, []string{"lv_"}) {
		t.Errorf("Laravel connection prefix: table_prefixes = %v, want [lv_]", c.Database.TablePrefixes)
	}
}
