// postprocess.go builds the post_processor of tokenizer.json for a single
// sequence: TemplateProcessing, BertProcessing and RobertaProcessing (both
// "cls $A sep"), or none.
package tokenizer

import (
	"encoding/json"
	"fmt"
)

// postProcessor is the single-sequence template: special ids around the
// sequence, each with its type id.
type postProcessor struct {
	items []templateItem
}

type templateItem struct {
	ids      []int // the special token's ids; nil for the sequence
	sequence bool
	typeID   int
}

func (p postProcessor) numSpecial() int {
	n := 0
	for _, it := range p.items {
		n += len(it.ids)
	}
	return n
}

func (p postProcessor) specialIDs() []int {
	var ids []int
	for _, it := range p.items {
		ids = append(ids, it.ids...)
	}
	return ids
}

// apply wraps the sequence's ids in the template; without a post_processor
// the ids are returned as they are, all of type 0.
func (p postProcessor) apply(seq []int) (ids, types []int) {
	if p.items == nil {
		return seq, make([]int, len(seq))
	}
	ids = make([]int, 0, len(seq)+p.numSpecial())
	types = make([]int, 0, cap(ids))
	for _, it := range p.items {
		add := it.ids
		if it.sequence {
			add = seq
		}
		ids = append(ids, add...)
		for range add {
			types = append(types, it.typeID)
		}
	}
	return ids, types
}

func buildPostProcessor(raw json.RawMessage) (postProcessor, error) {
	if isNull(raw) {
		return postProcessor{}, nil
	}
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		return postProcessor{}, fmt.Errorf("post_processor: %w", err)
	}
	switch head.Type {
	case "TemplateProcessing":
		return buildTemplate(raw)
	case "BertProcessing", "RobertaProcessing":
		var c struct {
			Sep [2]json.RawMessage `json:"sep"`
			Cls [2]json.RawMessage `json:"cls"`
		}
		if err := json.Unmarshal(raw, &c); err != nil {
			return postProcessor{}, fmt.Errorf("post_processor %s: %w", head.Type, err)
		}
		var cls, sep int
		if err := json.Unmarshal(c.Cls[1], &cls); err != nil {
			return postProcessor{}, fmt.Errorf("post_processor %s: cls: %w", head.Type, err)
		}
		if err := json.Unmarshal(c.Sep[1], &sep); err != nil {
			return postProcessor{}, fmt.Errorf("post_processor %s: sep: %w", head.Type, err)
		}
		return postProcessor{items: []templateItem{{ids: []int{cls}}, {sequence: true}, {ids: []int{sep}}}}, nil
	}
	return postProcessor{}, unsupported("post_processor", head.Type)
}

func buildTemplate(raw json.RawMessage) (postProcessor, error) {
	var c struct {
		Single []struct {
			SpecialToken *struct {
				ID     string `json:"id"`
				TypeID int    `json:"type_id"`
			} `json:"SpecialToken"`
			Sequence *struct {
				ID     string `json:"id"`
				TypeID int    `json:"type_id"`
			} `json:"Sequence"`
		} `json:"single"`
		SpecialTokens map[string]struct {
			IDs []int `json:"ids"`
		} `json:"special_tokens"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		return postProcessor{}, fmt.Errorf("post_processor TemplateProcessing: %w", err)
	}
	p := postProcessor{items: []templateItem{}}
	seen := false
	for _, it := range c.Single {
		switch {
		case it.SpecialToken != nil:
			st, ok := c.SpecialTokens[it.SpecialToken.ID]
			if !ok {
				return postProcessor{}, fmt.Errorf("post_processor TemplateProcessing: special token %q is not in special_tokens", it.SpecialToken.ID)
			}
			p.items = append(p.items, templateItem{ids: st.IDs, typeID: it.SpecialToken.TypeID})
		case it.Sequence != nil:
			if it.Sequence.ID != "A" {
				return postProcessor{}, fmt.Errorf("post_processor TemplateProcessing: single template uses sequence %q", it.Sequence.ID)
			}
			p.items = append(p.items, templateItem{sequence: true, typeID: it.Sequence.TypeID})
			seen = true
		default:
			return postProcessor{}, fmt.Errorf("post_processor TemplateProcessing: template piece is neither SpecialToken nor Sequence")
		}
	}
	if !seen {
		return postProcessor{}, fmt.Errorf("post_processor TemplateProcessing: single template has no $A")
	}
	return p, nil
}
