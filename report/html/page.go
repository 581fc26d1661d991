package html

import (
	"fmt"
	"html/template"
	"io"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/model/vocab"
	"github.com/tpptrace/tpptrace/report"
	"github.com/tpptrace/tpptrace/report/prose"
)

// pageData is what the page template reads.
type pageData struct {
	R        *result.Result
	Meta     []meta
	Findings []finding
	Stages   []stageRow
	Ranks    *rankView // a job without a pipeline: its rank table, in place of Stages
	Slow     []slowRow
	Figures  []figure
	Cmp      *compareView // nil without a baseline
	WhatIf   *whatifView  // nil without a what-if replay
	Skipped  []string     // one line per reason (report.SkippedLines)
}

type figure struct {
	Name, Title, Caption string
	Src                  template.URL
}

type slowRow struct {
	Rank, Score, Excess, Blame string
	Evidence                   []string
}

func slowRows(r *result.Result) []slowRow {
	out := make([]slowRow, len(r.SlowRanks))
	for i, s := range r.SlowRanks {
		out[i] = slowRow{Rank: joinInts([]int{s.Rank}), Score: fmt.Sprintf("%.1f", s.Score), Excess: vocab.Percent(s.ComputeExcess),
			Blame: vocab.Duration(s.BlameNs), Evidence: prose.Sentences(r, s.Evidence)}
	}
	return out
}

func newPageData(r *result.Result, figs []Rendered, o Options) pageData {
	d := pageData{R: r, Meta: metadata(r), Findings: findings(r), Stages: stageRows(r), Ranks: rankTable(r), Slow: slowRows(r), Cmp: newCompareView(o.Baseline), WhatIf: newWhatifView(r),
		Skipped: report.SkippedLines(r.Skipped)}
	for _, f := range figs {
		d.Figures = append(d.Figures, figure{Name: f.Name, Title: f.Title, Caption: f.Caption, Src: template.URL(f.DataURI())})
	}
	return d
}

// Page writes the self-contained HTML report.
func Page(w io.Writer, r *result.Result, figs []Rendered) error {
	return PageWith(w, r, figs, Options{})
}

// PageWith writes the self-contained HTML report with the parts o asks for.
func PageWith(w io.Writer, r *result.Result, figs []Rendered, o Options) error {
	return page.Execute(w, newPageData(r, figs, o))
}

