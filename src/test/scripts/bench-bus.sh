#!/usr/bin/env bash
# The event-bus API's throughput and latency beside TCP's, on one machine (issue 8, item 8):
#
#   1. in-JVM: one JVM holds the server, the bus load and the TCP load (Bench --transport bus):
#      put c=1, put c=50 and cycle 10+10 over the bus (A) and over TCP to the same server (B),
#      in alternating rounds; once with the raw JSON contract, once with the typed client.
#      The process gets both CPUs (taskset -c 0,1): the server's event loop, which the bus load
#      shares, and the TCP generator's thread.
#   2. TCP reference as in the README: a separate server process on CPU 0, the generator on
#      CPU 1, put c=50 and cycle 10+10.
#   3. clustered: a sidecar server started with -cluster on CPU 0, the bench on CPU 1 as a
#      cluster client node (Bench --transport cluster), both on loopback with a generated
#      Hazelcast configuration; B is TCP to the same sidecar.
#
# Every JVM but the TCP generator's logs its collections (-Xlog:gc); the longest pauses are printed
# at the end.
#
# Usage: src/test/scripts/bench-bus.sh   (after mvn -B -q package -DskipTests)
# Environment: JAR [target/vertx-beanstalkd.jar], BENCH_JAR [target/vertx-beanstalkd-bench.jar], ROUNDS [5], DURATION_MS [3000], WARMUP_MS [1000],
#              STEPS ["injvm typed tcp cluster"], OUT [target/bench-bus],
#              JVM_OPTIONS [@conf/jvm.options when that file exists: the settings the server ships with],
#              CLUSTER_CP [vertx-hazelcast and hazelcast from ~/.m2 when the jar lacks them]
set -euo pipefail

JAR=${JAR:-target/vertx-beanstalkd.jar}
# The load generator: the bench is test code, packaged by mvn package as a jar of its own.
BENCH_JAR=${BENCH_JAR:-target/vertx-beanstalkd-bench.jar}
ROUNDS=${ROUNDS:-5}
DURATION_MS=${DURATION_MS:-3000}
WARMUP_MS=${WARMUP_MS:-1000}
STEPS=${STEPS:-"injvm typed tcp cluster"}
OUT=${OUT:-target/bench-bus}
if [ -z "${JVM_OPTIONS+set}" ] && [ -f conf/jvm.options ]; then JVM_OPTIONS=@conf/jvm.options; fi
JVM_OPTIONS=${JVM_OPTIONS:-}
BENCH=io.github.vertxbeanstalkd.bench.Bench
LOAD=(--rounds "$ROUNDS" --duration-ms "$DURATION_MS" --warmup-ms "$WARMUP_MS")
mkdir -p "$OUT"
PIDS=()

cleanup() {
  for pid in "${PIDS[@]}"; do
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
}
trap cleanup EXIT

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

wait_log() {
  for _ in $(seq 1 600); do
    if grep -q listening "$1" 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "no server in $1" >&2
  return 1
}

stop() {
  kill "$1"
  wait "$1" 2>/dev/null || true
}

# The longest collector pauses of a -Xlog:gc file, in ms.
gc_pauses() {
  grep -o 'Pause.* [0-9.]*ms$' "$1" | awk '{ print $NF }' | tr -d 'ms' | sort -rn \
    | awk -v f="$1" '{ v[NR] = $1; t += $1 } END {
        printf "  %s: %d pauses, %.1f ms in all, longest %s %s %s ms\n", f, NR, t, v[1], v[2], v[3] }'
}

# The class path that adds the cluster manager when the jar does not hold one.
cluster_classpath() {
  if unzip -l "$JAR" | grep -q 'io/vertx/spi/cluster/hazelcast/HazelcastClusterManager.class'; then
    echo "$JAR"
    return
  fi
  local m2=${M2_REPO:-$HOME/.m2/repository}
  local cp=${CLUSTER_CP:-$m2/io/vertx/vertx-hazelcast/5.0.10/vertx-hazelcast-5.0.10.jar:$m2/com/hazelcast/hazelcast/5.3.8/hazelcast-5.3.8.jar}
  echo "$JAR:$cp"
}

# A Hazelcast configuration for two members on loopback, with a cluster name of its own.
hazelcast_config() {
  local base=$((15700 + RANDOM % 90))
  cat >"$1" <<EOF
<hazelcast xmlns="http://www.hazelcast.com/schema/config">
  <cluster-name>bench-bus-$$-$RANDOM</cluster-name>
  <properties>
    <property name="hazelcast.local.localAddress">127.0.0.1</property>
    <property name="hazelcast.wait.seconds.before.join">0</property>
    <property name="hazelcast.phone.home.enabled">false</property>
    <property name="hazelcast.logging.type">slf4j</property>
  </properties>
  <network>
    <port auto-increment="true" port-count="3">$base</port>
    <join>
      <auto-detection enabled="false"/>
      <multicast enabled="false"/>
      <tcp-ip enabled="true">
        <member>127.0.0.1:$base</member><member>127.0.0.1:$((base + 1))</member><member>127.0.0.1:$((base + 2))</member>
      </tcp-ip>
    </join>
    <interfaces enabled="true"><interface>127.0.0.1</interface></interfaces>
  </network>
  <multimap name="__vertx.subs"><backup-count>1</backup-count><value-collection-type>SET</value-collection-type></multimap>
  <map name="__vertx.haInfo"><backup-count>1</backup-count></map>
  <map name="__vertx.nodeInfo"><backup-count>1</backup-count></map>
</hazelcast>
EOF
}

