// This file is the git-diff detector: the paths git reports as changed since
// the revision's HEAD (committed, staged, unstaged and untracked), each then
// checked like compare checks it, so both methods agree on the entry.

package drift

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"sort"

	"github.com/ragraf/ragraf/internal/config"
)

// ErrNoGitHead means the revision was not built from a git repository.
var ErrNoGitHead = errors.New("the revision records no git HEAD: the project was not a git repository when indexed")

// GitDiff checks the paths changed since src.GitHead.
func GitDiff(ctx context.Context, src Source, root string, cfg config.Config) ([]Delta, error) {
	if src.GitHead == "" {
		return nil, ErrNoGitHead
	}
	src.TablePrefixes = cfg.Database.TablePrefixes
	changed, err := git(ctx, root, "diff", "--name-only", "--no-renames", "-z", src.GitHead, "--")
	if err != nil {
		return nil, err
	}
	untracked, err := git(ctx, root, "ls-files", "--others", "--exclude-standard", "-z")
	if err != nil {
		return nil, err
	}
	paths := map[string]bool{}
	for _, out := range [][]byte{changed, untracked} {
		for _, p := range bytes.Split(out, []byte{0}) {
			if len(p) > 0 {
				paths[string(p)] = true
			}
		}
	}
	sorted := make([]string, 0, len(paths))
	for p := range paths {
		sorted = append(sorted, p)
	}
	sort.Strings(sorted)
	tree := newTree(root, cfg)
	var out []Delta
	for _, p := range sorted {
		idx, indexed, err := src.File(ctx, p)
		if err != nil {
			return nil, err
		}
		if !indexed && !inCorpus(cfg, p) {
			continue
		}
		st, err := statFile(tree, p)
		if err != nil {
			return nil, err
		}
		ds, err := checkOne(ctx, src, tree, p, st, idx, indexed)
		if err != nil {
			return nil, err
		}
		out = append(out, ds...)
	}
	out, err = pairRenames(ctx, src, tree, out)
	if err != nil {
		return nil, err
	}
	sortDeltas(out)
	return out, nil
}

func git(ctx context.Context, root string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", root}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s: %v: %s", args[0], err, bytes.TrimSpace(stderr.Bytes()))
	}
	return out, nil
}
