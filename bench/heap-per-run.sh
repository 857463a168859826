#!/usr/bin/env bash
# Live heap per concurrent run (issue 16): the packaged server's used heap after a full GC, idle and then with N runs
# held open halfway through their answers, divided by N. The answers are paced at 500 ms per chunk (40 chunks), so
# after 10 s every run of the first wave is live and none has ended. What a run holds then: its request and thread
# (the memory store), its event log so far, its HTTP response and, on the real-upstream path, its upstream call.
# Results and discussion: docs/benchmarks.md.
#
#   bench/heap-per-run.sh [scripted|real] [N]          (defaults: real 2000; BENCH_SKIP_BUILD=1 reuses target/)
#   BENCH_JVM_OPTS ("-Xmx512m -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError")  BENCH_PORT (18160: the stub; +1 ours)
set -euo pipefail
cd "$(dirname "$0")/.."

path=${1:-real}
n=${2:-2000}
jvm_opts=${BENCH_JVM_OPTS:--Xmx512m -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError}
stub_port=${BENCH_PORT:-18160}
ours_port=$((stub_port + 1))
pace=500
# shellcheck source=bench/common.sh
source bench/common.sh

start_path "$path"
ours=$started

used_kb() { # the used heap after a full GC
  jcmd "$ours" GC.run >/dev/null
  jcmd "$ours" GC.heap_info | grep -o 'used [0-9]*K' | head -n 1 | tr -dc 0-9
}

idle=$(used_kb)
node bench/load.mjs --url "http://127.0.0.1:$ours_port/agui" --clients "$n" --warmup 0 --seconds 14 --pace "$pace" \
  >"$work/load.json" &
load=$!
sleep 10
active=$(curl -s "http://127.0.0.1:$ours_port/q/metrics" | awk '/^agui_runs_active/ {print int($2)}')
busy=$(used_kb)
rss=$(awk '/VmRSS/ {print int($2 / 1024)}' "/proc/$ours/status")
wait "$load"
echo "path $path: heap after GC idle ${idle} KB, with ${active} live runs ${busy} KB, RSS ${rss} MB;" \
  "$(( (busy - idle) / active )) KB per live run; every run: $(cat "$work/load.json")"
