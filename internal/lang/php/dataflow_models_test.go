package php

import (
	"slices"
	"testing"

	"github.com/ragraf/ragraf/internal/dataflow"
)

// TestDataflowModelNamesAgree: project.yaml's models are checked against
// dataflow.Superglobals and dataflow.Outputs, so they must name exactly what
// this lowering reads as a superglobal and calls an output statement.
func TestDataflowModelNamesAgree(t *testing.T) {
	if len(superglobals) != len(dataflow.Superglobals) {
		t.Errorf("lowering has %d superglobals, dataflow.Superglobals %d", len(superglobals), len(dataflow.Superglobals))
	}
	for _, s := range dataflow.Superglobals {
		if !superglobals[s] {
			t.Errorf("%s is in dataflow.Superglobals, not read as one", s)
		}
	}
	src := "<?php\necho $a;\nprint $a;\n`ls $a`;\ninclude $a;\ninclude_once $a;\nrequire $a;\nrequire_once $a;\n"
	var got []string
	for _, f := range lowerSrc(t, src) {
		for _, n := range f.Nodes {
			if n.Loc.Kind == dataflow.Output && !slices.Contains(got, n.Loc.Name) {
				got = append(got, n.Loc.Name)
			}
		}
	}
	slices.Sort(got)
	want := slices.Clone(dataflow.Outputs)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("outputs lowered %v, dataflow.Outputs %v", got, want)
	}
}
