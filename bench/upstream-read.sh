#!/usr/bin/env bash
# The read path of streamed completions alone (issue 31 item 2): bench/ReadPath.java runs the server's LLM adapter
# (OpenAiCompatibleModel: the Vert.x transport, SSE decoding, each chunk read into model events) in a JVM of its own,
# STREAMS calls at a time against BenchServers' OpenAI-wire stub (another process: a role chunk, 40 content chunks
# PACE ms apart, a finish chunk with usage, [DONE]), and reports, over SECONDS after WARMUP seconds, the model events
# per second, the bytes allocated per event (exact: every thread's allocation counter), the CPU per event of the
# process and of its event loop, then bench/JfrShares.java's shares of that window's CPU samples and allocated bytes.
# Nothing but the read path runs in that JVM, so these are its own costs, also on a busy machine.
#
#   bench/upstream-read.sh [STREAMS] [SECONDS]     (defaults: 300 30; BENCH_SKIP_BUILD=1 reuses target/)
#   BENCH_WARMUP (30)  BENCH_PACE_MS (15)  BENCH_PORT (18170: the stub)
#   BENCH_CLASSES (target/classes: the server's classes, e.g. another commit's, compiled)
# The recording stays in target/upstream-read.jfr.
set -euo pipefail
cd "$(dirname "$0")/.."

streams=${1:-300}
seconds=${2:-30}
warmup=${BENCH_WARMUP:-30}
pace=${BENCH_PACE_MS:-15}
stub_port=${BENCH_PORT:-18170}
classes=${BENCH_CLASSES:-target/classes}
out="$PWD/target/upstream-read.jfr"
# shellcheck source=bench/common.sh
source bench/common.sh

start_stub
echo "$(nproc) cores; load average at start: $(cut -d' ' -f1-3 /proc/loadavg); $streams streams, ${seconds} s after ${warmup} s"
result=$(java -Xmx512m -XX:+UseG1GC -XX:FlightRecorderOptions:stackdepth=128 \
  -cp "$classes:target/quarkus-app/lib/main/*:target/quarkus-app/lib/boot/*" bench/ReadPath.java "http://127.0.0.1:$stub_port/v1" "$streams" \
  "$warmup" "$seconds" "$out" 2>"$work/readpath.log" | tail -n 1) || { cat "$work/readpath.log" >&2; exit 1; }
echo "read path: $result"
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
events=$(node -e 'console.log(JSON.parse(process.argv[1]).modelEvents)' "$result")
java bench/JfrShares.java "$out" "$events"
