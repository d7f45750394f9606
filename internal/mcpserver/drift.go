// This file describes and registers the drift ledger tools: ragraf_drift,
// ragraf_drift_detect, ragraf_drift_record and ragraf_drift_ack. Unlike the
// read tools they append to the ledger in control.sqlite, so they are not
// annotated read-only; the facade operations are in facade/drift.go.

package mcpserver

import (
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ragraf/ragraf/internal/facade"
)

var driftTools = []tool{
	{op: "drift", title: "Drift ledger", description: `List the drift ledger of the current revision: every recorded difference between the index and the working tree, with kind (add, modify, delete, rename, slice_boundary, schema_change, note), path, changed line ranges of the indexed file, affected node ids and acknowledgements.
Use it to see which indexed facts may be stale before relying on them. Paged (limit default 100): pass limits.cursor back as cursor.
Example: {"unacked": true} -> result.entries [{"id": "d-1a2b3c4d5e6f7a8b", "method": "compare", "kind": "modify", "path": "src/Cart.php", "lines": [[40, 52]], ...}].`},
	{op: "drift_detect", title: "Detect drift", description: `Run a drift detector now and record what it finds: "compare" (file hashes against the index), "git-diff" (changes since the indexed git HEAD), or "hook:session-start". Re-detecting a change adds nothing.
Example: {"method": "compare"} -> result.found 3, result.added [...new entries...], result.changed_paths ["src/Cart.php", ...].`},
	{op: "drift_record", title: "Record drift", description: `Record a manual ledger entry for a path, e.g. a change you are about to make or one no detector can see. The same note on the same path and kind is recorded once.
Example: {"path": "src/Cart.php", "kind": "note", "note": "pricing rules being rewritten"} -> result.entry {"id": "d-…", "method": "manual", ...}, result.added true.`},
	{op: "drift_ack", title: "Acknowledge drift", description: `Acknowledge a ledger entry with a note; the entry itself stays unchanged and shows its acknowledgements.
Example: {"entry_id": "d-1a2b3c4d5e6f7a8b", "note": "intended refactoring"} -> result.entry.acks [{"note": "intended refactoring", ...}].`},
}

// AddDriftTools registers the ledger tools on srv. Only `drift` is
// read-only; the others append to the ledger (never change or delete).
func AddDriftTools(srv *mcp.Server, svc *facade.Service, log *slog.Logger) error {
	descs := map[string]tool{}
	for _, t := range driftTools {
		descs[t.op] = t
	}
	for _, o := range facade.DriftOps() {
		ann := &mcp.ToolAnnotations{ReadOnlyHint: o.Name == "drift", DestructiveHint: new(false), OpenWorldHint: new(false), IdempotentHint: o.Name != "drift_ack"}
		if err := addTool(srv, svc, o, descs[o.Name], ann, log); err != nil {
			return err
		}
	}
	return nil
}
