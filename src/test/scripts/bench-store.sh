#!/usr/bin/env bash
# The job store's figures, ours against beanstalkd 1.12 in one run: servers pinned to CPU 0, the
# load generator (Bench, one JVM per run) to CPU 1, every case in alternating rounds (ours, then
# beanstalkd), medians over rounds and medians of the per-round ratios ours/beanstalkd.
#
#   1. put c=50 p=1 over a backlog of BACKLOG jobs queued in another tube (Bench --mode prefill,
#      filled once per server and left in place): ops/s and p99/p99.9/max latency against
#      beanstalkd holding the same backlog, and against our own put c=50 on an empty server
#      (measured in the same round).
#   2. put c=50 p=1 and cycle 10+10 on an empty server: ops/s, p99, p99.9, max.
#   3. fill FILL_JOBS x 100 B on a freshly started server: RSS growth per job (first round only).
#   4. drain DRAIN_JOBS c=4: jobs/s, and reserve-to-RESERVED p99/p99.9/max.
#   4b. put c=4 p=16 (pipelined) on the empty and the deep servers, and cycle 10+10 and drain on
#      the deep ones too (DEEP_CASES, EMPTY_CASES pick the cases; BACKLOG=1000000 or 5000000 is the
#      depth sweep's point, the empty server its 0).
#   4c. BASE_JAR: a second build of ours (the previous one) runs every case beside JAR in the same
#      rounds, as "base-empty" and "base-deep": the before/after of a change in one run.
#   5. Our GC pauses per case: every server of ours logs -Xlog:gc with wall-clock millis; each pause
#      goes to the run that was going on when it ended (by the run's start and end time), or to
#      "start-up" or "between runs"; per case the count, total and longest over all its runs.
#
# Four servers run side by side: ours and beanstalkd "deep" (the backlog) and "empty" (fill, then
# the empty cases), so that the deep and the empty put c=50 alternate within each round.
# Slicing one log by time, rather than a fresh server per case, keeps that alternation and fills
# the backlog only once; a pause that garbage from an earlier run provokes is counted where it
# happens, which is where the clients feel it.
#
# Usage: flock /tmp/bench.lock src/test/scripts/bench-store.sh   (after mvn -B -q package -DskipTests)
# Environment: JAR [target/vertx-beanstalkd.jar], BENCH_JAR [target/vertx-beanstalkd-bench.jar], OUT [target/bench-store], ROUNDS [5],
#              BACKLOG [5000000], FILL_JOBS [1000000], DRAIN_JOBS [200000], SIZE [100],
#              DURATION_MS [3000], WARMUP_MS [1000], STALL_MS [30000], CASE_TIMEOUT_S [300],
#              PREFILL_TIMEOUT_S [900], BEANSTALKD [beanstalkd],
#              JVM_OPTIONS [@conf/jvm.options when that file exists: the settings the server ships with],
#              SUMMARY_ONLY [0; 1: print the summary of the run already in OUT and stop],
#              BASE_JAR [none], EMPTY_CASES [put-c50 put-c4p16 cycle drain],
#              DEEP_CASES [put-c50 put-c4p16 cycle drain], FILL [1; 0: no fill case]
# Output: the summary on stdout and in OUT/summary.txt; each run's Bench output in OUT/raw, the runs'
#         times in OUT/runs.tsv, the GC logs OUT/gc-ours-*.log and the servers' output OUT/*.server.log.
# Memory: each server holding BACKLOG=5000000 jobs of 100 B takes about 1.5 GB.
set -euo pipefail

