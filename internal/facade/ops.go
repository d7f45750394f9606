// This file is the table of operations the transports serve: each name with
// its argument and result types and the method that answers it. Call decodes
// JSON arguments strictly and runs one, so the CLI and MCP validate input the
// same way and print the same bytes (FT-22).

package facade

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
)

// Op is one operation.
type Op struct {
	Name   string
	Args   reflect.Type // the argument struct
	Result reflect.Type // the type of Envelope.Result of a detailed answer
	// Formats says the arguments take format (they embed Output); every
	// operation's should. Concise says the result has a concise form that
	// differs from the detailed one by more than the envelope.
	Formats, Concise bool
	run              func(ctx context.Context, s *Service, raw []byte) (*Envelope, error)
}

func op[A, R any](name string, f func(*Service, context.Context, A) (*Envelope, error)) Op {
	_, formats := any(*new(A)).(formatted)
	_, concise := any(*new(R)).(conciser)
	return Op{
		Name: name, Args: reflect.TypeFor[A](), Result: reflect.TypeFor[R](), Formats: formats, Concise: concise,
		run: func(ctx context.Context, s *Service, raw []byte) (*Envelope, error) {
			var a A
			if err := decodeArgs(raw, &a); err != nil {
				return nil, err
			}
			format := FormatDetailed
			if fa, ok := any(a).(formatted); ok {
				var err error
				if format, err = checkFormat(fa.output()); err != nil {
					return nil, err
				}
			}
			env, err := f(s, ctx, a)
			if err == nil {
				applyFormat(env, format)
			}
			return env, err
		},
	}
}

// Ops lists the operations served, in a fixed order.
func Ops() []Op {
	return []Op{
		op[StatusArgs, StatusResult]("status", (*Service).Status),
		op[SymbolArgs, SymbolResult]("symbol", (*Service).Symbol),
		op[OutlineArgs, OutlineResult]("outline", (*Service).Outline),
		op[ReferencesArgs, ReferencesResult]("references", (*Service).References),
		op[ImplementationsArgs, ImplementationsResult]("implementations", (*Service).Implementations),
		op[CallersArgs, CallsResult]("callers", (*Service).Callers),
		op[CalleesArgs, CallsResult]("callees", (*Service).Callees),
		op[ImpactArgs, ImpactResult]("impact", (*Service).Impact),
		op[RepoMapArgs, RepoMapResult]("repo_map", (*Service).RepoMap),
		op[SearchArgs, SearchResult]("search", (*Service).Search),
		op[SimilarArgs, SimilarResult]("similar", (*Service).Similar),
		op[CodeArgs, CodeResult]("code", (*Service).Code),
		op[LiveReadArgs, LiveReadResult]("live_read", (*Service).LiveRead),
		op[RevisionsArgs, RevisionsResult]("revisions", (*Service).Revisions),
		op[EntryPointsArgs, EntryPointsResult]("entry_points", (*Service).EntryPoints),
		op[SchemaArgs, SchemaResult]("schema", (*Service).Schema),
		op[TableUsageArgs, TableUsageResult]("table_usage", (*Service).TableUsage),
		op[DocsArgs, DocsResult]("docs", (*Service).Docs),
		op[ContextArgs, ContextResult]("context", (*Service).Context),
		op[ChangesArgs, ChangesResult]("changes", (*Service).Changes),
		op[SliceArgs, SliceResult]("slice", (*Service).Slice),
		op[FlowArgs, FlowResult]("flow", (*Service).Flow),
	}
}

// Call runs the operation name with JSON arguments (an object; empty means {}).
func (s *Service) Call(ctx context.Context, name string, args []byte) (*Envelope, error) {
	env, err := s.call(ctx, name, args)
	if err != nil && ctx.Err() != nil && AsError(err).Code == ErrInternal {
		// a store interrupted by the cancel says "context canceled" under
		// any wrapper: the call was cancelled, nothing failed
		return nil, Cancelled(ctx.Err())
	}
	return env, err
}

func (s *Service) call(ctx context.Context, name string, args []byte) (*Envelope, error) {
	for _, o := range Ops() {
		if o.Name == name {
			return o.run(ctx, s, args)
		}
	}
	return s.CallDrift(ctx, name, args)
}

// EncodeJSON is the encoding of answers and errors for people: indented,
// HTML left unescaped, with a trailing newline. The CLI prints it.
func EncodeJSON(v any) ([]byte, error) {
	return encodeIndent(v, "  ")
}

// EncodeCompactJSON is the same answer without indentation, for programs: MCP
// sends it as the tool result's text and structured content. It decodes to
// the same value as EncodeJSON's bytes, in about two thirds of the size.
func EncodeCompactJSON(v any) ([]byte, error) {
	return encodeIndent(v, "")
}

func encodeIndent(v any, indent string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
