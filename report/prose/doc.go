// Package prose is the one renderer of findings: it turns the Statements
// of a Result's findings (and slow ranks' evidence) into the sentences the
// text report, the Markdown and HTML reports, the TUI, the Perfetto export
// and the gate print, from the templates of vocab.Statements. Every view
// renders through it, so the same data always reads the same way.
package prose
