// This file keeps ragraf's own writes out of the drift ledger: the agent
// configuration `ragraf agent install` wrote (AGENTS.md's block, .mcp.json,
// the skill ...) is not a change of the project's code, as long as the file
// still holds exactly what ragraf left there (internal/agent's record says).

package facade

import (
	"slices"

	"github.com/ragraf/ragraf/internal/agent"
	"github.com/ragraf/ragraf/internal/drift"
)

// withoutAgentFiles drops the deltas of files that hold ragraf's own
// agent-install bytes.
func (s *Service) withoutAgentFiles(ds []drift.Delta) []drift.Delta {
	own := agent.RecordedPaths(s.root)
	if len(own) == 0 {
		return ds
	}
	return slices.DeleteFunc(ds, func(d drift.Delta) bool {
		return d.Kind != drift.KindNote && slices.Contains(own, d.Path)
	})
}