var page = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>tpptrace report</title>
<style>
body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}
table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top}
th{background:#f3f3f3}.num{text-align:right}.sev-high{color:#d55e00;font-weight:bold}.sev-medium{color:#e69f00;font-weight:bold}
figure{margin:1.5em 0}img{max-width:100%;height:auto;border:1px solid #eee}figcaption{color:#555;font-size:.92em}
.bottleneck{background:#fff4e5}.regressed{background:#fbe3d6}.improved{background:#dff0ea}
</style></head><body>
<h1>Why is this training step slow?</h1>
<table>{{range .Meta}}<tr><th>{{.Name}}</th><td>{{.Value}}</td></tr>{{end}}</table>
{{with .R.Warnings}}<h3>Warnings</h3><ul>{{range .}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{with .Skipped}}<h3>Input not analysed</h3><ul>{{range .}}<li>{{.}}</li>{{end}}</ul><p>Every item, with its offset, is in the JSON Result.</p>{{end}}
{{with .Cmp}}<h2 id="baseline">Compared with the baseline</h2>
<p{{if .Regressions}} class="sev-high"{{end}}>{{.Verdict}}</p>
<table><tr><th>base</th><td>{{.Base}}</td></tr><tr><th>new</th><td>{{.New}}</td></tr></table>
{{with .Warnings}}<ul>{{range .}}<li>warning: {{.}}</li>{{end}}</ul>{{end}}
{{with .Changes}}<ul>{{range .}}<li>{{.}}</li>{{end}}</ul>{{end}}
<table><tr><th>figure</th><th>base</th><th>new</th><th>change</th><th>spread</th><th></th></tr>
{{range .Rows}}<tr{{with .Class}} class="{{.}}"{{end}}><td>{{.Name}}</td><td class="num">{{.Base}}</td><td class="num">{{.New}}</td><td class="num">{{.Change}}</td><td class="num">{{.Spread}}</td><td>{{.Mark}}</td></tr>
{{end}}</table>{{end}}
<h2>Findings</h2>
{{if not .Findings}}<p>No finding: nothing costs a noticeable share of the step.</p>{{end}}
{{range .Findings}}<h3><span class="sev-{{.Severity}}">{{.Severity}}</span> · {{.Summary}}</h3>
<p>Costs {{.Cost}} per step ({{.Share}}).{{with .Where}} Where: {{.}}.{{end}} <code>{{.Kind}}</code></p>
{{with .Evidence}}<ul>{{range .}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{with .Remedy}}<p><b>Remedy:</b> {{.}}</p>{{end}}
{{end}}
{{with .WhatIf}}<h2 id="whatif">What if</h2>
<p>{{.Check}}. {{.Steps}}. {{.Fixes}}.</p>
{{with .Withheld}}<p class="sev-high">{{.}}</p>{{end}}
{{with .Rows}}<table><tr><th>scenario</th><th>predicted step</th><th>gain</th><th>step vs recorded</th></tr>
{{range .}}<tr><td title="{{.Summary}}">{{.Name}}</td><td class="num">{{.Step}}</td><td class="num">{{.Gain}}</td><td style="min-width:12em"><div style="background:#0072b2;height:.9em;width:{{.Width}}%"></div></td></tr>
{{end}}</table>{{end}}
{{with .Path}}<p><b>Critical path</b> per step: {{range .}}{{.}}; {{end}}</p>{{end}}
{{end}}
{{range .Figures}}<figure id="{{.Name}}"><h2>{{.Title}}</h2><img src="{{.Src}}" alt="{{.Title}}"><figcaption>{{.Caption}}</figcaption></figure>
{{end}}
{{with .Stages}}<h2>Stages</h2><table><tr><th>stage</th><th>ranks</th><th>compute</th><th>exposed TP</th><th>PP transfer</th><th>exposed DP</th><th>bubble</th><th>of it PP wait</th><th>bubble share</th><th>ideal</th></tr>
{{range .}}<tr{{if .Bottleneck}} class="bottleneck"{{end}}><td>{{.Stage}}</td><td class="num">{{.Ranks}}</td><td class="num">{{.Compute}}</td><td class="num">{{.TP}}</td><td class="num">{{.PP}}</td><td class="num">{{.DP}}</td><td class="num">{{.Bubble}}</td><td class="num">{{.Wait}}</td><td class="num">{{.Fraction}}</td><td class="num">{{.Ideal}}</td></tr>
{{end}}</table>{{end}}
{{with .Ranks}}<h2>Ranks</h2><table><tr><th>{{.Unit}}</th><th>compute</th><th>idle GPU</th><th>idle share</th>{{range .Axes}}<th>exposed {{.}}</th>{{end}}</tr>
{{range .Rows}}<tr><td>{{.Label}}</td><td class="num">{{.Compute}}</td><td class="num">{{.Idle}}</td><td class="num">{{.Share}}</td>{{range .Exposed}}<td class="num">{{.}}</td>{{end}}</tr>
{{end}}</table><p>{{.Note}}.{{with .Passes}} {{.}}{{end}}{{if .Omitted}} {{.Omitted}} more rows, less idle and exposed, are in the JSON Result.{{end}}</p>{{end}}
{{with .Slow}}<h2>Slow ranks</h2><table><tr><th>rank</th><th>score</th><th>slower by</th><th>others wait per step</th><th>evidence</th></tr>
{{range .}}<tr><td>{{.Rank}}</td><td class="num">{{.Score}}</td><td class="num">{{.Excess}}</td><td class="num">{{.Blame}}</td><td>{{range .Evidence}}{{.}}<br>{{end}}</td></tr>
{{end}}</table>{{end}}
<details><summary>{{len .R.Sources}} source files</summary><ul>{{range .R.Sources}}<li><code>{{.Path}}</code> {{.Format}} {{.Version}}</li>{{end}}</ul></details>
</body></html>
`))
