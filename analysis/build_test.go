package analysis

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tpptrace/tpptrace/samples/sampletest"
)

// TestResultNilUntilBuild: the steps keep their outputs in the run; the
// Result exists only once build has run, and holds what they found.
func TestResultNilUntilBuild(t *testing.T) {
	tr := sampletest.Job(t, "slow-rank").Trace
	r := newRun(tr, Options{WhatIf: true})
	for _, s := range Steps {
		if err := s.Run(r); err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		if r.res != nil {
			t.Fatalf("step %s made the Result: only build may", s.Name)
		}
	}
	build(r)
	res := r.res
	if res == nil || len(res.Ranks) != len(r.ranks) || len(res.Findings) == 0 || res.WhatIf == nil {
		t.Fatalf("build's Result lacks the steps' outputs: %d ranks of %d, %d findings, whatif %v",
			len(res.Ranks), len(r.ranks), len(res.Findings), res.WhatIf != nil)
	}
	if res.BottleneckStage != r.diag.verdict.Stage || len(res.SlowRanks) != len(r.diag.slow) || res.StepNs != r.prep.stepNs {
		t.Errorf("Result bottleneck %d, %d slow ranks, step %d: the steps found %d, %d, %d",
			res.BottleneckStage, len(res.SlowRanks), res.StepNs, r.diag.verdict.Stage, len(r.diag.slow), r.prep.stepNs)
	}
}

// TestOnlyBuildTouchesResult reads analysis's source: outside build*.go no
// code reaches the run's Result but to return it, no function outside
// throughput.go (Throughput sets a built or cached Result's throughput)
// takes a *result.Result, and analysis/diagnose does not name result.Result
// at all (it takes Figures and returns what it finds).
func TestOnlyBuildTouchesResult(t *testing.T) {
	for _, f := range parseDir(t, ".") {
		name := filepath.Base(f.path)
		if strings.HasPrefix(name, "build") {
			continue
		}
		for _, bad := range resultTouches(f.file, f.fset, name != "throughput.go") {
			t.Errorf("%s: %s", name, bad)
		}
	}
	for _, f := range parseDir(t, "diagnose") {
		ast.Inspect(f.file, func(n ast.Node) bool {
			if isResultType(n) {
				t.Errorf("%s: %s names result.Result: diagnose takes Figures", f.path, f.fset.Position(n.Pos()))
			}
			return true
		})
	}
}

type parsed struct {
	path string
	fset *token.FileSet
	file *ast.File
}

// parseDir parses dir's non-test Go files.
func parseDir(t *testing.T, dir string) []parsed {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no Go files in %s: %v", dir, err)
	}
	var out []parsed
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, parsed{p, fset, f})
	}
	return out
}

// resultTouches lists a file's uses of a run's res field outside return
// statements and, with params, its functions with a *result.Result
// parameter.
func resultTouches(f *ast.File, fset *token.FileSet, params bool) []string {
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ReturnStmt:
			return false
		case *ast.SelectorExpr:
			if n.Sel.Name == "res" {
				out = append(out, fset.Position(n.Pos()).String()+": reaches the run's Result")
			}
		case *ast.FuncDecl:
			if params && takesResult(n.Type.Params) {
				out = append(out, fset.Position(n.Pos()).String()+": "+n.Name.Name+" takes a *result.Result")
			}
		}
		return true
	})
	return out
}

func takesResult(ps *ast.FieldList) bool {
	for _, p := range ps.List {
		if s, ok := p.Type.(*ast.StarExpr); ok && isResultType(s.X) {
			return true
		}
	}
	return false
}

// isResultType reports whether n is the expression result.Result.
func isResultType(n ast.Node) bool {
	s, ok := n.(*ast.SelectorExpr)
	if !ok || s.Sel.Name != "Result" {
		return false
	}
	x, ok := s.X.(*ast.Ident)
	return ok && x.Name == "result"
}
