#!/bin/sh
# peakmem.sh: peak RSS of a cold 'tpptrace analyze' against the job's size.
#
#   .ci/bench/peakmem.sh [DP ...]        # default: 4 16 64 (64, 256, 1,024 ranks)
#
# For each DP size it generates big-64 with --dp DP (16·DP ranks, about 2,420
# events per rank; --tp 8 --dp 128 is the 4,096-rank job of
# docs/performance.md, give TP=8 in the environment for it), runs
# 'analyze --json --no-cache' on the folder and, with SHARDS=N (default 4),
# on a dataset ingested as N shards, and with DATASET=1 (the default) on one
# dataset ('ingest -o', which analyze reads rank by rank: docs/memory.md),
# and with COLD=1 (default 0) 'analyze --json' of the folder with an empty
# cache (the cold read rank by rank of large jobs, docs/performance.md round
# 12) and again from that cache (warm),
# under /usr/bin/time -v, and prints one line per run: ranks, events, peak
# RSS in MiB, wall time, CPU seconds (user + system). The jobs are
# written under ${TMPDIR:-/tmp} and deleted after. TPPTRACE is the binary
# (default: tpptrace on PATH). Needs GNU time (/usr/bin/time -v).
set -eu
bin=${TPPTRACE:-tpptrace}
tp=${TP:-4}
shards=${SHARDS:-4}
one=${DATASET:-1}
cold=${COLD:-0}
[ $# -gt 0 ] || set -- 4 16 64
work=$(mktemp -d "${TMPDIR:-/tmp}/peakmem.XXXXXX")
trap 'rm -rf "$work"' EXIT

# measure LABEL ARGS...: one 'analyze --no-cache' run, one line of figures.
measure() {
	label=$1
	shift
	cached "$label" --no-cache "$@"
}

# cached LABEL ARGS...: one analyze run with the cache under $work, one
# line of figures.
cached() {
	label=$1
	shift
	XDG_CACHE_HOME=$work/cache /usr/bin/time -v "$bin" analyze --json "$@" >"$work/out.json" 2>"$work/time.txt"
	events=$(sed -n 's/^read [0-9]* ranks, \([0-9]*\) events.*/\1/p' "$work/time.txt")
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/time.txt")
	wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/time.txt")
	cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {printf "%.1f", s}' "$work/time.txt")
	printf '%-8s %6d ranks %10s events %7d MiB %s wall %s CPU-s\n' "$label" "$ranks" "$events" $((rss / 1024)) "$wall" "$cpu"
}

for dp in "$@"; do
	job=$work/job
	"$bin" samples gen --scenario big-64 --tp "$tp" --dp "$dp" -o "$job" >/dev/null 2>&1
	ranks=$(ls "$job" | grep -c '^rank-.*\.pt\.trace\.json\.gz$')
	measure folder "$job"
	if [ "$cold" -gt 0 ]; then
		rm -rf "$work/cache"
		cached cold "$job"
		cached warm "$job"
		rm -rf "$work/cache"
	fi
	if [ "$shards" -gt 0 ]; then
		k=0
		while [ "$k" -lt "$shards" ]; do
			"$bin" ingest --shard "$k/$shards" "$job" -o "$work/ds" >/dev/null 2>&1
			k=$((k + 1))
		done
		measure sharded "$work/ds"
		rm -rf "$work/ds"
	fi
	if [ "$one" -gt 0 ]; then
		"$bin" ingest "$job" -o "$work/one" >/dev/null 2>&1
		measure dataset "$work/one"
		rm -rf "$work/one"
	fi
	rm -rf "$job"
done
