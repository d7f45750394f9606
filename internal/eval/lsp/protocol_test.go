package lsp

import (
	"encoding/json"
	"testing"
)

// TestLSPParamsWireForm: the typed parameters are written as the protocol
// names them, with the column counted in UTF-16 code units.
func TestLSPParamsWireForm(t *testing.T) {
	pos := positionAt(3, "$é = f𝄞(x);", len("$é = f𝄞("))
	if pos != (position{Line: 2, Character: 9}) {
		t.Fatalf("positionAt = %+v, want line 2, character 9 (𝄞 is two UTF-16 units)", pos)
	}
	for _, c := range []struct {
		v    any
		want string
	}{
		{referencesAt("/r", "a/b.php", pos), `{"textDocument":{"uri":"file:///r/a/b.php"},"position":{"line":2,"character":9},"context":{"includeDeclaration":false}}`},
		{docAt("/r", "b.php", position{Line: 1}), `{"textDocument":{"uri":"file:///r/b.php"},"position":{"line":1,"character":0}}`},
		{didOpenParams{TextDocument: textDocumentItem{URI: "file:///r/b.php", LanguageID: "php", Version: 1, Text: "<?php"}}, `{"textDocument":{"uri":"file:///r/b.php","languageId":"php","version":1,"text":"\u003c?php"}}`},
	} {
		b, err := json.Marshal(c.v)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != c.want {
			t.Errorf("%T:\n got %s\nwant %s", c.v, b, c.want)
		}
	}
}
