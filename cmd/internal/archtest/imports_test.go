package archtest

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/tpptrace/tpptrace/"

// rule says what the packages under dir may import from this module (by
// prefix) and whether they may import anything outside the standard
// library.
type rule struct {
	dir         string
	may         []string
	thirdParty  bool
	explanation string
}

// rules is docs/ARCHITECTURE.md's table, most specific first.
var rules = []rule{
	{"model/vocab", []string{"model"}, false, "one vocabulary (units, names, finding kinds) over the model's enums, standard library only"},
	{"model", nil, false, "the model is the bottom of the graph: standard library only"},
	{"analysis/result", []string{"model/vocab"}, false, "the Result is a contract: standard library only"},
	{"report/palette", []string{"model/vocab"}, false, "one palette over the vocabulary's categories, standard library only"},
	{"ingest/nvml/live", []string{"ingest/nvml"}, true, "the only package that links go-nvml"},
	{"ingest/source", []string{"model"}, false, "shared by the format readers"},
	{"ingest/pqsafe", nil, true, "safe Parquet reading, for every reader of Parquet"},
	{"ingest/samplepq", []string{"model", "ingest/pqsafe"}, true, "the one Parquet schema of GPU samples, for the samples files and the dataset"},
	{"ingest/nccl/", []string{"model", "ingest/source", "ingest/nccl"}, false, "an NCCL decoder knows its format, the model and what the NCCL decoders share"},
	{"ingest/nsys/sqlitefile", nil, false, "the raw SQLite table reader decodes the file format, standard library only"},
	{"ingest/nsys", []string{"model", "ingest/source"}, true, "the nsys reader knows its format (and its raw SQLite table reader), the model only"},
	{"ingest/flightrec", []string{"model", "ingest/source", "ingest/nccl"}, false, "the Flight Recorder decoder knows its format (and its pickle decoder), the model and NCCL's communicator keys"},
	{"ingest/gunzip", nil, true, "the in-memory gzip decoder (and klauspost's reader, which it hands damaged files to), for the format readers"},
	{"ingest/", []string{"model", "ingest/source", "ingest/pqsafe", "ingest/samplepq", "ingest/gunzip"}, true, "a format reader knows its format and the model only"},
	{"ingest", []string{"ingest/", "model"}, true, "the dispatcher reads through the format readers"},
	{"analysis/", []string{"model", "analysis/"}, true, "analyzers read the model only"},
	{"analysis", []string{"model", "analysis/"}, true, "analyzers read the model only"},
	{"report/", []string{"analysis/result", "model", "report"}, true, "views render a Result and the model; they never recompute analysis"},
	{"report", []string{"analysis/result", "report/", "model/vocab"}, true, "views render a Result"},
	{"tui/events", []string{"analysis/result", "model/vocab"}, true, "the events the TUI explores are plain data"},
	{"tui/explore", []string{"model", "analysis", "tui/events"}, true, "the TUI's loader: builds its events from a trace and the analysis"},
	{"tui", []string{"analysis/result", "model/vocab", "report", "tui/events"}, true, "the TUI renders a Result through a loader, never ingest or analysis"},
	{"samples/sampletest", []string{"ingest", "model", "samples"}, true, "test helpers may ingest what they write"},
	{"samples/", []string{"model", "ingest/nvml", "samples"}, true, "writers know the model and their own format"},
	{"samples", []string{"model"}, true, "the generator yields the model"},
	{".", []string{"ingest", "model", "analysis", "report", "samples"}, true, "the library entry point reads and analyses, as the command does; it never imports cmd or tui"},
	{"cmd", []string{""}, true, "the command may call everything"},
}

// TestImportRules walks every package's non-test files and holds its
// imports to its rule.
func TestImportRules(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	for dir, imports := range packageImports(t, root) {
		r, ok := ruleFor(dir)
		if !ok {
			t.Errorf("%s: no import rule covers it; add one (docs/ARCHITECTURE.md)", dir)
			continue
		}
		for _, imp := range imports {
			if msg := r.check(dir, imp); msg != "" {
				t.Error(msg)
			}
		}
	}
}

// TestGoNVMLOnlyInLive: go-nvml (cgo) is linked by one package only.
func TestGoNVMLOnlyInLive(t *testing.T) {
	for dir, imports := range packageImports(t, filepath.Join("..", "..", "..")) {
		if dir != "ingest/nvml/live" && slices.ContainsFunc(imports, func(s string) bool { return strings.Contains(s, "go-nvml") }) {
			t.Errorf("%s imports go-nvml; only ingest/nvml/live may", dir)
		}
	}
}

func ruleFor(dir string) (rule, bool) {
	for _, r := range rules {
		if dir == r.dir || strings.HasSuffix(r.dir, "/") && strings.HasPrefix(dir, r.dir) || r.dir == "cmd" && strings.HasPrefix(dir, "cmd") {
			return r, true
		}
	}
	return rule{}, false
}

// check returns why dir may not import imp, or "".
func (r rule) check(dir, imp string) string {
	own, ok := ownPackage(imp)
	switch {
	case ok:
		if own == dir || strings.HasPrefix(own, dir+"/") && r.dir != "ingest" && !strings.HasSuffix(r.dir, "/") {
			return "" // its own sub-packages
		}
		for _, p := range r.may {
			if p == "" || own == p || strings.HasSuffix(p, "/") && strings.HasPrefix(own, p) || own == strings.TrimSuffix(p, "/") ||
				!strings.HasSuffix(p, "/") && strings.HasPrefix(own, p+"/") {
				return ""
			}
		}
		return dir + " imports " + own + ": " + r.explanation
	case !strings.Contains(strings.Split(imp, "/")[0], "."):
		return "" // the standard library
	case !r.thirdParty:
		return dir + " imports " + imp + ": " + r.explanation
	}
	return ""
}

// ownPackage is imp's directory in this module ("." for the root
// package, the library entry point), and whether imp is in it.
func ownPackage(imp string) (string, bool) {
	if imp+"/" == module {
		return ".", true
	}
	return strings.CutPrefix(imp, module)
}

// packageImports maps each package directory (relative to root) to the
// imports of its non-test files.
func packageImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") && p != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(p))
		rel = filepath.ToSlash(rel)
		for _, s := range f.Imports {
			imp, _ := strconv.Unquote(s.Path.Value)
			out[rel] = append(out[rel], imp)
		}
		if _, ok := out[rel]; !ok {
			out[rel] = nil
		}
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return out
}

// TestRootPackageIsHeldToRules: the entry point's import path has no
// trailing slash; it is this module's package all the same, so a view
// that imports it breaks its rule, and the root may not import cmd.
func TestRootPackageIsHeldToRules(t *testing.T) {
	root := strings.TrimSuffix(module, "/")
	tui, _ := ruleFor("tui")
	if tui.check("tui", root) == "" {
		t.Error("tui may import the root package")
	}
	cmd, _ := ruleFor("cmd/internal/cli")
	if msg := cmd.check("cmd/internal/cli", root); msg != "" {
		t.Errorf("the command may not import the root package: %s", msg)
	}
	lib, ok := ruleFor(".")
	if !ok || lib.check(".", module+"cmd/internal/cli") == "" || lib.check(".", module+"tui") == "" || lib.check(".", module+"ingest/source") != "" {
		t.Errorf("the root package's rule is wrong: %+v", lib)
	}
}
