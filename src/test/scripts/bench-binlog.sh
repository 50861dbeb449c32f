#!/usr/bin/env bash
# Put throughput with a binlog, ours against beanstalkd 1.12 on the same machine: 50 connections
# putting 100-byte jobs one at a time (Bench --mode put -c 50 -p 1), in alternating rounds
# (ours, beanstalkd, ours, ...), servers pinned to CPU 0 and the load generator to CPU 1.
#
# Cases: "always" (ours fsync always vs beanstalkd -b DIR -f 0), "50" (fsync every 50 ms vs
# beanstalkd -b DIR -f 50), "memory" (no binlog on either side).
#
# Prints per round and as medians: ops/s, p99, p99.9 and max latency, and the server's CPU time per put (user +
# system of the whole process over the measured window, from /proc/PID/stat).
#
# Usage: src/test/scripts/bench-binlog.sh   (after mvn -B -q package -DskipTests)
# Environment: JAR [target/vertx-beanstalkd.jar], BENCH_JAR [target/vertx-beanstalkd-bench.jar], CONCURRENCY [50], ROUNDS [3], DURATION_MS [5000], WARMUP_MS [1000],
#              CASES ["always 50 memory"], BINLOG_PARENT [/var/tmp: must be a real disk, not tmpfs],
#              JVM_OPTIONS [@conf/jvm.options when that file exists: the settings the server ships with],
#              PREWARM_MS [0: unmeasured load on each server before round 1, e.g. 20000 to measure our
#              server after its JIT compiler is done rather than while it still compiles]
set -euo pipefail

JAR=${JAR:-target/vertx-beanstalkd.jar}
# The load generator: the bench is test code, packaged by mvn package as a jar of its own.
BENCH_JAR=${BENCH_JAR:-target/vertx-beanstalkd-bench.jar}
ROUNDS=${ROUNDS:-3}
DURATION_MS=${DURATION_MS:-5000}
WARMUP_MS=${WARMUP_MS:-1000}
CASES=${CASES:-"always 50 memory"}
CONCURRENCY=${CONCURRENCY:-50}
PREWARM_MS=${PREWARM_MS:-0}
if [ -z "${JVM_OPTIONS+set}" ] && [ -f conf/jvm.options ]; then JVM_OPTIONS=@conf/jvm.options; fi
JVM_OPTIONS=${JVM_OPTIONS:-}
WORK=$(mktemp -d "${BINLOG_PARENT:-/var/tmp}/bench-binlog.XXXXXX")
PIDS=()

cleanup() {
  for pid in "${PIDS[@]}"; do
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$WORK"
}
trap cleanup EXIT

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

# start_ours FSYNC: FSYNC is always, a number of ms, or memory. Sets PORT and PID.
start_ours() {
  PORT=$(free_port)
  local conf="{\"port\":$PORT,\"http\":{\"port\":0}}"
  if [ "$1" != memory ]; then
    local fsync=$1
    [ "$fsync" = always ] && fsync='"always"'
    conf="{\"port\":$PORT,\"http\":{\"port\":0},\"binlog\":{\"dir\":\"$WORK/ours-$1\",\"fsync\":$fsync}}"
  fi
  echo "  ours:       taskset -c 0 java $JVM_OPTIONS -jar $JAR -conf '$conf'"
  # shellcheck disable=SC2086 # JVM_OPTIONS is a list of words
  taskset -c 0 java $JVM_OPTIONS -jar "$JAR" -conf "$conf" >"$WORK/ours-$1.log" 2>&1 &
  PID=$!
  PIDS+=("$PID")
  wait_port "$PORT"
}

start_beanstalkd() {
  PORT=$(free_port)
  local flags=()
  case $1 in
    always) mkdir -p "$WORK/bs-$1"; flags=(-b "$WORK/bs-$1" -f 0) ;;
    memory) ;;
    *) mkdir -p "$WORK/bs-$1"; flags=(-b "$WORK/bs-$1" -f "$1") ;;
  esac
  echo "  beanstalkd: taskset -c 0 beanstalkd -l 127.0.0.1 -p $PORT ${flags[*]}"
  taskset -c 0 beanstalkd -l 127.0.0.1 -p "$PORT" "${flags[@]}" &
  PID=$!
  PIDS+=("$PID")
  wait_port "$PORT"
}

# cpu_ticks PID: user + system clock ticks the process used so far (all its threads).
cpu_ticks() {
  awk '{ print $14 + $15 }' "/proc/$1/stat"
}

