#!/usr/bin/env bash
# What metrics cost: put c=50 p=1 and cycle 10+10 against two servers of ours side by side, one with
# metrics on (the defaults: the queue's series, per-command latency timers, Vert.x's own series,
# and /metrics scraped every SCRAPE_MS while the load runs) and one with metrics.enabled: false
# (no timers, no Vert.x metrics, no HTTP listener), in alternating rounds. Servers pinned to CPU 0,
# the load generator and the scraper to CPU 1. Medians over rounds, and the median of the
# per-round ratios on/off, for ops/s, p99, p99.9 and max, and for the server's CPU time per
# operation (utime + stime from /proc over the run, warm-up included, divided by the run's
# ops/s x its whole length): on a shared machine throughput moves with the neighbours, while the
# CPU a command costs the server moves much less, so that is the figure to read for overhead.
#
# Usage: flock /tmp/bench.lock src/test/scripts/bench-metrics.sh   (after mvn -B -q package -DskipTests)
# Environment: JAR [target/vertx-beanstalkd.jar], BENCH_JAR [target/vertx-beanstalkd-bench.jar], OUT [target/bench-metrics], ROUNDS [7], SIZE [100],
#              DURATION_MS [3000], WARMUP_MS [1000], SCRAPE_MS [1000],
#              JVM_OPTIONS [@conf/jvm.options when that file exists]
set -euo pipefail

JAR=${JAR:-target/vertx-beanstalkd.jar}
# The load generator: the bench is test code, packaged by mvn package as a jar of its own.
BENCH_JAR=${BENCH_JAR:-target/vertx-beanstalkd-bench.jar}
OUT=${OUT:-target/bench-metrics}
ROUNDS=${ROUNDS:-7}
SIZE=${SIZE:-100}
DURATION_MS=${DURATION_MS:-3000}
WARMUP_MS=${WARMUP_MS:-1000}
SCRAPE_MS=${SCRAPE_MS:-1000}
if [ -z "${JVM_OPTIONS+set}" ] && [ -f conf/jvm.options ]; then JVM_OPTIONS=@conf/jvm.options; fi
JVM_OPTIONS=${JVM_OPTIONS:-}

rm -rf "$OUT"
mkdir -p "$OUT/raw"
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
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

declare -A PORT HTTP_PORT PID
# start NAME CONF: our server on CPU 0.
start() {
  PORT[$1]=$(free_port)
  HTTP_PORT[$1]=$(free_port)
  local conf="{\"port\":${PORT[$1]},${2}}"
  conf=${conf//HTTP_PORT/${HTTP_PORT[$1]}}
  echo "  $1: taskset -c 0 java $JVM_OPTIONS -jar $JAR -conf '$conf'"
  # shellcheck disable=SC2086 # JVM_OPTIONS is a list of words
  taskset -c 0 java $JVM_OPTIONS -jar "$JAR" -conf "$conf" >"$OUT/$1.server.log" 2>&1 &
  PIDS+=("$!")
  PID[$1]=$!
  wait_port "${PORT[$1]}"
}

# cpu_ticks PID: the process's user + system CPU time so far, in clock ticks.
cpu_ticks() {
  awk '{print $14 + $15}' "/proc/$1/stat"
}

# run CASE SERVER ROUND BENCH_OPTION...: one Bench run on CPU 1; with metrics on, a scraper beside it.
run() {
  local name=$1 server=$2 round=$3 scraper=""
  shift 3
  if [ "$server" = on ]; then
    taskset -c 1 python3 - "${HTTP_PORT[on]}" "$SCRAPE_MS" >"$OUT/raw/scrapes.$name.r$round.txt" 2>&1 <<'PYTHON' &
import sys, time, urllib.request
port, period = int(sys.argv[1]), int(sys.argv[2]) / 1000
while True:
    started = time.monotonic()
    body = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=10).read()
    print("%.1f ms %d bytes" % ((time.monotonic() - started) * 1000, len(body)), flush=True)
    time.sleep(max(0, period - (time.monotonic() - started)))
PYTHON
    scraper=$!
  fi
  local before after
  before=$(cpu_ticks "${PID[$server]}")
  taskset -c 1 java -cp "$JAR:$BENCH_JAR" io.github.vertxbeanstalkd.bench.Bench --target "127.0.0.1:${PORT[$server]}" \
    --size "$SIZE" --duration-ms "$DURATION_MS" --warmup-ms "$WARMUP_MS" "$@" \
    >"$OUT/raw/$name.$server.r$round.txt" 2>&1 || echo "    (bench failed; see $OUT/raw/$name.$server.r$round.txt)"
  after=$(cpu_ticks "${PID[$server]}")
  echo "$((after - before))" >"$OUT/raw/$name.$server.r$round.ticks"
  if [ -n "$scraper" ]; then kill "$scraper" 2>/dev/null || true; wait "$scraper" 2>/dev/null || true; fi
  printf '    %-4s %s\n' "$server" "$(grep -v -e '^{' -e '^ ' "$OUT/raw/$name.$server.r$round.txt" | tail -n 1 | cut -c 28-)"
}

