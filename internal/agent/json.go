// This file holds the JSON edits the targets share: one named entry in an
// object (an MCP server), and one hook handler group in an event's array.

package agent

import (
	"errors"
	"path/filepath"
	"strings"
)

// jsonEntry sets the member at keys to want. An existing, different value
// is replaced only when ragraf owns the file (or with force); a file that
// does not parse is refused, or with force replaced by a file holding only
// ragraf's entry (its original bytes stay in the record for uninstall).
func jsonEntry(keys []string, want func(editCtx) any) func([]byte, bool, editCtx) ([]byte, error) {
	return func(cur []byte, _ bool, ctx editCtx) ([]byte, error) {
		v := want(ctx)
		d, err := parseJSONC(cur)
		if err != nil {
			if ctx.force {
				return setJSON(nil, keys, v)
			}
			return nil, unparseable(err)
		}
		if d.root != nil {
			n, found, err := d.lookup(keys)
			if err != nil {
				return nil, err
			}
			if found == len(keys) && !d.sameValue(n, v) {
				if err := ctx.claim(strings.Join(keys, ".")); err != nil {
					return nil, err
				}
			}
		}
		return setJSON(cur, keys, v)
	}
}

func unparseable(err error) error {
	return errors.New("does not parse (" + err.Error() + "); fix it or use --force")
}

// hookGroup is one matcher group of a Claude-shaped hooks array: event ->
// [{matcher, hooks: [{type: command, command, timeout}]}].
func hookGroup(matcher, command string, timeout int) any {
	h := obj{{"type", "command"}, {"command", command}, {"timeout", timeout}}
	if matcher == "" {
		return obj{{"hooks", []any{h}}}
	}
	return obj{{"matcher", matcher}, {"hooks", []any{h}}}
}

// isRagrafGroup reports whether a decoded hook group holds exactly one
// handler and that handler is a ragraf hook called name: ragraf's own group,
// which a re-install may update. Groups with other handlers are never taken.
func isRagrafGroup(command, name string) func(any) bool {
	return func(v any) bool {
		g, ok := v.(map[string]any)
		if !ok {
			return false
		}
		hs, ok := g["hooks"].([]any)
		if !ok || len(hs) != 1 {
			return false
		}
		h, ok := hs[0].(map[string]any)
		if !ok {
			return false
		}
		c, _ := h["command"].(string)
		return isRagrafHook(c, command, name)
	}
}

// isRagrafHook reports whether the command line c runs `ragraf hook name`,
// by the executable command or any other path to a binary named ragraf (so
// an install with another --command updates the hook instead of adding a
// second one).
func isRagrafHook(c, command, name string) bool {
	f := strings.Fields(c)
	if len(f) < 3 || f[1] != "hook" || f[2] != name {
		return false
	}
	exe := strings.Trim(f[0], `"'`)
	base := strings.TrimSuffix(filepath.Base(exe), ".exe")
	return exe == command || base == "ragraf" || base == strings.TrimSuffix(filepath.Base(command), ".exe")
}

// hookEntry appends ragraf's hook group to hooks.<event> (the keys), or
// updates ragraf's group there; other groups stay.
func hookEntry(keys []string, name, matcher, args string, timeout int) func([]byte, bool, editCtx) ([]byte, error) {
	return func(cur []byte, _ bool, ctx editCtx) ([]byte, error) {
		cmd := hookCommand(ctx, args)
		g := hookGroup(matcher, cmd, timeout)
		out, err := appendJSON(cur, keys, g, isRagrafGroup(ctx.command, name))
		if err != nil {
			var se *jsonSyntaxError
			if errors.As(err, &se) {
				if ctx.force {
					return appendJSON(nil, keys, g, func(any) bool { return false })
				}
				return nil, unparseable(err)
			}
			return nil, err
		}
		return out, nil
	}
}
