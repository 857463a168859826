#!/usr/bin/env bash
# Ours against a bare Vert.x SSE writer streaming the same frames at the same pacing (issue 16): one table of
# events/s, added latency (p50/p99), server CPU µs per event, peak threads and RSS, for N concurrent closed-loop
# clients, on the scripted path (the demo model, 15 ms per chunk) and the real-upstream path (our LLM adapter
# against the OpenAI-wire stub of BenchServers, 15 ms per chunk). A bare relay of the stub's stream (the least a
# real-upstream server does) gets rows too, as the real path's physical reference, and a last table divides the
# real path's events/s, CPU per event and p99 lateness by the relay's (issue 31 item 1). Results and discussion:
# docs/benchmarks.md.
#
# Pieces: bench/load.mjs (Node 20 load generator, validates every run), dev.aguistate.bench.BenchServers (test
# sources: the bare writer, the bare relay and the upstream stub). Settings, by environment variable:
#   BENCH_N ("100 500 2000")  BENCH_PATHS ("scripted real")  BENCH_SECONDS (20)  BENCH_WARMUP (5, per row)
#   BENCH_SERVER_WARMUP (15: seconds at 100 clients right after each server starts, not measured: its JIT)
#   BENCH_JIT_MAX (420: before each row, its N clients run in 10 s slices until the server's JIT has settled, at most
#   this long; bench/common.sh's settle_jit)
#   BENCH_PACE_MS (15)  BENCH_WORDS (40: the bare writer's and the stub's words per answer)
#   BENCH_JVM_OPTS ("-Xmx512m -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError": ours, as in docs/operations.md's production
#   section)  BENCH_PORT (18150: bare; +1 the stub; +2 ours; +3 the relay)  BENCH_SKIP_BUILD (unset: ./mvnw -q package -DskipTests)
set -euo pipefail
cd "$(dirname "$0")/.."

counts=${BENCH_N:-100 500 2000}
paths=${BENCH_PATHS:-scripted real}
seconds=${BENCH_SECONDS:-20}
warmup=${BENCH_WARMUP:-5}
server_warmup=${BENCH_SERVER_WARMUP:-15}
pace=${BENCH_PACE_MS:-15}
words=${BENCH_WORDS:-40}
jvm_opts=${BENCH_JVM_OPTS:--Xmx512m -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError}
bare_port=${BENCH_PORT:-18150}
stub_port=$((bare_port + 1))
ours_port=$((bare_port + 2))
relay_port=$((bare_port + 3))
# shellcheck source=bench/common.sh
source bench/common.sh

stop() { kill "$1"; wait "$1" 2>/dev/null || true; }

warm_up() { # url
  node bench/load.mjs --url "$1" --clients 100 --warmup "$server_warmup" --seconds 1 --pace "$pace" >/dev/null
}

measure() { # label url pid clients (every run is validated; those still open after the window get 60 s to end)
  settle_jit "$2" "$3" "$4"
  node bench/load.mjs --url "$2" --clients "$4" --warmup "$warmup" --seconds "$seconds" --pace "$pace" --pid "$3" \
    | tee -a "$work/results.jsonl" | sed "s|^|$1 |" >&2
  tail -n 1 "$work/results.jsonl" | sed "s|^|{\"label\":\"$1\",\"row\":|; s|$|}|" >>"$work/rows.jsonl"
}

start_ours() { # path
  local llm=()
  if [ "$1" = real ]; then
    llm=(-Dagui.llm.base-url="http://127.0.0.1:$stub_port/v1" -Dagui.llm.api-key=bench -Dagui.llm.model=bench)
  fi
  # shellcheck disable=SC2086
  start "ours-$1" "curl -sf http://127.0.0.1:$ours_port/q/health/ready" env -u AGUI_LLM_API_KEY -u AGUI_LLM_BASE_URL \
    java $jvm_opts -Dquarkus.http.port="$ours_port" -Dagui.llm.demo.chunk-delay="${pace}ms" "${llm[@]}" \
    "${bench_bounds[@]}" -jar target/quarkus-app/quarkus-run.jar
}

echo "$(nproc) cores; load average at start: $(cut -d' ' -f1-3 /proc/loadavg); ${seconds} s measured after ${warmup} s" \
  "per row; pacing ${pace} ms; ours: $jvm_opts" >&2
start_stub
start_bench_server bare bare "$bare_port" "$words" "$pace"
bare_pid=$started
warm_up "http://127.0.0.1:$bare_port/agui"
for n in $counts; do
  measure "bare/$n" "http://127.0.0.1:$bare_port/agui" "$bare_pid" "$n"
done
stop "$bare_pid"
if [[ " $paths " == *" real "* ]]; then
  start_relay "$relay_port"
  relay_pid=$started
  warm_up "http://127.0.0.1:$relay_port/agui"
  for n in $counts; do
    measure "relay/$n" "http://127.0.0.1:$relay_port/agui" "$relay_pid" "$n"
  done
  stop "$relay_pid"
fi
for path in $paths; do
  start_ours "$path"
  warm_up "http://127.0.0.1:$ours_port/agui"
  for n in $counts; do
    measure "$path/$n" "http://127.0.0.1:$ours_port/agui" "$started" "$n"
  done
  stop "$started"
done

node - "$work/rows.jsonl" "$(cut -d' ' -f1-3 /proc/loadavg)" <<'NODE'
const fs = require('fs');
const rows = Object.fromEntries(fs.readFileSync(process.argv[2], 'utf8').trim().split('\n')
  .map((line) => JSON.parse(line)).map((r) => [r.label, r.row]));
const ratio = (a, b) => (b ? (a / b).toFixed(2) : '–');
console.log(`load average at the end: ${process.argv[3]}\n`);
console.log('| path | N | runs valid / invalid / failed / unfinished | events/s (÷ bare) | late p50 / p99 ms (bare) | CPU µs/event (÷ bare) | threads (bare) | RSS MB (bare) |');
console.log('|---|---|---|---|---|---|---|---|');
for (const [label, r] of Object.entries(rows)) {
  const [path, n] = label.split('/');
  if (path === 'bare') continue;
  const b = rows[`bare/${n}`];
  console.log(`| ${path} | ${n} | ${r.runs} / ${r.invalid} / ${r.failed} / ${r.unfinished} | ${r.eventsPerSecond} (${ratio(r.eventsPerSecond, b.eventsPerSecond)}) | ${r.lateP50Ms} / ${r.lateP99Ms} (${b.lateP50Ms} / ${b.lateP99Ms}) | ${r.cpuUsPerEvent} (${ratio(r.cpuUsPerEvent, b.cpuUsPerEvent)}) | ${r.peakThreads} (${b.peakThreads}) | ${r.peakRssMb} (${b.peakRssMb}) |`);
}
// The real path against the relay, its physical reference (issue 31 item 1's bars: events/s >= 0.85, CPU per event
// <= 1.3x, p99 lateness <= 2x)
const real = Object.keys(rows).filter((label) => label.startsWith('real/') && rows[`relay/${label.slice(5)}`]);
if (real.length) {
  console.log('\n| real path, N | events/s ÷ relay | CPU µs/event ÷ relay | p99 lateness ÷ relay |');
  console.log('|---|---|---|---|');
  for (const label of real) {
    const [r, b] = [rows[label], rows[`relay/${label.slice(5)}`]];
    console.log(`| ${label.slice(5)} | ${ratio(r.eventsPerSecond, b.eventsPerSecond)} | ${ratio(r.cpuUsPerEvent, b.cpuUsPerEvent)} | ${ratio(r.lateP99Ms, b.lateP99Ms)} |`);
  }
}
NODE
