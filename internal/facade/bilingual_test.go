package facade

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ragraf/ragraf/internal/bilingual"
	"github.com/ragraf/ragraf/internal/config"
	"github.com/ragraf/ragraf/internal/rev"
)

// newRussianService indexes a small shop in English with one function
// commented in Russian, with the real build and the static model.
func newRussianService(t *testing.T) *Service {
	t.Helper()
	root := t.TempDir()
	src := `<?php
namespace Shop;

class OrderService {
    /** Creates an order from the items of a cart. */
    public function createOrder($cart) { return $cart; }
    public function saveOrder($order) { return $order; }
    public function cancel($order) { $this->saveOrder($order); }
}

class CartRepository {
    public function removeItem($cart, $item) { return $cart; }
    public function findUser($id) { return $id; }
}

/**
 * Пересчитывает скидку по купону для корзины.
 */
function recalc($c) { return $c; }

function renderInvoice($inv) { return $inv; }
`
	must(t, os.MkdirAll(filepath.Join(root, "src"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "src", "shop.php"), []byte(src), 0o644))
	cfg := config.Default()
	cfg.Embeddings.Model = config.StaticModel
	if _, err := rev.Build(context.Background(), rev.Options{Root: root, Config: cfg}); err != nil {
		t.Fatal(err)
	}
	s, err := New(root, Options{})
	must(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

func firstNames(r SearchResult, n int) []string {
	var out []string
	for _, h := range r.Hits[:min(n, len(r.Hits))] {
		if h.Name != "" {
			out = append(out, h.Name)
		} else {
			out = append(out, h.Kind+":"+h.NodeID)
		}
	}
	return out
}

// TestRussianQuestions_RussianQuestionFindsEnglishCode: a Russian question is stemmed,
// translated and matched against split identifiers in every mode; the answer
// says how it was searched and that the dictionary is missing when it is.
func TestRussianQuestions_RussianQuestionFindsEnglishCode(t *testing.T) {
	t.Setenv(bilingual.DictEnv, "none")
	s := newRussianService(t)
	for _, mode := range []string{"lexical", "semantic", "hybrid"} {
		r := call(t, s, "search", `{"query":"создать заказ","mode":"`+mode+`","limit":3}`).Result.(SearchResult)
		if len(r.Hits) == 0 || r.Hits[0].Name != "createOrder" {
			t.Errorf("%s: создать заказ → %v", mode, firstNames(r, 3))
		}
		tr := r.Translation
		if tr == nil || tr.Language != "ru" || !strings.Contains(tr.English, "create") || !strings.Contains(tr.English, "order") {
			t.Fatalf("%s: translation %+v", mode, tr)
		}
		if tr.Dictionary != "" || !strings.Contains(tr.Missing, "switched off") {
			t.Errorf("%s: dictionary %q, missing %q", mode, tr.Dictionary, tr.Missing)
		}
	}
	// an inflected word: "из корзины" is the cart's
	r := call(t, s, "search", `{"query":"удалить товар из корзины","mode":"hybrid","limit":3}`).Result.(SearchResult)
	if len(r.Hits) == 0 || r.Hits[0].Name != "removeItem" {
		t.Errorf("удалить товар из корзины → %v", firstNames(r, 3))
	}
	// an English question has no translation
	if r := call(t, s, "search", `{"query":"create order","limit":3}`).Result.(SearchResult); r.Translation != nil {
		t.Errorf("English question translated: %+v", r.Translation)
	}
}

// TestRussianQuestions_MixedQuestionKeepsIdentifier: "где вызывается saveOrder" keeps
// saveOrder as it is, so the method itself ranks first.
func TestRussianQuestions_MixedQuestionKeepsIdentifier(t *testing.T) {
	s := newRussianService(t)
	r := call(t, s, "search", `{"query":"где вызывается saveOrder","mode":"hybrid","limit":3}`).Result.(SearchResult)
	if len(r.Hits) == 0 || r.Hits[0].Name != "saveOrder" {
		t.Errorf("где вызывается saveOrder → %v", firstNames(r, 3))
	}
	kept := false
	for _, w := range r.Translation.Words {
		kept = kept || w.Kept && w.Text == "saveOrder"
	}
	if !kept {
		t.Errorf("words %+v", r.Translation.Words)
	}
}

// TestRussianQuestions_RussianCommentMatchesDirectly: a Russian docblock in the code is
// found by a Russian question in other forms of its words, which neither
// the glossary nor the dictionary translates.
func TestRussianQuestions_RussianCommentMatchesDirectly(t *testing.T) {
	s := newRussianService(t)
	r := call(t, s, "search", `{"query":"пересчитать купоны","mode":"lexical","limit":3}`).Result.(SearchResult)
	found := false
	for _, h := range r.Hits {
		found = found || h.Type == "text" && h.Kind == "docblock" && strings.Contains(h.Text, "Пересчитывает")
	}
	if !found {
		t.Errorf("пересчитать купоны → %+v", r.Hits)
	}
}
