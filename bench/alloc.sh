#!/usr/bin/env bash
# Bytes the packaged server allocates per event served, and where (issue 31 item 2): N closed-loop clients on the
# real-upstream path (BenchServers' stub, 40 chunks PACE ms apart: short answers) or the scripted one; a JFR
# recording over SECONDS after WARMUP seconds of the same load of the threads' allocation counters and of the TLAB
# allocation events, read by dev.aguistate.bench.AllocationProfile (test sources): bytes allocated ÷ events served,
# and ÷ runs, then the top allocation sites (the class, and the first frame of ours on its stack). Allocation per
# event hardly moves with the machine's load, unlike time: a fair before/after on a busy machine.
#
#   bench/alloc.sh [real|scripted] [N] [SECONDS]     (defaults: real 500 20; BENCH_SKIP_BUILD=1 reuses target/)
#   BENCH_WARMUP (30)  BENCH_PACE_MS (15)  BENCH_JVM_OPTS ("-Xmx512m -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError")
#   BENCH_PORT (18175: the stub; +1 ours)  BENCH_TOP (15: sites listed)
set -euo pipefail
cd "$(dirname "$0")/.."

path=${1:-real}
n=${2:-500}
seconds=${3:-20}
warmup=${BENCH_WARMUP:-30}
pace=${BENCH_PACE_MS:-15}
jvm_opts=${BENCH_JVM_OPTS:--Xmx512m -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError}
stub_port=${BENCH_PORT:-18175}
ours_port=$((stub_port + 1))
# shellcheck source=bench/common.sh
source bench/common.sh

start_path "$path"
ours_pid=$started

# each thread's allocation counter, and every new TLAB and allocation outside one (what the sites are weighed by)
cat >"$work/alloc.jfc" <<'JFC'
<?xml version="1.0" encoding="UTF-8"?>
<configuration version="2.0">
  <event name="jdk.ThreadAllocationStatistics"><setting name="enabled">true</setting>
    <setting name="period">1 s</setting></event>
  <event name="jdk.ObjectAllocationInNewTLAB"><setting name="enabled">true</setting>
    <setting name="stackTrace">true</setting></event>
  <event name="jdk.ObjectAllocationOutsideTLAB"><setting name="enabled">true</setting>
    <setting name="stackTrace">true</setting></event>
</configuration>
JFC
node bench/load.mjs --url "http://127.0.0.1:$ours_port/agui" --clients "$n" --warmup "$warmup" --seconds "$seconds" \
  --pace "$pace" --pid "$ours_pid" >"$work/load.json" &
load_pid=$!
sleep "$warmup"
jcmd "$ours_pid" JFR.start name=alloc settings="$work/alloc.jfc" >/dev/null
sleep "$seconds"
jcmd "$ours_pid" JFR.stop name=alloc filename="$work/alloc.jfr" >/dev/null
wait "$load_pid"
echo "load: $(cat "$work/load.json")"
rates=$(node -e "const r = JSON.parse(require('fs').readFileSync(process.argv[1])); \
  console.log(r.eventsPerSecond, r.runsPerSecond)" "$work/load.json")
# shellcheck disable=SC2086
java -cp target/test-classes dev.aguistate.bench.AllocationProfile "$work/alloc.jfr" $rates "${BENCH_TOP:-15}"
