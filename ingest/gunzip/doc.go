// Package gunzip decodes a gzip file, held whole in memory (Reset) or
// streamed through a 2 MiB buffer (ResetStream), about 1.4 times as fast
// as klauspost's inflater on the profiler's highly compressible JSON
// (docs/performance.md, round 42).
//
// Its inflater reads the compressed bytes as a slice (eight bytes a
// refill, one table lookup a symbol, a whole match decoded from one
// refill) and writes into a flat window (32 KiB of history before the
// output, no ring), so a match is a plain forward copy. It decodes only
// what it can prove valid in the way compress/flate and klauspost's
// inflater do (complete or single-code Huffman codes, distances within
// the history, the stored length's complement, the trailer's CRC-32 and
// size). On anything else (a header field it does not read, corrupt or
// truncated data, a bad trailer, trailing bytes) it hands the file over
// to klauspost's reader, which reads the file again from its start and
// skips the bytes already handed out, so that the bytes
// and the error a caller sees are exactly that reader's: the fast path
// changes speed, never results.
//
// Standard library only, but for the reader it hands over to.
package gunzip
