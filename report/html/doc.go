// Package html writes the shareable report of a Result: a self-contained
// HTML page (figures embedded as data URIs, styles inline, no script and no
// external reference) and a Markdown version with the figures beside it as
// PNG and SVG files, for design reviews and nightly job attachments. With
// Options.Baseline both forms gain "Compared with the baseline": the
// deltas of report.Compare, regressions first.
package html
