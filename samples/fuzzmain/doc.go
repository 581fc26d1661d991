// Package fuzzmain is the TestMain of the packages with fuzz targets: it
// gives the fuzz engine's minimisation a short default budget
// (-fuzzminimizetime), without which the engine spends a minute on every
// input that finds new coverage and a target whose seeds are kilobytes
// (Parquet files, Result JSON) shows 0 execs/s (docs/fuzzing.md).
package fuzzmain