summary() {
  sed -n '/^# summary/,$p' "$1" | grep -v '^{'
}

echo "bench-bus: $ROUNDS rounds of ${DURATION_MS} ms (+${WARMUP_MS} ms warm-up), output in $OUT"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs; $(date -u +%FT%TZ)"

for step in $STEPS; do
  case $step in
    injvm | typed)
      client=raw
      [ "$step" = typed ] && client=typed
      echo "== in-JVM, $client client: server, bus load and TCP load in one JVM on CPUs 0-1"
      # shellcheck disable=SC2086 # JVM_OPTIONS is a list of words
      set -x
      taskset -c 0,1 java $JVM_OPTIONS -Xlog:gc:file="$OUT/$step-gc.log" -cp "$JAR:$BENCH_JAR" $BENCH \
          --transport bus --bus-client "$client" "${LOAD[@]}" >"$OUT/$step.txt" 2>"$OUT/$step.log"
      { set +x; } 2>/dev/null
      summary "$OUT/$step.txt"
      ;;
    tcp)
      echo "== TCP reference: a separate server process on CPU 0, the generator on CPU 1"
      port=$(free_port)
      set -x
      # shellcheck disable=SC2086
      taskset -c 0 java $JVM_OPTIONS -Xlog:gc:file="$OUT/tcp-gc.log" -jar "$JAR" -conf "{\"port\":$port,\"http\":{\"port\":0}}" \
          >"$OUT/tcp-server.log" 2>&1 &
      { set +x; } 2>/dev/null
      pid=$!
      PIDS+=("$pid")
      wait_log "$OUT/tcp-server.log"
      : >"$OUT/tcp.txt"
      for round in $(seq 1 "$ROUNDS"); do
        for mode in "put -c 50" "cycle -c 10"; do
          # shellcheck disable=SC2086 # mode is two words
          taskset -c 1 java -cp "$JAR:$BENCH_JAR" $BENCH --target "127.0.0.1:$port" --mode $mode \
              --duration-ms "$DURATION_MS" --warmup-ms "$WARMUP_MS" >>"$OUT/tcp.txt"
        done
      done
      stop "$pid"
      grep -v '^{' "$OUT/tcp.txt"
      python3 - "$OUT/tcp.txt" <<'EOF'
import json, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    if line.startswith('{'):
        r = json.loads(line)
        runs.setdefault(r['case'], []).append(r)
for case, rs in runs.items():
    med = lambda k: statistics.median(r[k] for r in rs)
    print(f"  median {case}: {med('opsPerSec'):.0f} ops/s p99={med('p99Us'):.0f}us "
          f"p99.9={med('p999Us'):.0f}us max={med('maxUs'):.0f}us errors={sum(r['errors'] for r in rs)}")
EOF
      ;;
    cluster)
      echo "== clustered: sidecar with -cluster on CPU 0, the bench as a cluster node on CPU 1"
      cp=$(cluster_classpath)
      hazelcast_config "$OUT/hazelcast-loopback.xml"
      port=$(free_port)
      set -x
      # shellcheck disable=SC2086
      taskset -c 0 java $JVM_OPTIONS -Xlog:gc:file="$OUT/cluster-gc.log" \
          -Dvertx.hazelcast.config="$OUT/hazelcast-loopback.xml" -cp "$cp" io.github.vertxbeanstalkd.Main \
          -conf "{\"port\":$port,\"http\":{\"port\":0}}" -cluster -cluster-host 127.0.0.1 >"$OUT/cluster-server.log" 2>&1 &
      { set +x; } 2>/dev/null
      pid=$!
      PIDS+=("$pid")
      wait_log "$OUT/cluster-server.log"
      set -x
      taskset -c 1 java -Xlog:gc:file="$OUT/cluster-bench-gc.log" -Dvertx.hazelcast.config="$OUT/hazelcast-loopback.xml" \
          -cp "$cp:$BENCH_JAR" $BENCH \
          --transport cluster --target "127.0.0.1:$port" "${LOAD[@]}" >"$OUT/cluster.txt" 2>"$OUT/cluster.log"
      { set +x; } 2>/dev/null
      stop "$pid"
      summary "$OUT/cluster.txt"
      ;;
    *) echo "unknown step $step" >&2; exit 2 ;;
  esac
done

echo "== collector pauses (servers; in-JVM the bench's load shares the heap; cluster-bench is the client node)"
for log in "$OUT"/*-gc.log; do gc_pauses "$log"; done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