# bench PORT PID: prints ops/s, errors, p99, p99.9 and max in us and the server's CPU us per put of one measured
# window (CPU read at the window's start and end, so warm-up and the final cleanup stay out).
bench() {
  local hz out start end
  hz=$(getconf CLK_TCK)
  out=$(mktemp "$WORK/bench.XXXXXX")
  taskset -c 1 java -cp "$JAR:$BENCH_JAR" io.github.vertxbeanstalkd.bench.Bench --target "127.0.0.1:$1" \
      --mode put -c "$CONCURRENCY" -p 1 --duration-ms "$DURATION_MS" --warmup-ms "$WARMUP_MS" >"$out" &
  local bench_pid=$!
  # The generator's JVM takes about half a second to start before its warm-up begins.
  sleep "$(awk -v w="$WARMUP_MS" 'BEGIN { print 0.5 + w / 1000 }')"
  start=$(cpu_ticks "$2")
  sleep "$(awk -v d="$DURATION_MS" 'BEGIN { print d / 1000 }')"
  end=$(cpu_ticks "$2")
  wait "$bench_pid"
  grep '^{' "$out" | python3 -c 'import json, sys
r = json.load(sys.stdin); ticks, hz, ms = (float(a) for a in sys.argv[1:])
print("%.0f %d %.0f %.0f %.0f %.0f" % (r["opsPerSec"], r["errors"], r["p99Us"], r["p999Us"], r["maxUs"],
    ticks / hz * 1e6 / max(1.0, r["opsPerSec"] * ms / 1000)))' \
    "$((end - start))" "$hz" "$DURATION_MS"
  rm -f "$out"
}

median() {
  printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo "bench: put -c $CONCURRENCY -p 1, 100-byte bodies, $ROUNDS rounds of ${DURATION_MS} ms (+${WARMUP_MS} ms warm-up)" \
  "after ${PREWARM_MS} ms of unmeasured load per server"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); generator: taskset -c 1 java -cp $JAR:$BENCH_JAR" \
  "io.github.vertxbeanstalkd.bench.Bench --target 127.0.0.1:PORT --mode put -c $CONCURRENCY -p 1" \
  "--duration-ms $DURATION_MS --warmup-ms $WARMUP_MS"
for case in $CASES; do
  echo "case fsync=$case"
  start_ours "$case"; OURS_PORT=$PORT; OURS_PID=$PID
  start_beanstalkd "$case"; BS_PORT=$PORT; BS_PID=$PID
  if [ "$PREWARM_MS" -gt 0 ]; then
    for port in "$OURS_PORT" "$BS_PORT"; do
      taskset -c 1 java -cp "$JAR:$BENCH_JAR" io.github.vertxbeanstalkd.bench.Bench --target "127.0.0.1:$port" \
          --mode put -c "$CONCURRENCY" -p 1 --duration-ms "$PREWARM_MS" --warmup-ms 0 >/dev/null
    done
  fi
  ours=(); theirs=(); ratios=(); ours_p99=(); theirs_p99=(); ours_cpu=(); theirs_cpu=()
  ours_p999=(); theirs_p999=(); ours_max=(); theirs_max=()
  for round in $(seq 1 "$ROUNDS"); do
    read -r a ea pa qa xa ca < <(bench "$OURS_PORT" "$OURS_PID")
    read -r b eb pb qb xb cb < <(bench "$BS_PORT" "$BS_PID")
    ours+=("$a"); theirs+=("$b"); ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", a / b }')")
    ours_p99+=("$pa"); theirs_p99+=("$pb"); ours_cpu+=("$ca"); theirs_cpu+=("$cb")
    ours_p999+=("$qa"); theirs_p999+=("$qb"); ours_max+=("$xa"); theirs_max+=("$xb")
    echo "  round $round: ours $a ops/s p99 ${pa} p99.9 ${qa} max ${xa} us cpu ${ca} us/put (errors $ea)," \
      "beanstalkd $b ops/s p99 ${pb} p99.9 ${qb} max ${xb} us cpu ${cb} us/put (errors $eb), load $(cut -d' ' -f1 /proc/loadavg)"
  done
  mo=$(median "${ours[@]}"); mb=$(median "${theirs[@]}")
  echo "  median: ours $mo ops/s, beanstalkd $mb ops/s, ratio of medians" \
    "$(awk -v a="$mo" -v b="$mb" 'BEGIN { printf "%.2f", a / b }')x, median of round ratios $(median "${ratios[@]}")x"
  echo "  median p99: ours $(median "${ours_p99[@]}") us, beanstalkd $(median "${theirs_p99[@]}") us;" \
    "p99.9: ours $(median "${ours_p999[@]}") us, beanstalkd $(median "${theirs_p999[@]}") us;" \
    "max: ours $(median "${ours_max[@]}") us, beanstalkd $(median "${theirs_max[@]}") us;" \
    "median server CPU: ours $(median "${ours_cpu[@]}") us/put, beanstalkd $(median "${theirs_cpu[@]}") us/put"
  kill "$OURS_PID" "$BS_PID"; wait "$OURS_PID" "$BS_PID" 2>/dev/null || true
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
