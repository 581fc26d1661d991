#!/bin/sh
# identical.sh: the Result of two tpptrace binaries, side by side.
#
#   .ci/bench/identical.sh OLD NEW        # e.g. a build of main and of a branch
#
# A performance change must not change a figure. For the bundled sample and a
# set of generated jobs (every scenario of 'samples list' that is quick, each
# dialect of the default scenario, nsys, nsys-real, NCCL logs and NVML beside
# Kineto, Flight Recorder dumps (timed or not), NCCL profiler traces and
# Inspector records (verbose or not) beside Kineto, nsys and a dataset, the
# 64-rank big-64 job, a 2-shard dataset of it and datasets read rank
# by rank, and --no-cache trace files read rank by rank) it runs
# 'analyze --json --no-cache' with both binaries, from the cache too (a cold
# run, then a warm one; for a dataset with logs beside it, the logs' parse
# from the cache on the second run, with the first run's warnings), and
# 'breakdown --json', and compares the outputs byte for byte (the Result's
# "tool" line aside, which names the binary's version).
# It prints one line per case and exits 1 if any differs or fails. The jobs are written
# under ${TMPDIR:-/tmp} and deleted after; the cache is a temporary directory.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 OLD-BINARY NEW-BINARY" >&2; exit 2; }
old=$1 new=$2
# absolute, as one case runs them from another directory
case $old in */*) old=$(cd "$(dirname "$old")" && pwd)/$(basename "$old") ;; esac
case $new in */*) new=$(cd "$(dirname "$new")" && pwd)/$(basename "$new") ;; esac
here=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/identical.XXXXXX")
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME="$work/cache"
fail=0
newargs= # extra flags for the new binary's subcommand only (set per case below)
newcache= # when set, the new binary's cache ($TPPTRACE_CACHE), apart from the old one's

# strip drops the lines that name the binary.
strip() { grep -v '"tool":' "$1" || true; }

# same LABEL ARGS...: run both binaries on ARGS and compare.
same() {
	label=$1
	shift
	rc=0
	# each binary has a cache of its own: an entry one writes is not the
	# other's to read, and its pruning leaves the other's entries be
	XDG_CACHE_HOME="$work/cache.old" "$old" "$@" >"$work/old.out" 2>"$work/old.err" || rc=$?
	# the new binary gets $newargs after the subcommand
	sub=$1
	shift
	if [ -n "$newcache" ]; then
		TPPTRACE_CACHE=$newcache "$new" "$sub" $newargs "$@" >"$work/new.out" 2>"$work/new.err" || rc=$((rc + $?))
	else
		"$new" "$sub" $newargs "$@" >"$work/new.out" 2>"$work/new.err" || rc=$((rc + $?))
	fi
	if [ "$rc" -ne 0 ] || [ ! -s "$work/old.out" ]; then
		printf 'FAILED  %s\n' "$label"
		tail -3 "$work/old.err" "$work/new.err"
		fail=1
	elif [ "$(strip "$work/old.out" | cksum)" = "$(strip "$work/new.out" | cksum)" ]; then
		printf 'same    %s\n' "$label"
	else
		printf 'DIFFERS %s\n' "$label"
		strip "$work/old.out" >"$work/a" && strip "$work/new.out" >"$work/b"
		diff "$work/a" "$work/b" | head -20
		fail=1
	fi
}

# frdumps DIR N [timed]: untimed Flight Recorder JSON dumps of ranks 0..N-1,
# one a rank (DIR/rank_R.json): the default process group and two
# collectives; with "timed", each collective with its duration_ms
# (TORCH_NCCL_ENABLE_TIMING=1: events, a Fallback part).
frdumps() {
	dur=
	[ "${3:-}" != timed ] || dur='"duration_ms": 1.5, '
	mkdir -p "$1"
	all=$(seq -s ', ' 0 $(($2 - 1)))
	for r in $(seq 0 $(($2 - 1))); do
		{
			printf '{"version": "2.9", "pg_config": {"0": {"name": "0", "desc": "default_pg", "ranks": "[%s]"}}, "entries": [' "$all"
			for i in 1 2; do
				[ "$i" -eq 1 ] || printf ', '
				printf '{"record_id": %d, "pg_id": 0, "process_group": ["0", "default_pg"], "collective_seq_id": %d, "p2p_seq_id": 0, "op_id": %d, "profiling_name": "nccl:all_reduce", "time_created_ns": %d, "state": "completed", "input_sizes": [[1024]], "input_dtypes": ["Float"], "output_sizes": [[1024]], "output_dtypes": ["Float"], '"$dur"'"retired": true, "timeout_ms": 600000, "frames": []}' \
					"$i" "$i" "$i" $((1000000000000000000 + i * 1000))
			done
			printf ']}'
		} >"$1/rank_$r.json"
	done
}

