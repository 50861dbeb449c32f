#!/usr/bin/env bash
# Trains the start cache: the server runs as the README starts it, under a representative load from
# the bench jar's Bench, and the JVM writes at exit what it loaded, linked and profiled. On JDK 25 and later
# that is the AOT cache conf/jvm.options names, target/vertx-beanstalkd.aot (JEP 483, 514, 515:
# -XX:AOTCacheOutput); on earlier JDKs, an AppCDS archive of the loaded classes,
# target/vertx-beanstalkd.jsa (-XX:ArchiveClassesAtExit), for -XX:SharedArchiveFile. A JVM of another
# version, or a rebuilt jar, finds the cache stale and starts without it, saying so in its log.
# Docs: src/site/markdown/start-up.md.
#
# Usage, from the repository root after the jar is built (mvn package runs it on JDK 25):
#   src/build/train-start-cache.sh [JAVA] [SECONDS_PER_CASE]
# JAVA defaults to $JAVA_HOME/bin/java, else java; SECONDS_PER_CASE to 2.
set -euo pipefail
cd "$(dirname "$0")/../.."
java_bin=${1:-${JAVA_HOME:+$JAVA_HOME/bin/java}}
java_bin=${java_bin:-java}
seconds=${2:-2}
jar=target/vertx-beanstalkd.jar
# The load generator: test code, packaged by mvn package beside the server (pom.xml, bench-jar).
bench_jar=target/vertx-beanstalkd-bench.jar
work=target/start-cache-training
[ -f "$jar" ] || { echo "train-start-cache: $jar is missing; build it first" >&2; exit 1; }
[ -f "$bench_jar" ] || { echo "train-start-cache: $bench_jar is missing; build it first" >&2; exit 1; }

# The JVM's feature version: 25 from "25.0.3", 17 from "17.0.15".
version=$("$java_bin" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
if [ "${version%%.*}" -ge 25 ]; then
  cache=target/vertx-beanstalkd.aot
  record=(-XX:AOTCacheOutput="$cache")
else
  cache=target/vertx-beanstalkd.jsa
  record=(-XX:ArchiveClassesAtExit="$cache")
fi

rm -rf "$work" "$cache"
mkdir -p "$work/binlog"
# conf/jvm.options but the line naming the cache: a JVM that makes a cache may not also use one.
grep -v '^-XX:AOTCache=' conf/jvm.options >"$work/jvm.options"
conf="{\"host\":\"127.0.0.1\",\"port\":0,\"http\":{\"port\":0},\"binlog\":{\"dir\":\"$work/binlog\"}}"
# The server exactly as the README starts it, plus the recording flags, on a port of the kernel's
# choosing, read back from its log.
"$java_bin" @"$work/jvm.options" "${record[@]}" -jar "$jar" -conf "$conf" >"$work/server.log" 2>&1 &
server=$!
trap 'kill -9 $server 2>/dev/null || true' EXIT

deadline=$((SECONDS + 120))
port=
until [ -n "$port" ]; do
  if ! kill -0 $server 2>/dev/null; then
    echo "train-start-cache: the server exited; its log:" >&2; cat "$work/server.log" >&2; exit 1
  fi
  [ $SECONDS -lt $deadline ] || { echo "train-start-cache: not listening after 120 s" >&2; exit 1; }
  sleep 0.1
  port=$(sed -n 's/.* listening on 127\.0\.0\.1:\([0-9]*\) .*/\1/p' "$work/server.log" | head -1)
done

# The cases the server meets in production and in first_seconds.py: one producer, many producers,
# producers with consumers, and a drain (reserve + delete of a backlog).
bench() {
  "$java_bin" -cp "$jar:$bench_jar" io.github.vertxbeanstalkd.bench.Bench --target 127.0.0.1:$port --warmup-ms 0 "$@" \
    >>"$work/bench.log" 2>&1
}
ms=$((seconds * 1000))
bench --mode put -c 1 --duration-ms $ms
bench --mode put -c 50 --duration-ms $ms
bench --mode cycle -c 10 --duration-ms $ms
bench --mode put -c 4 -p 16 --duration-ms $ms
bench --mode drain -c 4 --jobs 50000

# SIGTERM: the server stops as in production, and the JVM writes the cache on its way out.
kill -TERM $server
wait $server || true
trap - EXIT
if [ ! -s "$cache" ]; then
  echo "train-start-cache: no $cache written; the server's log:" >&2; tail -20 "$work/server.log" >&2; exit 1
fi
echo "train-start-cache: $cache ($(du -h "$cache" | cut -f1)) by $("$java_bin" -version 2>&1 | head -1)"
