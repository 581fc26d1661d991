// Package archtest holds the test that keeps tpptrace's layers honest: the
// import rules of docs/ARCHITECTURE.md, checked on every non-test file.
package archtest
