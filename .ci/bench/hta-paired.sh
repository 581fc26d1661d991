#!/bin/sh
# hta-paired.sh: 'tpptrace analyze' against Meta's Holistic Trace Analysis
# (HTA) on the same per-rank Kineto files, alternated (issue 15, goal 2:
# a cold run at least 50 times as fast as HTA, docs/performance.md round 42).
#
#   .ci/bench/hta-paired.sh JOBDIR [PAIRS]    # default 3 pairs
#
# Each pair runs tpptrace cold (an empty cache of its own) and warm (that
# cache), then HTA's load and analyses (../shared/reference/run_hta.py:
# temporal breakdown, comm/compute overlap, kernel types, idle time, queue
# length, launch stats, stragglers), and prints wall and CPU seconds, peak
# RSS and HTA's wall over tpptrace's. HTA is given a folder of links to
# the trace files only (it takes every JSON file of its folder for a
# rank's trace). TPPTRACE is the binary (default: tpptrace on PATH);
# HTA_RUN the runner (default: /usr/bin/python3 with run_hta.py beside the
# repository); HTA_SRC HTA's source tree (default /tmp/hta_src). HTA needs
# pandas, numpy, plotly, networkx, pydot, psutil, yaml, ijson and
# matplotlib-venn for the system Python (Debian packages python3-...).
# Needs GNU time.
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
bin=${TPPTRACE:-tpptrace}
run=${HTA_RUN:-/usr/bin/python3 $here/../shared/reference/run_hta.py}
src=${HTA_SRC:-/tmp/hta_src}
job=${1:?usage: hta-paired.sh JOBDIR [PAIRS]}
pairs=${2:-3}
if ! /usr/bin/python3 -c 'import pandas' 2>/dev/null || [ ! -d "$src/hta" ]; then
	echo "hta-paired: no HTA here (pandas for /usr/bin/python3 and $src/hta are needed)" >&2
	exit 2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/hta-paired.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/traces"
for f in "$job"/*; do
	case $(basename "$f") in
	job.json | truth.json) ;;
	*.json | *.json.gz) ln -s "$(cd "$(dirname "$f")" && pwd)/$(basename "$f")" "$work/traces/" ;;
	esac
done
# timed LABEL CMD...: run CMD under GNU time, print "LABEL wall cpu rss" and
# keep the wall in $work/LABEL.
timed() {
	label=$1
	shift
	/usr/bin/time -f "%e %U %S %M" -o "$work/t" "$@" >/dev/null 2>"$work/err" || {
		echo "hta-paired: $label failed:" >&2
		tail -5 "$work/err" >&2
		exit 1
	}
	read -r wall u s rss <"$work/t"
	printf '%-14s %6.2f s wall %6.2f CPU-s %5d MiB\n' "$label" "$wall" "$(echo "$u + $s" | bc)" $((rss / 1024))
	echo "$wall" >"$work/$label"
}
for i in $(seq "$pairs"); do
	rm -rf "$work/cache"
	XDG_CACHE_HOME=$work/cache TPPTRACE_CACHE= timed tpptrace-cold "$bin" analyze --json "$work/traces"
	XDG_CACHE_HOME=$work/cache TPPTRACE_CACHE= timed tpptrace-warm "$bin" analyze --json "$work/traces"
	MPLBACKEND=Agg timed hta $run "$work/traces" --hta-src "$src"
	printf 'pair %d: HTA / tpptrace = %.0f× cold, %.0f× warm\n' "$i" \
		"$(echo "$(cat "$work/hta") / $(cat "$work/tpptrace-cold")" | bc -l)" \
		"$(echo "$(cat "$work/hta") / $(cat "$work/tpptrace-warm")" | bc -l)"
done
