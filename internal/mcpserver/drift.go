// This file describes and registers the drift ledger tools: ragraf_drift,
// ragraf_drift_detect, ragraf_drift_record and ragraf_drift_ack. Unlike the
// read tools they append to the ledger in control.sqlite, so they are not
// annotated read-only; the facade operations are in facade/drift.go.

package mcpserver

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ragraf/ragraf/internal/facade"
)

var driftTools = []tool{
	{op: "drift", title: "Drift ledger", description: `The drift ledger of the current revision: recorded differences between the index and the working tree (kind add, modify, delete, rename, slice_boundary, schema_change, note; path; changed lines; acknowledgements).
Example: {"unacked": true} answers
entries:
id=d-1a2b3c4d5e6f7a8b  method=compare  kind=modify  path=src/Cart.php  lines=[40; 52]`},
	{op: "drift_detect", title: "Detect drift", description: `Run a detector and record what it finds: compare (file hashes), git-diff (since the indexed HEAD) or hook:session-start. A known change is not recorded twice.
Example: {"method": "compare"}`},
	{op: "drift_record", title: "Record drift", description: `Record a manual ledger entry for a path (a change no detector sees); the same note is recorded once.
Example: {"path": "src/Cart.php", "note": "pricing rewritten"}`},
	{op: "drift_ack", title: "Acknowledge drift", description: `Acknowledge a ledger entry with a note; the entry stays.
Example: {"entry_id": "d-1a2b3c4d5e6f7a8b", "note": "intended"}`},
}

// AddDriftTools registers the ledger tools on srv. Only `drift` is
// read-only; the others append to the ledger (never change or delete).
func AddDriftTools(srv *mcp.Server, svc *facade.Service, opts Options) error {
	descs := map[string]tool{}
	for _, t := range driftTools {
		descs[t.op] = t
	}
	for _, o := range facade.DriftOps() {
		ann := readOnly()
		if o.Name != "drift" {
			// a writer appends to the ledger and never changes or deletes an
			// entry; detect and record add nothing the second time
			ann = &mcp.ToolAnnotations{ReadOnlyHint: false, DestructiveHint: new(false), IdempotentHint: o.Name != "drift_ack", OpenWorldHint: new(false)}
		}
		if err := addTool(srv, svc, o, descs[o.Name], ann, opts); err != nil {
			return err
		}
	}
	return nil
}
