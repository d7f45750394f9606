package mcpserver

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// FuzzDecodeLine feeds arbitrary lines to the stdio reader's decoder.
// Properties: it never panics; a line is either a message or a JSON-RPC
// error (parse error or invalid request) with a message, never both; only a
// UTF-8 JSON object becomes a message; the verdict depends on the line alone.
// (A message does not always survive re-encoding: the SDK drops an empty
// method, so `{"jsonrpc":"2.0","method":""}` is kept as a seed.)
func FuzzDecodeLine(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{not json}`, "\xff", `[]`, `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, `42`, `null`, ``, ` `,
		`{"jsonrpc":"2.0","id":{"a":1},"method":"x"}`, `{"id":1,"method":"ping"}`, `{"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ragraf_symbol","arguments":{"name":"Cart"}}}`,
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r", `{"a":"\ud800"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		msg, code, text := decodeLine(line)
		if msg != nil {
			if code != 0 || text != "" {
				t.Fatalf("both a message and an error %d %q", code, text)
			}
			trimmed := bytes.TrimSpace(line)
			if !utf8.Valid(trimmed) || !json.Valid(trimmed) || trimmed[0] != '{' {
				t.Fatalf("%q became a message", line)
			}
			// decoding is a function of the line: the same line, the same verdict
			if again, c, _ := decodeLine(line); again == nil || c != 0 {
				t.Fatalf("%q decoded once, refused the second time", line)
			}
			return
		}
		if code != jsonrpc.CodeParseError && code != jsonrpc.CodeInvalidRequest {
			t.Fatalf("%q: code %d", line, code)
		}
		if text == "" {
			t.Fatalf("%q: error without a message", line)
		}
	})
}
