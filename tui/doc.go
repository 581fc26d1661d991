// Package tui is tpptrace's terminal UI (bubbletea v2): an overview of the
// diagnosis, the classified timeline of one step per rank, a sortable rank
// table and the findings with their evidence.
//
// Every pane is a Component with one contract (Update, View, SetSize,
// Title). Data arrives as messages: loading runs off the UI loop in a
// command that reports ProgressMsg and ends with LoadedMsg or LoadErrMsg.
// The TUI renders a result.Result and never recomputes analysis; it does
// not import ingest or analysis — the command passes it a Loader.
package tui
