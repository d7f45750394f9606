// This file defines how an answer is fitted to a token budget: it is counted
// in cl100k_base tokens as the CLI and MCP render it, and context keeps the
// longest prefix of its parts that fits.

package facade

// countAnswer counts the envelope in cl100k_base tokens as the CLI prints it
// (indented) and as MCP sends it (compact), and returns the larger.
func countAnswer(env *Envelope) (int, error) {
	n := 0
	for _, enc := range []func(any) ([]byte, error){EncodeJSON, EncodeCompactJSON} {
		b, err := enc(env)
		if err != nil {
			return 0, err
		}
		c, err := CountTokens(string(b))
		if err != nil {
			return 0, err
		}
		n = max(n, c)
	}
	return n, nil
}

// fitContext keeps the longest prefix of the parts, in contextOrder, whose
// whole answer fits the budget. Stale warnings are kept for the paths the
// kept parts cite.
//
// Counting is the cost (a count of a 2,000-token answer takes about 2 ms):
// the search narrows the prefix by the answer's bytes, at the tokens per
// byte of a first probe, and counts exactly only within 5 % of the budget. It
// counts the indented rendering, which has the more tokens, and checks the
// compact one on the answer it keeps.
func (s *Service) fitContext(env *Envelope, full ContextResult, total [numSections]int, budget int) (*Envelope, error) {
	seq := contextOrder(full, total)
	warnings := env.StaleWarnings
	var limitTotal int
	for _, n := range total {
		limitTotal += n
	}
	set := func(k, tokens int) {
		r := full.cut(seq[:k], total)
		r.Tokens = tokens
		env.Result = r
		cited := map[string]bool{}
		for _, p := range r.paths() {
			cited[p] = true
		}
		env.StaleWarnings = []StaleWarning{}
		for _, w := range warnings {
			if cited[w.Path] {
				env.StaleWarnings = append(env.StaleWarnings, w)
			}
		}
		env.Limits = Limits{Limit: budget, Returned: k + 1, Total: limitTotal + 1, Truncated: k < len(seq)}
	}
	size := func(k int) (int, error) { // bytes of the indented answer
		set(k, budget)
		b, err := EncodeJSON(env)
		return len(b), err
	}
	exactAt := func(k, tokens int) (int, error) { // tokens of the indented answer
		set(k, tokens)
		b, err := EncodeJSON(env)
		if err != nil {
			return 0, err
		}
		return CountTokens(string(b))
	}
	exact := func(k int) (int, error) { return exactAt(k, budget) }
	internal := func(err error) error { return &Error{Code: ErrInternal, Message: "counting tokens: " + err.Error()} }
	n := len(seq)
	// the last k whose estimate at perByte is at most bound (0 if none)
	lastUnder := func(perByte, bound float64) (int, error) {
		if b, err := size(n); err != nil || float64(b)*perByte <= bound {
			return n, err
		}
		lo, hi := 0, n
		for hi-lo > 1 {
			mid := (lo + hi) / 2
			b, err := size(mid)
			if err != nil {
				return 0, err
			}
			if float64(b)*perByte <= bound {
				lo = mid
			} else {
				hi = mid
			}
		}
		return lo, nil
	}
	counted := map[int]int{}
	count := func(k int) (int, error) {
		if t, ok := counted[k]; ok {
			return t, nil
		}
		t, err := exact(k)
		counted[k] = t
		return t, err
	}
	tooSmall := func(t int) error {
		return badInput("budget_tokens %d is below the %d tokens the smallest answer about %s takes; pass at least %d", budget, t, full.Target.QName, t)
	}
	// a first guess of cl100k tokens per byte of indented JSON, then the
	// ratio measured on the answer it picks
	k1, err := lastUnder(0.3, float64(budget))
	if err != nil {
		return nil, internal(err)
	}
	t1, err := count(k1)
	if err != nil {
		return nil, internal(err)
	}
	k := k1
	if k1 < n || t1 > budget {
		b1, err := size(k1)
		if err != nil {
			return nil, internal(err)
		}
		perByte := float64(t1) / float64(max(b1, 1))
		lo, err := lastUnder(perByte, float64(budget)*0.95)
		if err != nil {
			return nil, internal(err)
		}
		hi, err := lastUnder(perByte, float64(budget)*1.05)
		if err != nil {
			return nil, internal(err)
		}
		hi = min(hi+1, n)
		// widen the window where the estimate was wrong, until lo fits
		// and hi does not (or hi = n fits: the whole answer)
		for {
			t, err := count(lo)
			if err != nil {
				return nil, internal(err)
			}
			if t <= budget {
				break
			}
			if lo == 0 {
				return nil, tooSmall(t)
			}
			hi, lo = lo, lo/2
		}
		whole := false
		for {
			t, err := count(hi)
			if err != nil {
				return nil, internal(err)
			}
			if t > budget {
				break
			}
			if lo = hi; hi == n {
				whole = true
				break
			}
			hi = min(n, hi+(n-hi+1)/2)
		}
		for !whole && hi-lo > 1 {
			mid := (lo + hi) / 2
			t, err := count(mid)
			if err != nil {
				return nil, internal(err)
			}
			if t <= budget {
				lo = mid
			} else {
				hi = mid
			}
		}
		k = lo
	}
	// the exact count, stated in the answer it counts, of both renderings;
	// should the compact one ever have more tokens and not fit, a part less
	for ; ; k-- {
		tokens, t := budget, 0
		for range 4 {
			if t, err = exactAt(k, tokens); err != nil {
				return nil, internal(err)
			}
			if t == tokens {
				break
			}
			tokens = t
		}
		if t <= budget {
			b, err := EncodeCompactJSON(env)
			if err != nil {
				return nil, internal(err)
			}
			c, err := CountTokens(string(b))
			if err != nil {
				return nil, internal(err)
			}
			if c <= budget {
				return env, nil
			}
		}
		if k == 0 {
			return nil, tooSmall(t)
		}
	}
}
