package html

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"

	"github.com/tpptrace/tpptrace/analysis/result"
	"github.com/tpptrace/tpptrace/report/plots"
)

// Rendered is a figure with its PNG and SVG bytes.
type Rendered struct {
	plots.Figure
	PNG, SVG []byte
}

// DataURI is the PNG as a data: URI for the HTML page.
func (r Rendered) DataURI() string {
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(r.PNG)
}

// Render draws every figure of r in both formats.
func Render(r *result.Result) ([]Rendered, error) {
	var out []Rendered
	for _, f := range plots.All(r) {
		var png, svg bytes.Buffer
		if err := f.Render(&png, "png"); err != nil {
			return nil, err
		}
		if err := f.Render(&svg, "svg"); err != nil {
			return nil, err
		}
		out = append(out, Rendered{Figure: f, PNG: png.Bytes(), SVG: svg.Bytes()})
	}
	return out, nil
}

// Files names what Write wrote.
type Files struct {
	HTML, Markdown string
	Figures        []string
}

// Write renders r into dir: report.html, report.md and
// figures/<name>.{png,svg}. dir is created if needed.
func Write(dir string, r *result.Result) (Files, error) { return WriteWith(dir, r, Options{}) }

// WriteWith is Write with the optional parts o asks for.
func WriteWith(dir string, r *result.Result, o Options) (Files, error) {
	figs, err := Render(r)
	if err != nil {
		return Files{}, fmt.Errorf("report %s: %w", dir, err)
	}
	fdir := filepath.Join(dir, "figures")
	if err := os.MkdirAll(fdir, 0o755); err != nil {
		return Files{}, fmt.Errorf("report: %w", err)
	}
	files := Files{HTML: filepath.Join(dir, "report.html"), Markdown: filepath.Join(dir, "report.md")}
	for _, f := range figs {
		for ext, data := range map[string][]byte{".png": f.PNG, ".svg": f.SVG} {
			p := filepath.Join(fdir, f.Name+ext)
			if err := os.WriteFile(p, data, 0o644); err != nil {
				return Files{}, fmt.Errorf("report: %w", err)
			}
			files.Figures = append(files.Figures, p)
		}
	}
	if err := writeWith(files.HTML, func(b *bytes.Buffer) error { return PageWith(b, r, figs, o) }); err != nil {
		return Files{}, err
	}
	return files, writeWith(files.Markdown, func(b *bytes.Buffer) error { return MarkdownWith(b, r, figs, "figures", o) })
}

func writeWith(path string, fill func(*bytes.Buffer) error) error {
	var b bytes.Buffer
	if err := fill(&b); err != nil {
		return fmt.Errorf("report %s: %w", path, err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("report: %w", err)
	}
	return nil
}