SCRIPT_START=$(date +%s)
JAR=${JAR:-target/vertx-beanstalkd.jar}
# The load generator: the bench is test code, packaged by mvn package as a jar of its own.
BENCH_JAR=${BENCH_JAR:-target/vertx-beanstalkd-bench.jar}
OUT=${OUT:-target/bench-store}
ROUNDS=${ROUNDS:-5}
BACKLOG=${BACKLOG:-5000000}
FILL_JOBS=${FILL_JOBS:-1000000}
DRAIN_JOBS=${DRAIN_JOBS:-200000}
SIZE=${SIZE:-100}
DURATION_MS=${DURATION_MS:-3000}
WARMUP_MS=${WARMUP_MS:-1000}
STALL_MS=${STALL_MS:-30000}
CASE_TIMEOUT_S=${CASE_TIMEOUT_S:-300}
PREFILL_TIMEOUT_S=${PREFILL_TIMEOUT_S:-900}
BEANSTALKD=${BEANSTALKD:-beanstalkd}
BASE_JAR=${BASE_JAR:-}
EMPTY_CASES=${EMPTY_CASES:-put-c50 put-c4p16 cycle drain}
DEEP_CASES=${DEEP_CASES:-put-c50 put-c4p16 cycle drain}
FILL=${FILL:-1}
if [ -z "${JVM_OPTIONS+set}" ] && [ -f conf/jvm.options ]; then JVM_OPTIONS=@conf/jvm.options; fi
JVM_OPTIONS=${JVM_OPTIONS:-}

