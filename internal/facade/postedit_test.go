package facade

import (
	"context"
	"testing"
)

// TestFT25_PostEditMethod: drift_detect with method hook:post-edit checks
// only the paths it is given and records their changes under that method; a
// compare afterwards finds the same change and adds nothing (FT-27); the
// method without paths is refused.
func TestFT25_PostEditMethod(t *testing.T) {
	root, s := driftProject(t)
	writeFile(t, root, "src/Cart.php", cartPHP+"// edited\n")
	writeFile(t, root, "src/util.php", "<?php\nfunction util_twice($x)\n{\n    return $x * 3;\n}\n")
	env := call(t, s, "drift_detect", `{"method":"hook:post-edit","paths":["src/Cart.php"]}`)
	r := env.Result.(DriftDetectResult)
	if len(r.Added) != 1 || r.Added[0].Method != "hook:post-edit" || r.Added[0].Path != "src/Cart.php" {
		t.Fatalf("post-edit added %+v", r.Added)
	}
	env = call(t, s, "drift_detect", `{"method":"compare"}`)
	r = env.Result.(DriftDetectResult)
	if len(r.Added) != 1 || r.Added[0].Path != "src/util.php" {
		t.Errorf("compare after the hook added %+v, want only util.php's change", r.Added)
	}
	if _, err := s.Call(context.Background(), "drift_detect", []byte(`{"method":"hook:post-edit"}`)); AsError(err).Code != ErrBadInput {
		t.Errorf("post-edit without paths: %v", err)
	}
	if _, err := s.Call(context.Background(), "drift_detect", []byte(`{"method":"hook:post-edit","paths":["../x.php"]}`)); AsError(err).Code != ErrPathOutside {
		t.Errorf("post-edit outside the project: %v", err)
	}
}
