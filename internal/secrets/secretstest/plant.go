// Package secretstest writes a corpus of planted secrets for the tests that
// prove FT-39/40: PHP, Markdown, SQL and config files holding credentials in
// every shape the redactor must recognise, each value unique and random, and
// a Finder that tells which planted values a piece of output still holds.
package secretstest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Plant is one planted secret.
type Plant struct {
	Shape string // the template and the place in it, e.g. "php/positional#3"
	Path  string // slash-separated, relative to the corpus root
	Value string // the secret as written into the file
	runs  []string
}

// Window is how long a piece of a value's random part must be to count as a
// leak: a redaction that stops half-way still fails.
const Window = 10

// Write writes the corpus under dir with values drawn from seed and returns
// the plants, sorted by path and shape.
func Write(dir string, seed uint64) ([]Plant, error) {
	g := &gen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	var plants []Plant
	for _, t := range allTemplates() {
		n := 0
		text := placeholder.ReplaceAllStringFunc(t.text, func(m string) string {
			kind := m[1 : len(m)-1]
			mk, ok := kinds[kind]
			if !ok {
				return m
			}
			n++
			v, runs := mk(g)
			plants = append(plants, Plant{Shape: fmt.Sprintf("%s#%d", t.name, n), Path: t.path, Value: v, runs: runs})
			return v
		})
		abs := filepath.Join(dir, filepath.FromSlash(t.path))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(abs, []byte(text), 0o644); err != nil {
			return nil, err
		}
	}
	slices.SortStableFunc(plants, func(a, b Plant) int { return strings.Compare(a.Path, b.Path) })
	return plants, nil
}