echo "bench-metrics: $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $(date -u '+%Y-%m-%d %H:%M UTC')," \
  "load average $(cut -d' ' -f1-3 /proc/loadavg), scrape every $SCRAPE_MS ms"
start on '"http":{"port":HTTP_PORT}'
start off '"metrics":{"enabled":false},"http":{"enabled":false}'
for round in $(seq 1 "$ROUNDS"); do
  echo "round $round of $ROUNDS (load $(cut -d' ' -f1 /proc/loadavg))"
  # Alternate which goes first, so neither always runs on the warmer machine.
  if [ $((round % 2)) = 1 ]; then order="on off"; else order="off on"; fi
  for s in $order; do run put-c50 "$s" "$round" --mode put -c 50 -p 1; done
  for s in $order; do run cycle "$s" "$round" --mode cycle -c 10 -p 1; done
done
cleanup
PIDS=()

python3 - "$OUT" "$ROUNDS" "$(getconf CLK_TCK)" "$DURATION_MS" "$WARMUP_MS" <<'PYTHON' | tee "$OUT/summary.txt"
import glob, json, os, statistics, sys
out, rounds, hz = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
whole_s = (int(sys.argv[4]) + int(sys.argv[5])) / 1000
def result(case, server, r):
    path = os.path.join(out, "raw", "%s.%s.r%d.txt" % (case, server, r))
    lines = [l for l in open(path, errors="replace") if l.startswith("{")]
    if not lines:
        return None
    result = json.loads(lines[-1])
    ticks = int(open(path[:-len(".txt")] + ".ticks").read())
    result["cpuUsPerOp"] = ticks * 1e6 / hz / (result["opsPerSec"] * whole_s) if result["opsPerSec"] else float("nan")
    return result
print("%-8s %-10s %12s %12s %10s %10s %10s" % ("case", "figure", "on", "off", "on/off", "min", "max"))
for case in ("put-c50", "cycle"):
    pairs = [(result(case, "on", r), result(case, "off", r)) for r in range(1, rounds + 1)]
    pairs = [(a, b) for a, b in pairs if a and b and not a.get("errors") and not b.get("errors")]
    for key, label in (("opsPerSec", "ops/s"), ("cpuUsPerOp", "CPU us/op"), ("p99Us", "p99 us"),
                       ("p999Us", "p99.9 us"), ("maxUs", "max us")):
        ons = [a[key] for a, _ in pairs]
        offs = [b[key] for _, b in pairs]
        ratios = [a[key] / b[key] for a, b in pairs if b[key]]
        print("%-8s %-10s %12.1f %12.1f %10.3f %10.3f %10.3f" % (case, label, statistics.median(ons),
              statistics.median(offs), statistics.median(ratios), min(ratios), max(ratios)))
scrapes = []
for path in glob.glob(os.path.join(out, "raw", "scrapes.*")):
    scrapes += [float(l.split()[0]) for l in open(path) if l.endswith("bytes\n")]
if scrapes:
    print("scrapes: %d, median %.1f ms, max %.1f ms (as the scraper saw them)" % (len(scrapes),
          statistics.median(scrapes), max(scrapes)))
PYTHON
