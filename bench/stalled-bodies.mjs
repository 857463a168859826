#!/usr/bin/env node
// Stalled request bodies against the packaged server, side by side with a normal client (issue 23, item 2): many
// connections each announce a run request body and send all of it but its last byte, then hold; meanwhile, and after
// they leave, a normal client runs the scripted demo agent and asks for liveness and readiness. Not in CI: its
// command and result are in docs/reliability.md ("Stalled request bodies").
//
//   ./mvnw -q package -DskipTests && node bench/stalled-bodies.mjs
//
// It starts the server itself (scripted demo model, in-memory store) on -Xmx256m and stops it at the end. The
// attackers connect from loopback addresses other than the normal client's (127.0.0.2, 127.0.0.3, ...), as clients on
// other machines would. Settings, by environment variable:
//   STALL_PORT (18230)  STALL_HEAP (256m)  STALL_JAR (target/quarkus-app/quarkus-run.jar)
//   STALL_CONNECTIONS (250)  STALL_ADDRESSES (attackers' addresses, 1)  STALL_BODY (bytes announced, 1048576)
//   STALL_HOLD_SECONDS (how long the attackers hold before they close, 45)  STALL_AFTER_SECONDS (10)
// Prints one JSON summary; exit status 1 when a normal run or a health check failed during or after the attack, or
// the server logged an OutOfMemoryError.
import { spawn, execFileSync } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { randomUUID } from 'node:crypto';

const port = Number(process.env.STALL_PORT ?? 18230);
const heap = process.env.STALL_HEAP ?? '256m';
const jar = process.env.STALL_JAR ?? 'target/quarkus-app/quarkus-run.jar';
const connections = Number(process.env.STALL_CONNECTIONS ?? 250);
const addresses = Number(process.env.STALL_ADDRESSES ?? 1);
const bodyBytes = Number(process.env.STALL_BODY ?? 1048576);
const holdSeconds = Number(process.env.STALL_HOLD_SECONDS ?? 45);
const afterSeconds = Number(process.env.STALL_AFTER_SECONDS ?? 10);
const NORMAL_TIMEOUT_MS = 15000;

const sleep = ms => new Promise(r => setTimeout(r, ms));

function startServer() {
  const env = { ...process.env };
  delete env.AGUI_LLM_API_KEY;
  delete env.AGUI_LLM_BASE_URL;
  const server = spawn('java', [`-Xmx${heap}`, `-Dquarkus.http.port=${port}`, '-jar', jar],
    { env, stdio: ['ignore', 'pipe', 'pipe'] });
  server.outOfMemory = 0;
  for (const stream of [server.stdout, server.stderr]) {
    stream.on('data', d => { server.outOfMemory += (String(d).match(/OutOfMemoryError/g) ?? []).length; });
  }
  return server;
}

/** A whole response from the normal client (127.0.0.1), or {status: 0, error} after NORMAL_TIMEOUT_MS. */
function request(method, path, body, headers = {}) {
  const started = Date.now();
  return new Promise(resolve => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false,
      localAddress: '127.0.0.1', timeout: NORMAL_TIMEOUT_MS }, res => {
      const chunks = [];
      res.on('data', c => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, ms: Date.now() - started,
        body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', e => resolve({ status: 0, ms: Date.now() - started, error: e.message }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', e => resolve({ status: 0, ms: Date.now() - started, error: e.message }));
    if (body !== null) req.end(body); else req.end();
  });
}

async function normalRun() {
  const input = { threadId: randomUUID(), runId: randomUUID(), state: {}, tools: [], context: [],
    forwardedProps: {}, messages: [{ id: randomUUID(), role: 'user', content: 'hello' }] };
  const r = await request('POST', '/agui/chat', JSON.stringify(input),
    { 'Content-Type': 'application/json', Accept: 'text/event-stream' });
  return { ok: r.status === 200 && r.body.includes('"type":"RUN_FINISHED"'), status: r.status, ms: r.ms };
}

async function health(which) {
  const r = await request('GET', `/q/health/${which}`, null);
  return { ok: r.status === 200, status: r.status, ms: r.ms };
}

