// Package archtest holds the tests that keep tpptrace's layers honest: the
// import rules of docs/ARCHITECTURE.md, checked on every non-test file, and
// that every package with fuzz targets runs under samples/fuzzmain.
package archtest