# proftraces DIR N: NCCL example profiler traces of ranks 0..N-1 of a
# generated job (its hosts of 8 GPUs, its pids), one a process, each with
# a collective begun on the world communicator.
proftraces() {
	mkdir -p "$1"
	for r in $(seq 0 $(($2 - 1))); do
		host=$(printf 'node%03d' $((r / 8))) pid=$((2910000 + 131 * r))
		printf '[\n{"name": "AllReduce", "cat": "COLL", "ph": "b", "id": 1, "pid": %d, "tid": 1, "ts": 1.5, "args": {"CommHash": 1234567, "Rank": %d, "Count": 8, "Datatype": "ncclFloat32"}},\n{}]\n' \
			"$pid" "$r" >"$1/nccl_profile-$host-$pid.txt"
	done
}

# verbose DIR OUT: the Inspector records in DIR made verbose
# (NCCL_INSPECTOR_DUMP_VERBOSE=1: events, a Fallback part) in OUT, each
# with its event trace, the kernel ending 1 ms before the record's dump.
verbose() {
	mkdir -p "$2"
	for f in "$1"/*; do
		awk 'function num(key, s) {
			if (!match($0, "\"" key "\":[0-9]+")) return 0
			s = substr($0, RSTART, RLENGTH); sub(/.*:/, "", s); return s + 0
		}
		{
			k = "coll"; if (index($0, "\"p2p_perf\"")) k = "p2p"
			sn = num(k "_sn"); stop = num("dump_timestamp_us") - 1000; start = stop - num(k "_exec_time_us")
			sub(/}}$/, "")
			printf "%s,\"event_trace_sn\":{\"%s_start_sn\":%.0f,\"%s_stop_sn\":%.0f,\"kernel_events\":[{\"channel_id\":0,\"kernel_start_sn\":%.0f,\"kernel_stop_sn\":%.0f,\"kernel_record_sn\":%.0f}]}", $0, k, 3*sn, k, 3*sn+2, 3*sn, 3*sn+1, 3*sn+1
			printf ",\"event_trace_ts\":{\"%s_start_ts\":%.0f,\"%s_stop_ts\":%.0f,\"kernel_events\":[{\"channel_id\":0,\"kernel_start_ts\":%.0f,\"kernel_stop_ts\":%.0f,\"kernel_record_ts\":%.0f}]}}}\n", k, start-2, k, stop+1, start, stop, stop
		}' "$f" >"$2/$(basename "$f")"
	done
}

# again LABEL ARGS...: same, twice; the new binary's second run reads the
# parse of the files beside a dataset from its cache entry (beside.json,
# round 35), and must warn as its first run did.
again() {
	again_label=$1
	same "$@"
	grep -v '^read ' "$work/new.err" >"$work/first.err" || true
	shift
	same "$again_label again (the files beside from the cache)" "$@"
	if ! grep -v '^read ' "$work/new.err" | cmp -s - "$work/first.err"; then
		printf 'DIFFERS the warnings of the second run of %s\n' "$again_label"
		fail=1
	fi
}

# job NAME GEN-ARGS...: generate a job with the old binary.
job() {
	name=$1
	shift
	"$old" samples gen "$@" -o "$work/$name" >/dev/null 2>&1
}

same "samples/default" analyze --json --no-cache "$here/samples/default"
same "samples/default whatif" analyze --json --no-cache --whatif "$here/samples/default"
for sc in $("$old" samples list | awk '{print $1}' | grep -v '^big-'); do
	job "$sc" --scenario "$sc"
	same "$sc" analyze --json --no-cache "$work/$sc"
	rm -rf "$work/$sc"
done
for d in megatron pipelining kernel-only; do
	job "d-$d" --scenario default --dialect "$d"
	same "default dialect $d" analyze --json --no-cache "$work/d-$d"
	same "default dialect $d breakdown" breakdown --json "$work/d-$d"
	rm -rf "$work/d-$d"
done
job mixed --scenario default --formats kineto,nsys,nsys-real,nccl-log,nvml,nccl-inspector
n=$(ls "$work/mixed"/rank-*.pt.trace.json.gz | wc -l)
frdumps "$work/mixed/fr" "$n"
frdumps "$work/mixed/frt" "$n" timed
verbose "$work/mixed/nccl-inspector" "$work/mixed/inspv"
proftraces "$work/mixed/prof" "$n"
same "default kineto+nccl-log+nvml" analyze --json --no-cache "$work/mixed"/*.gz "$work/mixed/nccl" "$work/mixed/nvml"
same "default nsys" analyze --json --no-cache "$work/mixed/nsys"
same "default nsys-real" analyze --json --no-cache "$work/mixed/nsys-real"
same "default breakdown --hta" breakdown --json --hta "$work/mixed"/*.gz
job big --scenario big-64 --layers 4
same "big-64 cold" analyze --json "$work/big"
same "big-64 warm" analyze --json "$work/big"
same "big-64 whatif" analyze --json --no-cache --whatif "$work/big"
# Kineto files of more than 8 MB of gzip each stream through the inflater
# rather than being read whole (round 42); one of them cut short.
job large --tp 2 --pp 2 --dp 2 --microbatches 48 --layers 48
same "files over 8 MB gzipped" analyze --json --no-cache "$work/large"
head -c 9000000 "$work/large/rank-3.pt.trace.json.gz" >"$work/large/cut"
mv "$work/large/cut" "$work/large/rank-3.pt.trace.json.gz"
same "files over 8 MB gzipped, one cut short" analyze --json --no-cache "$work/large"
rm -rf "$work/large"
"$old" ingest --shard 0/2 "$work/big" -o "$work/big.ds" >/dev/null 2>&1
"$old" ingest --shard 1/2 "$work/big" -o "$work/big.ds" >/dev/null 2>&1
same "big-64 2 shards" analyze --json "$work/big.ds"
"$old" ingest "$work/big" -o "$work/big.one" >/dev/null 2>&1
# Datasets: small ones are read whole unless --by-rank on; when the new
# binary has the flag, it reads them rank by rank against the old one's read.
ranked=
if "$new" analyze --help 2>&1 | grep -q -- '-by-rank'; then
	ranked="--by-rank on"
fi
newargs=$ranked
same "big-64 2 shards${ranked:+ (new: by rank)}" analyze --json "$work/big.ds"
same "big-64 dataset${ranked:+ (new: by rank)}" analyze --json "$work/big.one"
same "big-64 dataset whatif" analyze --json --whatif "$work/big.one"
# --no-cache of trace files, with NCCL logs and NVML samples beside or not,
# and a dataset or sharded dataset with them beside: the new binary reads them rank by
# rank (the trace files from a temporary cache entry).
newargs=$ranked
same "default kineto+nccl-log+nvml${ranked:+ (new: by rank)}" analyze --json --no-cache "$work/mixed"/*.gz "$work/mixed/nccl" "$work/mixed/nvml"
same "default nsys+nccl-log+nvml${ranked:+ (new: by rank)}" analyze --json --no-cache "$work/mixed/nsys" "$work/mixed/nccl" "$work/mixed/nvml"
same "big-64 --no-cache${ranked:+ (new: by rank)}" analyze --json --no-cache "$work/big"
"$old" ingest --shard 0/2 "$work/mixed"/*.gz -o "$work/mixed.ds" >/dev/null 2>&1
"$old" ingest --shard 1/2 "$work/mixed"/*.gz -o "$work/mixed.ds" >/dev/null 2>&1
same "default 2 shards+nccl-log+nvml${ranked:+ (new: by rank)}" analyze --json "$work/mixed.ds" "$work/mixed/nccl" "$work/mixed/nvml"
"$old" ingest "$work/mixed"/*.gz -o "$work/mixed.one" >/dev/null 2>&1
again "default dataset+nccl-log+nvml${ranked:+ (new: by rank)}" analyze --json "$work/mixed.one" "$work/mixed/nccl" "$work/mixed/nvml"
# The same files named relative to the working directory: the new binary
# reads the entry the absolute names wrote (round 40) and must warn with
# the relative names, as the old binary's parse does. Both read rank by
# rank: the old binary's whole read, from its own cache entry of the
# absolute names, says the dataset's sources relative where its read rank
# by rank says them absolute.
both=
if "$old" analyze --help 2>&1 | grep -q -- '-by-rank'; then
	both=$ranked
fi
find "$XDG_CACHE_HOME" -name beside.json | sort >"$work/entries.before"
cd "$work/mixed"
newargs=${ranked#$both}
same "default dataset+nccl-log+nvml, relative names${both:+ (both: by rank)}" analyze $both --json "$work/mixed.one" nccl nvml
newargs=$ranked
grep -v '^read ' "$work/old.err" >"$work/first.err" || true
if ! grep -v '^read ' "$work/new.err" | cmp -s - "$work/first.err"; then
	printf 'DIFFERS the warnings of %s with relative names\n' "$work/mixed.one"
	fail=1
fi
cd "$here"
if [ -n "$both" ] && ! find "$XDG_CACHE_HOME" -name beside.json | sort | cmp -s - "$work/entries.before"; then
	printf 'note    the relative names wrote a beside entry of their own (a binary before round 40)\n'
fi
# Flight Recorder dumps, NCCL profiler traces and Inspector records beside
# (no events: read rank by rank since round 36).
same "default kineto+nccl-inspector${ranked:+ (new: by rank)}" analyze --json --no-cache "$work/mixed"/*.gz "$work/mixed/nccl-inspector"
same "default kineto+flight-recorder${ranked:+ (new: by rank)}" analyze --json --no-cache "$work/mixed"/*.gz "$work/mixed/fr"
same "default kineto+nccl-profiler${ranked:+ (new: by rank)}" analyze --json --no-cache "$work/mixed"/*.gz "$work/mixed/prof"
same "default nsys+flight-recorder+nccl-profiler+nccl-inspector${ranked:+ (new: by rank)}" analyze --json --no-cache "$work/mixed/nsys" "$work/mixed/fr" "$work/mixed/prof" "$work/mixed/nccl-inspector"
again "default dataset+flight-recorder+nccl-profiler+nccl-inspector${ranked:+ (new: by rank)}" analyze --json "$work/mixed.one" "$work/mixed/fr" "$work/mixed/prof" "$work/mixed/nccl-inspector"
# Timed dumps and verbose records beside (events, a Fallback part, which
# Merge drops for the ranks with a timeline: read rank by rank since round
# 38, the part reduced), cold into a cache of the new binary's own, then
# warm from its entry; and beside a job without rank 5's trace (Merge
# keeps rank 5's timings: the whole read).
same "default kineto+flight-recorder-timed${ranked:+ (new: by rank)}" analyze --json --no-cache "$work/mixed"/*.gz "$work/mixed/frt"
same "default kineto+nccl-inspector-verbose${ranked:+ (new: by rank)}" analyze --json --no-cache "$work/mixed"/*.gz "$work/mixed/inspv"
same "default nsys+flight-recorder-timed+nccl-inspector-verbose${ranked:+ (new: by rank)}" analyze --json --no-cache "$work/mixed/nsys" "$work/mixed/frt" "$work/mixed/inspv"
same "default 2 shards+flight-recorder-timed+nccl-inspector-verbose+nvml${ranked:+ (new: by rank)}" analyze --json "$work/mixed.ds" "$work/mixed/frt" "$work/mixed/inspv" "$work/mixed/nvml"
again "default dataset+flight-recorder-timed+nccl-inspector-verbose${ranked:+ (new: by rank)}" analyze --json "$work/mixed.one" "$work/mixed/frt" "$work/mixed/inspv"
newcache="$work/newcache"
same "default kineto+flight-recorder-timed+nccl-inspector-verbose cold (new: a cache of its own)" analyze --json "$work/mixed"/*.gz "$work/mixed/frt" "$work/mixed/inspv"
same "default kineto+flight-recorder-timed+nccl-inspector-verbose warm (new: a cache of its own)" analyze --json "$work/mixed"/*.gz "$work/mixed/frt" "$work/mixed/inspv"
if [ -n "$ranked" ] && [ -z "$(find "$newcache" -type d -name 'shard=*' 2>/dev/null)" ]; then
	printf 'note    the new binary kept no sharded entry of the job with timed dumps beside (a binary before round 39)\n'
fi
newcache=
no5=$(ls "$work/mixed"/rank-*.pt.trace.json.gz | grep -v '/rank-5\.pt')
same "default kineto but rank 5+flight-recorder-timed${ranked:+ (new: by rank)}" analyze --json --no-cache $no5 "$work/mixed/frt"
"$old" ingest $no5 -o "$work/mixed.no5" >/dev/null 2>&1
again "default dataset but rank 5+nccl-inspector-verbose${ranked:+ (new: by rank)}" analyze --json "$work/mixed.no5" "$work/mixed/inspv"
if [ -z "$(find "$XDG_CACHE_HOME" -name beside.json 2>/dev/null)" ]; then
	printf 'note    no cache entry of the files beside a dataset (a binary before round 35)\n'
fi
newargs=
if [ -n "$(find "$XDG_CACHE_HOME" -name '.nocache-*' 2>/dev/null)" ]; then
	printf 'FAILED  --no-cache left a temporary cache entry\n'
	fail=1
fi
for sc in p2p-nometa cut-last-step; do
	job "$sc" --scenario "$sc"
	"$old" ingest "$work/$sc" -o "$work/$sc.ds" >/dev/null 2>&1
	newargs=$ranked
	same "$sc dataset${ranked:+ (new: by rank)}" analyze --json "$work/$sc.ds"
	newargs=
	rm -rf "$work/$sc" "$work/$sc.ds"
done
exit $fail
