package prose

import (
	"fmt"
	"strings"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
)

// Headline is a finding's headline sentence.
func Headline(res *result.Result, f result.Finding) string { return Sentence(res, f.Headline) }

// Evidence is a finding's evidence, one sentence each.
func Evidence(res *result.Result, f result.Finding) []string { return Sentences(res, f.Evidence) }

// Sentences renders each statement.
func Sentences(res *result.Result, sts []result.Statement) []string {
	if len(sts) == 0 {
		return nil
	}
	out := make([]string, len(sts))
	for i, st := range sts {
		out[i] = Sentence(res, st)
	}
	return out
}

// Sentence renders one statement from its template; a statement this
// build has no template for is written as its key and figures.
func Sentence(res *result.Result, st result.Statement) string {
	tpl, ok := vocab.Statements[st.Say]
	if !ok {
		return raw(st)
	}
	s, _ := fill(statement{res, st}, tpl)
	return s
}

// raw writes an unknown statement as data: "say: name=value unit, ...".
func raw(st result.Statement) string {
	parts := make([]string, len(st.Figures))
	for i, f := range st.Figures {
		parts[i] = fmt.Sprintf("%s=%g %s", f.Name, f.Value, f.Unit)
	}
	return strings.TrimSpace(st.Say + ": " + strings.Join(parts, ", "))
}

// fill fills a template; ok is false when a token has no value. A part
// in brackets is dropped when one of its tokens has none.
func fill(st statement, tpl string) (string, bool) {
	var b strings.Builder
	ok := true
	for len(tpl) > 0 {
		i := strings.IndexAny(tpl, "[{")
		if i < 0 {
			b.WriteString(tpl)
			break
		}
		b.WriteString(tpl[:i])
		closer := map[byte]string{'[': "]", '{': "}"}[tpl[i]]
		j := strings.Index(tpl[i:], closer)
		if j < 0 {
			b.WriteString(tpl[i:])
			break
		}
		inner := tpl[i+1 : i+j]
		if tpl[i] == '[' {
			if s, all := fill(st, inner); all {
				b.WriteString(s)
			}
		} else if s, has := st.token(inner); has {
			b.WriteString(s)
		} else {
			ok = false
		}
		tpl = tpl[i+j+1:]
	}
	return b.String(), ok
}