async function awaitReady() {
  for (let i = 0; i < 240; i++) {
    if ((await health('ready')).ok) return;
    await sleep(250);
  }
  throw new Error('the server did not become ready');
}

/** One attacker connection: sends all of its body but the last byte and holds; records its answer, if any. */
function stall(index) {
  const localAddress = `127.0.0.${2 + (index % addresses)}`;
  const started = Date.now();
  const record = { answered: null, ms: null, closed: false };
  const socket = net.connect({ host: '127.0.0.1', port, localAddress });
  socket.on('error', () => { record.closed = true; });
  let response = '';
  socket.on('data', d => {
    response += d;
    if (record.answered === null) {
      record.answered = Number(response.slice(9, 12)) || -1;
      record.ms = Date.now() - started;
    }
  });
  socket.on('close', () => { record.closed = true; });
  socket.on('connect', () => {
    socket.write(`POST /agui/chat HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n`
      + `Accept: text/event-stream\r\nContent-Length: ${bodyBytes}\r\n\r\n`);
    socket.write('{"pad":"' + 'x'.repeat(bodyBytes - 9));
  });
  record.socket = socket;
  return record;
}

function percentile(values, p) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

function summarize(samples) {
  return { total: samples.length, ok: samples.filter(s => s.ok).length,
    statuses: samples.reduce((m, s) => ({ ...m, [s.status]: (m[s.status] ?? 0) + 1 }), {}),
    p50Ms: percentile(samples.map(s => s.ms), 0.5), maxMs: Math.max(0, ...samples.map(s => s.ms)) };
}

async function probeWhile(until) {
  const runs = [];
  const live = [];
  const ready = [];
  while (Date.now() < until) {
    const [r, l, d] = await Promise.all([normalRun(), health('live'), health('ready')]);
    runs.push(r); live.push(l); ready.push(d);
    await sleep(1000);
  }
  return { runs: summarize(runs), live: summarize(live), ready: summarize(ready) };
}

async function heapAfterGc(pid) {
  try {
    execFileSync('jcmd', [String(pid), 'GC.run'], { stdio: 'ignore', timeout: 20000 });
  } catch { return null; }
  const r = await request('GET', '/q/metrics', null);
  const used = r.body?.split('\n').filter(l => l.startsWith('jvm_memory_used_bytes{area="heap"'))
    .reduce((sum, l) => sum + Number(l.split(' ').pop()), 0);
  return used ? Math.round(used / 1048576 * 10) / 10 : null;
}

const server = startServer();
let exitCode = 0;
try {
  await awaitReady();
  const before = { run: await normalRun(), heapMiB: await heapAfterGc(server.pid) };
  const attackStarted = Date.now();
  const attackers = Array.from({ length: connections }, (_, i) => stall(i));
  const during = await probeWhile(attackStarted + holdSeconds * 1000);
  const answers = attackers.filter(a => a.answered !== null);
  const attack = {
    connections, addresses, bodyBytes,
    answeredWithin2s: answers.filter(a => a.ms <= 2000).length,
    byStatus: answers.reduce((m, a) => ({ ...m, [a.answered]: (m[a.answered] ?? 0) + 1 }), {}),
    firstAnswerMedianMs: percentile(answers.map(a => a.ms), 0.5),
    unansweredWhileHeld: attackers.length - answers.length,
  };
  const heapDuringMiB = await heapAfterGc(server.pid);
  attackers.forEach(a => a.socket.destroy());
  await sleep(500);
  const after = await probeWhile(Date.now() + afterSeconds * 1000);
  const heapAfterMiB = await heapAfterGc(server.pid);
  const summary = { heap, before, attack, during, heapDuringMiB, after, heapAfterMiB,
    outOfMemoryErrors: server.outOfMemory };
  console.log(JSON.stringify(summary, null, 2));
  const failed = during.runs.ok < during.runs.total || during.live.ok < during.live.total
    || after.runs.ok < after.runs.total || after.live.ok < after.live.total || after.ready.ok < after.ready.total
    || server.outOfMemory > 0;
  exitCode = failed ? 1 : 0;
} catch (e) {
  console.error(e);
  exitCode = 1;
} finally {
  server.kill('SIGTERM');
}
process.exit(exitCode);