// Paths lists the files of the corpus.
func Paths() []string {
	var out []string
	for _, t := range allTemplates() {
		out = append(out, t.path)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Finder finds planted values in output, ignoring case.
type Finder struct {
	plants []Plant
	win    map[string]int // lower-case window -> plant index
}

// NewFinder indexes every Window-long piece of the plants' random parts.
func NewFinder(plants []Plant) *Finder {
	f := &Finder{plants: plants, win: map[string]int{}}
	for i, p := range plants {
		for _, r := range p.runs {
			r = strings.ToLower(r)
			for k := 0; k+Window <= len(r); k++ {
				f.win[r[k:k+Window]] = i
			}
		}
	}
	return f
}

// Find returns the plants a piece of data holds (a Window-long piece of a
// value's random part, in any case), each once, in plant order.
func (f *Finder) Find(data []byte) []Plant {
	low := bytes.ToLower(data)
	hit := map[int]bool{}
	for k := 0; k+Window <= len(low); k++ {
		if i, ok := f.win[string(low[k:k+Window])]; ok {
			hit[i] = true
		}
	}
	var out []Plant
	for i := range f.plants {
		if hit[i] {
			out = append(out, f.plants[i])
		}
	}
	return out
}

// gen draws random parts.
type gen struct{ r *rand.Rand }

const (
	lowerDigits = "abcdefghijklmnopqrstuvwxyz0123456789"
	mixed       = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	upperDigits = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	hexDigits   = "0123456789abcdef"
)

func (g *gen) s(alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[g.r.IntN(len(alphabet))]
	}
	return string(b)
}

// kinds make a value and its random runs (each at least Window long).
var kinds = map[string]func(g *gen) (string, []string){
	"pw": func(g *gen) (string, []string) { // a password with punctuation inside
		a, b := g.s(mixed, 12), g.s(mixed, 12)
		return a + "#!" + b, []string{a, b}
	},
	"word": func(g *gen) (string, []string) { a := g.s(lowerDigits, 24); return a, []string{a} },
	"wpkey": func(g *gen) (string, []string) { // WordPress salts: printable noise
		a, b := g.s(mixed, 20), g.s(mixed, 20)
		return a + "%*(|<>" + b, []string{a, b}
	},
	"b64": func(g *gen) (string, []string) { a := g.s(mixed, 28); return a + "==", []string{a} },
	"aws": func(g *gen) (string, []string) { a := g.s(upperDigits, 16); return "AKIA" + a, []string{a} },
	"awssecret": func(g *gen) (string, []string) {
		a, b := g.s(mixed, 20), g.s(mixed, 19)
		return a + "/" + b, []string{a, b}
	},
	"ghp":   prefixed("ghp_", mixed, 36),
	"ghpat": prefixed("github_pat_11", mixed, 60),
	"glpat": prefixed("glpat-", mixed, 20),
	"xoxb": func(g *gen) (string, []string) {
		a := g.s(mixed, 24)
		return "xoxb-2044221933-1188346290-" + a, []string{a}
	},
	"slackhook": func(g *gen) (string, []string) {
		a := g.s(mixed, 24)
		return "https://hooks.slack.com/services/T01AB2CD3/B04EF5GH6/" + a, []string{a}
	},
	"discord": func(g *gen) (string, []string) {
		a := g.s(mixed, 60)
		return "https://discord.com/api/webhooks/123456789012345678/" + a, []string{a}
	},
	"stripe":     prefixed("sk_live_", mixed, 24),
	"stripetest": prefixed("sk_test_", mixed, 24),
	"stripe_rk":  prefixed("rk_live_", mixed, 24),
	"whsec":      prefixed("whsec_", mixed, 32),
	"google":     prefixed("AIza", mixed, 35),
	"jwt": func(g *gen) (string, []string) {
		a, b := g.s(mixed, 30), g.s(mixed, 43)
		return "eyJhbGciOiJIUzI1NiJ9.eyJ" + a + "." + b, []string{a, b}
	},
	"sendgrid": func(g *gen) (string, []string) {
		a, b := g.s(mixed, 22), g.s(mixed, 43)
		return "SG." + a + "." + b, []string{a, b}
	},
	"openai":    prefixed("sk-proj-", mixed, 40),
	"anthropic": prefixed("sk-ant-api03-", mixed, 40),
	"npm":       prefixed("npm_", mixed, 36),
	"mailgun":   prefixed("key-", hexDigits, 32),
	"shopify":   prefixed("shpat_", hexDigits, 32),
	"pembody": func(g *gen) (string, []string) {
		a, b, c := g.s(mixed, 64), g.s(mixed, 64), g.s(mixed, 40)
		return "MIIEow" + a + "\n" + b + "\n" + c + "==", []string{a, b, c}
	},
	// values that read as words: in a credential's position they are
	// secrets all the same
	"wordy": func(g *gen) (string, []string) { // SuperSecret1815, MyToken960308
		v := g.pick(wordsUpper) + g.pick(wordsUpper) + g.s("0123456789", 6)
		return v, []string{v}
	},
	"lowerword": func(g *gen) (string, []string) { // letmein-style: sunshinedragon42
		v := strings.ToLower(g.pick(wordsUpper)+g.pick(wordsUpper)) + g.s("0123456789", 4)
		return v, []string{v}
	},
	"snakeword": func(g *gen) (string, []string) { // orange_falcon_river_71
		v := strings.ToLower(g.pick(wordsUpper) + "_" + g.pick(wordsUpper) + "_" + g.pick(wordsUpper) + "_" + g.s("0123456789", 3))
		return v, []string{v}
	},
	"long": func(g *gen) (string, []string) { // a one-line base64 key, 300 to 1,700 bytes
		var b strings.Builder
		var runs []string
		b.WriteString("MIIEvQIBADANBgkqhkiG9w0BAQEFAASC")
		for n := 4 + g.r.IntN(20); n > 0; n-- {
			r := g.s(mixed, 64)
			runs = append(runs, r)
			b.WriteString(r + "+/")
		}
		return b.String() + "==", runs
	},
	"teams": func(g *gen) (string, []string) { // the path of a Teams webhook URL
		a, b, c := g.s(hexDigits, 12), g.s(hexDigits, 12), g.s(hexDigits, 32)
		return g.s(hexDigits, 8) + "-1a2b-4c3d-8e9f-" + a + "@" + g.s(hexDigits, 8) + "-5a6b-4c7d-9e0f-" + b +
			"/IncomingWebhook/" + c + "/" + g.s(hexDigits, 8) + "-0a1b-4c2d-8e3f-" + g.s(hexDigits, 12), []string{a, b, c}
	},
	"telegram": func(g *gen) (string, []string) { // a Telegram bot token
		a := g.s(mixed, 33)
		return g.s("123456789", 1) + g.s("0123456789", 9) + ":AA" + a, []string{a}
	},
	"pemescaped": func(g *gen) (string, []string) { // inside a PHP string, with \n escapes
		a, b := g.s(mixed, 64), g.s(mixed, 40)
		return "MIIEow" + a + `\n` + b, []string{a, b}
	},
}

// wordsUpper are the words word-like values are made of; none is a key
// word, so a value never reads as the name of a secret.
var wordsUpper = []string{"Super", "Magic", "Tiger", "Summer", "Winter", "Happy", "Purple", "Falcon", "River",
	"Ocean", "Dragon", "Sunny", "Rocket", "Silver", "Golden", "Monkey", "Shadow", "Thunder", "Cactus", "Banana",
	"Orange", "Castle", "Forest", "Mango", "Pepper", "Zebra", "Violet", "Walnut"}

func (g *gen) pick(words []string) string { return words[g.r.IntN(len(words))] }

func prefixed(prefix, alphabet string, n int) func(g *gen) (string, []string) {
	return func(g *gen) (string, []string) { a := g.s(alphabet, n); return prefix + a, []string{a} }
}

// placeholder marks where a value goes: {kind}; braces that name no kind
// stay as they are.
var placeholder = regexp.MustCompile(`\{[a-z_0-9]+\}`)