summarize() {
  python3 - "$OUT" <<'PYTHON' | tee "$OUT/summary.txt"
import csv, glob, json, os, re, statistics, sys

out = sys.argv[1]
info = dict(line.rstrip("\n").split("=", 1) for line in open(os.path.join(out, "run.txt")))
backlog, fill_jobs, drain_jobs, rounds = (info[k] for k in ("backlog", "fill_jobs", "drain_jobs", "rounds"))
load_after, elapsed = info["load_after"], info["elapsed_s"]
runs = list(csv.DictReader(open(os.path.join(out, "runs.tsv")), delimiter="\t"))
results = {}  # (case, server) -> {round: json}
errors = []
for run in runs:
    lines = [l for l in open(run["file"], errors="replace") if l.startswith("{")]
    result = json.loads(lines[-1]) if lines else None
    if run["rc"] != "0" or result is None or result.get("errors"):
        errors.append("%s on %s round %s: exit %s, %s errors (%s)" % (
            run["case"], run["server"], run["round"], run["rc"],
            result.get("errors") if result else "?", run["file"]))
    if result is not None:
        results.setdefault((run["case"], run["server"]), {})[int(run["round"])] = result

def values(case, server, key):
    return {r: v[key] for r, v in results.get((case, server), {}).items() if v.get(key) is not None}

def median(xs):
    return statistics.median(xs) if xs else None

def compare(case, a, b, key):
    va, vb = values(case, a, key), values(case, b, key)
    ratios = [va[r] / vb[r] for r in va if r in vb and vb[r]]
    spread = "%s-%s" % (fmt(min(ratios), "x"), fmt(max(ratios), "x")) if len(ratios) > 1 else ""
    return median(list(va.values())), median(list(vb.values())), median(ratios), spread

def fmt(value, unit):
    if value is None:
        return "-"
    if unit == "us":
        return "%.0f ms" % (value / 1e3) if value >= 10e3 else "%.0f us" % value
    if unit == "x":
        return "%.2f" % value if value < 10 else "%.0f" % value
    return "{:,.0f}".format(value)

def table(title, a_name, b_name, ratio_name, rows):
    print("%-42s %-7s %12s %12s %10s %11s" % (title, "", a_name, b_name, ratio_name, "range"))
    for label, case, a, b, metrics in rows:
        for i, (key, name, unit) in enumerate(metrics):
            va, vb, ratio, spread = compare(case, a, b, key)
            print(("%-42s %-7s %12s %12s %10s %11s" % (label if i == 0 else "", name, fmt(va, unit),
                                                       fmt(vb, unit), fmt(ratio, "x"), spread)).rstrip())
    print()

latency = [("p99Us", "p99", "us"), ("p999Us", "p99.9", "us"), ("maxUs", "max", "us")]
throughput = lambda name: [("opsPerSec", name, "n")] + latency
print()
print("== bench-store summary: %s rounds; values are medians over rounds, ratios medians of "
      "per-round ratios (range: their lowest and highest) ==" % rounds)
deep = "%s queued" % "{:,}".format(int(backlog))
cases = [("put-c50", "put c=50 p=1", "ops/s"), ("put-c4p16", "put c=4 p=16", "ops/s"),
         ("cycle", "cycle 10+10 (put to RESERVED)", "jobs/s"),
         ("drain", "drain %s c=4 (reserve to RESERVED)" % "{:,}".format(int(drain_jobs)), "jobs/s")]
present = lambda case, server: (case, server) in results
for ours in ["ours", "base"]:
    if not any(k[1].startswith(ours + "-") for k in results):
        continue
    for depth, label in [("empty", "empty server"), ("deep", deep)]:
        rows = [(name, case, "%s-%s" % (ours, depth), "bs-%s" % depth, throughput(unit))
                for case, name, unit in cases if present(case, "%s-%s" % (ours, depth))]
        if rows:
            table("%s vs beanstalkd, %s" % (ours, label), ours, "beanstalkd", ours + "/bs", rows)
for depth, label in [("empty", "empty server"), ("deep", deep)]:
    rows = [(name, case, "ours-%s" % depth, "base-%s" % depth, throughput(unit))
            for case, name, unit in cases if present(case, "base-%s" % depth)]
    if rows:
        table("ours vs base (the previous build), %s" % label, "ours", "base", "ours/base", rows)
rows = [(name, case, "ours-deep", "ours-empty", throughput(unit))
        for case, name, unit in cases if present(case, "ours-deep") and present(case, "ours-empty")]
if rows:
    table("ours: with that backlog vs empty", "backlog", "empty", "back/empty", rows)
rows = []
if present("fill", "ours-empty"):
    rows.append(("fill %s: RSS growth (1 run, fresh)" % "{:,}".format(int(fill_jobs)), "fill",
                 "ours-empty", "bs-empty", [("rssBytesPerJob", "B/job", "n")]))
if present("prefill", "ours-deep"):
    rows.append(("prefill %s (the backlog, 1 run)" % "{:,}".format(int(backlog)), "prefill", "ours-deep",
                 "bs-deep", [("opsPerSec", "jobs/s", "n"), ("rssBytesPerJob", "B/job", "n")]))
if rows:
    table("memory", "ours", "beanstalkd", "ours/bs", rows)

# 5. GC pauses: -Xlog:gc lines "[<uptime>s][<epoch>ms][info][gc] GC(n) Pause ... <d>ms".
pause_line = re.compile(r"^.*?\[(\d+)ms\].*\bPause\b.*?([\d.]+)ms\s*$")
print("5. our GC pauses (-Xlog:gc; each pause counted in the run it ended in, summed over its runs)")
print("%-11s %-26s %5s %7s %10s %11s" % ("server", "case", "runs", "pauses", "total ms", "longest ms"))
for log in sorted(glob.glob(os.path.join(out, "gc-*.log"))):
    server = os.path.basename(log)[3:-4]
    spans = [(int(r["start_ms"]), int(r["end_ms"]), r["case"]) for r in runs if r["server"] == server]
    first = min((s for s, _, _ in spans), default=0)
    order = ["(start-up)"] + list(dict.fromkeys(case for _, _, case in spans)) + ["(between runs)"]
    pauses = {case: [] for case in order}
    for line in open(log, errors="replace"):
        m = pause_line.match(line)
        if m:
            at = int(m.group(1))
            case = next((c for s, e, c in spans if s <= at <= e),
                        "(start-up)" if at < first else "(between runs)")
            pauses[case].append(float(m.group(2)))
    for case in order:
        p = pauses[case]
        n = sum(1 for _, _, c in spans if c == case)
        print("%-11s %-26s %5s %7d %10.1f %11.1f" % (server, case, n if n else "-", len(p), sum(p),
                                                     max(p) if p else 0))
print()
print("errors: " + ("none" if not errors else "\n  " + "\n  ".join(errors)))
print("load average after: %s; run time %d min %02d s; raw output in %s" % (
    load_after, int(elapsed) // 60, int(elapsed) % 60, out))
PYTHON
}

if [ "${SUMMARY_ONLY:-0}" = 1 ]; then
  summarize
  exit 0
fi

command -v "$BEANSTALKD" >/dev/null || {
  echo "no $BEANSTALKD: apt-get update && apt-get install -y beanstalkd" >&2
  exit 2
}
[ -f "$JAR" ] || { echo "no $JAR: mvn -B -q package -DskipTests" >&2; exit 2; }

mkdir -p "$OUT"
rm -rf "$OUT/raw"
rm -f "$OUT"/runs.tsv "$OUT"/run.txt "$OUT"/summary.txt "$OUT"/gc-*.log "$OUT"/*.server.log
mkdir -p "$OUT/raw"
printf 'case\tserver\tround\tstart_ms\tend_ms\trc\tfile\n' >"$OUT/runs.tsv"

PIDS=()
declare -A PORT PID

# stop PID: TERM, then KILL if it is still there after 15 s.
stop() {
  kill "$1" 2>/dev/null || return 0
  for _ in $(seq 1 150); do
    kill -0 "$1" 2>/dev/null || break
    sleep 0.1
  done
  kill -9 "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}

cleanup() {
  for pid in "${PIDS[@]}"; do stop "$pid"; done
}
trap cleanup EXIT
trap "exit 130" INT
trap "exit 143" TERM

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

wait_port() {
  for _ in $(seq 1 300); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "nothing listens on $1" >&2
  return 1
}

# start_ours NAME: our server on CPU 0 with a GC log of its own.
start_ours() {
  local port
  port=$(free_port)
  local conf="{\"host\":\"127.0.0.1\",\"port\":$port,\"http\":{\"port\":0}}"
  local gc="-Xlog:gc:file=$OUT/gc-$1.log:timemillis,uptime,level,tags"
  echo "  $1: taskset -c 0 java $JVM_OPTIONS $gc -jar ${JAR_OF_SERVER:-$JAR} -conf '$conf'"
  # shellcheck disable=SC2086 # JVM_OPTIONS is a list of words
  taskset -c 0 java $JVM_OPTIONS "$gc" -jar "${JAR_OF_SERVER:-$JAR}" -conf "$conf" >"$OUT/$1.server.log" 2>&1 &
  PID[$1]=$!
  PIDS+=("$!")
  PORT[$1]=$port
  wait_port "$port"
}

start_beanstalkd() {
  local port
  port=$(free_port)
  echo "  $1: taskset -c 0 $BEANSTALKD -l 127.0.0.1 -p $port"
  taskset -c 0 "$BEANSTALKD" -l 127.0.0.1 -p "$port" >"$OUT/$1.server.log" 2>&1 &
  PID[$1]=$!
  PIDS+=("$!")
  PORT[$1]=$port
  wait_port "$port"
}

# bench CASE SERVER ROUND TIMEOUT_S BENCH_OPTION...: one Bench run on CPU 1, kept in OUT/raw and
# listed in runs.tsv with its wall-clock start and end (the GC log's slices).
bench() {
  local name=$1 server=$2 round=$3 limit=$4
  shift 4
  local file="$OUT/raw/$name.$server.r$round.txt" start end rc=0
  start=$(date +%s%3N)
  timeout -k 10 "$limit" taskset -c 1 java -cp "$JAR:$BENCH_JAR" io.github.vertxbeanstalkd.bench.Bench \
      --target "127.0.0.1:${PORT[$server]}" --pid "${PID[$server]}" --size "$SIZE" \
      --stall-ms "$STALL_MS" "$@" >"$file" 2>&1 || rc=$?
  end=$(date +%s%3N)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$server" "$round" "$start" "$end" "$rc" "$file" \
    >>"$OUT/runs.tsv"
  printf '    %-12s %s\n' "$server" "$(grep -v -e '^{' -e '^ ' "$file" | tail -n 1 | cut -c 28-)"
  [ "$rc" = 0 ] || echo "    (exit status $rc; see $file)"
}

timed() {
  echo --duration-ms "$DURATION_MS" --warmup-ms "$WARMUP_MS"
}

echo "bench-store: $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u '+%Y-%m-%d %H:%M UTC')," \
  "load average $(cut -d' ' -f1-3 /proc/loadavg), $($BEANSTALKD -v 2>&1 | head -n 1)"
echo "generator: taskset -c 1 java -cp $JAR:$BENCH_JAR io.github.vertxbeanstalkd.bench.Bench --target ... --size $SIZE"
# bench_case CASE SERVER ROUND: one run of a named case.
bench_case() {
  local name=$1 server=$2 round=$3
  case "$name" in
    put-c50) bench "$name" "$server" "$round" "$CASE_TIMEOUT_S" --mode put -c 50 -p 1 $(timed) ;;
    put-c4p16) bench "$name" "$server" "$round" "$CASE_TIMEOUT_S" --mode put -c 4 -p 16 $(timed) ;;
    cycle) bench "$name" "$server" "$round" "$CASE_TIMEOUT_S" --mode cycle -c 10 -p 1 $(timed) ;;
    drain) bench "$name" "$server" "$round" "$CASE_TIMEOUT_S" --mode drain -c 4 --jobs "$DRAIN_JOBS" ;;
    *) echo "unknown case $name" >&2; exit 2 ;;
  esac
}

OURS=(ours)
[ -z "$BASE_JAR" ] || OURS+=(base)
jar_of() { if [ "$1" = base ]; then echo "$BASE_JAR"; else echo "$JAR"; fi; }
EMPTY_SERVERS=() DEEP_SERVERS=()
if [ -n "$EMPTY_CASES" ] || [ "$FILL" = 1 ]; then
  echo "servers (empty: fill, then the empty cases):"
  for o in "${OURS[@]}"; do JAR_OF_SERVER=$(jar_of "$o") start_ours "$o-empty"; EMPTY_SERVERS+=("$o-empty"); done
  start_beanstalkd bs-empty
  EMPTY_SERVERS+=(bs-empty)
fi
if [ "$FILL" = 1 ]; then
  echo "fill $FILL_JOBS x $SIZE B on fresh servers (round 1 only)"
  for s in "${EMPTY_SERVERS[@]}"; do
    bench fill "$s" 1 "$CASE_TIMEOUT_S" --mode fill --jobs "$FILL_JOBS"
  done
fi
if [ -n "$DEEP_CASES" ]; then
  echo "servers (deep: $BACKLOG jobs queued in a tube of their own):"
  for o in "${OURS[@]}"; do JAR_OF_SERVER=$(jar_of "$o") start_ours "$o-deep"; DEEP_SERVERS+=("$o-deep"); done
  start_beanstalkd bs-deep
  DEEP_SERVERS+=(bs-deep)
  for s in "${DEEP_SERVERS[@]}"; do
    bench prefill "$s" 1 "$PREFILL_TIMEOUT_S" --mode prefill --jobs "$BACKLOG"
  done
fi
for round in $(seq 1 "$ROUNDS"); do
  echo "round $round of $ROUNDS (load $(cut -d' ' -f1 /proc/loadavg))"
  # Within a round every case runs on each server in turn, so that ours, the base build and
  # beanstalkd see the same moment of the machine.
  for name in $DEEP_CASES; do
    for s in "${DEEP_SERVERS[@]}"; do bench_case "$name" "$s" "$round"; done
  done
  for name in $EMPTY_CASES; do
    for s in "${EMPTY_SERVERS[@]}"; do bench_case "$name" "$s" "$round"; done
  done
done
LOAD_AFTER=$(cut -d' ' -f1-3 /proc/loadavg)
cleanup
PIDS=()

printf 'backlog=%s\nfill_jobs=%s\ndrain_jobs=%s\nrounds=%s\nload_after=%s\nelapsed_s=%s\n' \
  "$BACKLOG" "$FILL_JOBS" "$DRAIN_JOBS" "$ROUNDS" "$LOAD_AFTER" "$(($(date +%s) - SCRIPT_START))" \
  >"$OUT/run.txt"
summarize
