// Package tpptrace is the library entry point: what `tpptrace analyze`
// does, as calls. Open reads one job's inputs (trace files and
// directories in any supported format, a dataset written by `tpptrace
// ingest`, an op table, a Result file, or a bundled simulated scenario),
// with the dataset cache, a memory budget, warnings and progress; Analyze
// runs the analysis and returns the versioned Result that every view
// renders:
//
//	tr, err := tpptrace.Open(ctx, []string{"run1/"}, tpptrace.Options{})
//	if err != nil { ... }
//	defer tr.Close()
//	res, err := tr.Analyze(ctx, tpptrace.AnalyzeOptions{})
//
// The command line (cmd/internal/cli), the TUI's loader and users' Go
// programs all go through it, so a library call gives the Result the
// command prints with --json. Gates on a Result (`--fail-on`) are in
// report/gate; the text, JSON and HTML views are in report.
package tpptrace
