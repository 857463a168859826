#!/usr/bin/env node
// A soak of the packaged server: a steady mix of valid runs, aborted runs, bad inputs and thread API calls for a
// fixed time, sampling the heap after a forced GC, agui_runs_active and the responses by status class. Not in CI:
// run it once after a change to the run path and write the numbers into docs/reliability.md ("Soak").
//
//   ./mvnw -q package -DskipTests && node bench/soak.mjs
//
// It starts the packaged server itself (scripted demo model, in-memory store, no API key) so that it knows the
// server's pid for `jcmd GC.run`, and stops it at the end. Settings, by environment variable:
//   SOAK_PORT (18320)  SOAK_SECONDS (600)  SOAK_RATE (requests started per second, 20)  SOAK_SAMPLE_SECONDS (30)
//   SOAK_HEAP (-Xmx value, 256m)  SOAK_LIVE_THREADS (conversations kept at once, 40)  SOAK_TURNS (per thread, 6)
// The mix, started at a steady rate whether or not earlier requests have ended: 30% runs on new threads (agents
// chat, recipe, tasks, document), 30% runs continuing an idle thread with only the new message, 15% runs whose
// client leaves after RUN_STARTED or the first text, 20% bad inputs (13 kinds, each with its 4xx and code), 5% thread
// reads. A thread is deleted after SOAK_TURNS runs or when more than SOAK_LIVE_THREADS wait, so that what the store
// holds stays level and the heap after GC can show a leak.
// Every request has an expected outcome; anything else is counted as unexpected and listed. Exit status 1 when
// there was a 5xx, an unexpected outcome, or agui_runs_active is not 0 once the last request ended.
import { spawn, execFileSync } from 'node:child_process';
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

const port = Number(process.env.SOAK_PORT ?? 18320);
const seconds = Number(process.env.SOAK_SECONDS ?? 600);
const rate = Number(process.env.SOAK_RATE ?? 20);
const sampleSeconds = Number(process.env.SOAK_SAMPLE_SECONDS ?? 30);
const heap = process.env.SOAK_HEAP ?? '256m';
const liveThreads = Number(process.env.SOAK_LIVE_THREADS ?? 40);
const turnsPerThread = Number(process.env.SOAK_TURNS ?? 6);

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

// ---- the server -------------------------------------------------------------------------------------------

function startServer() {
  const env = { ...process.env };
  delete env.AGUI_LLM_API_KEY;
  delete env.AGUI_LLM_BASE_URL;
  const server = spawn('java', [`-Xmx${heap}`, `-Dquarkus.http.port=${port}`, '-jar',
    'target/quarkus-app/quarkus-run.jar'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  // Only the log's WARN and ERROR lines are kept: every run logs two INFO lines.
  server.warnings = [];
  for (const stream of [server.stdout, server.stderr]) {
    let pending = '';
    stream.on('data', d => {
      const lines = (pending + d).split('\n');
      pending = lines.pop();
      server.warnings.push(...lines.filter(l => / (ERROR|WARN) /.test(l)));
    });
  }
  return server;
}

async function awaitReady(deadlineMs) {
  while (Date.now() < deadlineMs) {
    try {
      const r = await request('GET', '/q/health/ready', null, {});
      if (r.status === 200) return;
    } catch { /* not listening yet */ }
    await new Promise(r => setTimeout(r, 250));
  }
  throw new Error('the server did not become ready');
}

// ---- HTTP ---------------------------------------------------------------------------------------------------

/** A whole response: status, headers, body as text. */
function request(method, path, body, headers) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent }, res => {
      const chunks = [];
      res.on('data', c => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers,
        body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body !== null) req.end(body); else req.end();
  });
}

/**
 * A run: POSTs the input and reads the event stream. With abortWhen, destroys the connection (the client leaves)
 * as soon as an event matches it; the result then says aborted.
 */
function run(agentName, input, abortWhen) {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify(input);
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: `/agui/${agentName}`, agent,
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream',
        'Content-Length': Buffer.byteLength(body) } }, res => {
      if (res.statusCode !== 200) {
        const chunks = [];
        res.on('data', c => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
        return;
      }
      const events = [];
      let pending = '';
      let aborted = false;
      res.setEncoding('utf8');
      res.on('data', text => {
        pending += text;
        let end;
        while ((end = pending.indexOf('\n\n')) >= 0) {
          const frame = pending.slice(0, end);
          pending = pending.slice(end + 2);
          // a frame is `id: <cursor>` (runs carry their cursor, such as 2s.41) and `data: <json>`; a keep-alive is a comment
          const data = frame.split('\n').find(line => line.startsWith('data: '));
          if (!data) continue;
          const event = JSON.parse(data.slice(6));
          events.push(event);
          if (abortWhen && abortWhen(event) && !aborted) {
            aborted = true;
            req.destroy();
            resolve({ status: 200, events, aborted: true });
            return;
          }
        }
      });
      res.on('end', () => { if (!aborted) resolve({ status: 200, events, aborted: false }); });
      res.on('error', e => { if (!aborted) reject(e); });
    });
    req.on('error', reject); // after an abort the promise is settled already
    req.end(body);
  });
}

// ---- the mix ------------------------------------------------------------------------------------------------

const openers = {
  chat: ['Hello!', "What's the weather in Paris?", 'How is the weather in Oslo today?'],
  recipe: ['Make me a pasta recipe'],
  tasks: ['Hello!'],
  document: ['Hello!'],
};
const followUps = {
  chat: ['Thanks. And the weather in Rome?', 'Tell me more.', 'Hello again!'],
  recipe: ['make it vegan', 'make it gluten-free', 'make it dairy-free', 'vegetarian please'],
  tasks: ['Thanks!', 'What can you do?'],
  document: ['Thanks!', 'What can you do?'],
};
const pick = list => list[Math.floor(Math.random() * list.length)];
const userMessage = content => ({ id: `m-${randomUUID()}`, role: 'user', content });
const input = (threadId, messages) => ({ threadId, runId: `r-${randomUUID()}`, messages, tools: [], context: [],
  state: null, forwardedProps: {} });

/** Conversations between runs: idle ones can be continued; old ones are deleted, so the store stays bounded. */
const idle = [];
let running = 0;

async function newThreadRun() {
  const agentName = pick(Object.keys(openers));
  const threadId = `soak-${randomUUID()}`;
  const r = await run(agentName, input(threadId, [userMessage(pick(openers[agentName]))]));
  finished(r);
  if (ok(r)) await keep({ agentName, threadId, turns: 1, stored: true });
  return r.status;
}

/** A thread to continue later; the oldest goes when too many wait, so the store stays bounded. */
async function keep(thread) {
  idle.push(thread);
  if (idle.length > liveThreads) {
    const oldest = idle.shift();
    await deleteThread(oldest.threadId, !oldest.stored);
  }
}

async function continuingRun() {
  const thread = idle.shift();
  if (!thread) return newThreadRun();
  // a page that sends only its new message: the server adds it to the stored conversation
  const r = await run(thread.agentName, input(thread.threadId, [userMessage(pick(followUps[thread.agentName]))]));
  finished(r);
  if (ok(r) && ++thread.turns < turnsPerThread) idle.push({ ...thread, stored: true });
  else await deleteThread(thread.threadId, !ok(r) && !thread.stored);
  return r.status;
}

async function abortedRun() {
  // a long answer, left after its first text (or, one time in four, right after RUN_STARTED)
  const early = Math.random() < 0.25;
  const threadId = `soak-${randomUUID()}`;
  const r = await run('chat', input(threadId, [userMessage('Tell me a long story')]),
    e => e.type === (early ? 'RUN_STARTED' : 'TEXT_MESSAGE_CONTENT'));
  expect(r.status === 200 && r.aborted, 'aborted run', r);
  // the run stopped when its client left, keeping its starting checkpoint (if it got that far): a page that comes
  // back later continues the thread
  await keep({ agentName: 'chat', threadId, turns: 1, stored: false });
  return r.status;
}

async function deleteThread(threadId, mayBeAbsent = false) {
  const r = await request('DELETE', `/threads/${encodeURIComponent(threadId)}`, null, {});
  expect(r.status === 204 || r.status === 200 || (mayBeAbsent && r.status === 404), 'delete thread', r);
  count(r.status);
}

async function readThreads() {
  const thread = idle.shift(); // taken out while it is read, so that nothing deletes it meanwhile
  const r = thread
    ? await request('GET', `/threads/${encodeURIComponent(thread.threadId)}`, null, { Accept: 'application/json' })
    : await request('GET', '/threads?limit=20', null, { Accept: 'application/json' });
  expect(r.status === 200, 'read thread', r);
  if (thread) idle.push(thread);
  return r.status;
}

const json = { 'Content-Type': 'application/json', Accept: 'text/event-stream' };
const valid = () => JSON.stringify(input(`soak-${randomUUID()}`, [userMessage('hi')]));
/** Bad requests and what the server must answer to each, before any stream. */
const badInputs = [
  ['malformed JSON', () => request('POST', '/agui', '{"threadId": "t", "runId":', json), 400, 'malformed_json'],
  ['trailing comma', () => request('POST', '/agui', '{"threadId":"t","runId":"r","messages":[],}', json), 400, 'malformed_json'],
  ['deep nesting', () => request('POST', '/agui', '['.repeat(2000) + ']'.repeat(2000), json), 400, 'malformed_json'],
  ['overlong UTF-8', () => request('POST', '/agui', Buffer.concat([Buffer.from('{"threadId":"'),
    Buffer.from([0xc0, 0xaf]), Buffer.from('","runId":"r","messages":[]}')]), json), 400, 'malformed_json'],
  ['oversized body', () => request('POST', '/agui', JSON.stringify({ threadId: 't', runId: 'r',
    messages: [userMessage('x'.repeat(2 * 1024 * 1024))] }), json), 413, 'request_too_large'],
  ['threadId with a line break', () => request('POST', '/agui', JSON.stringify(input('t\n12:00:00 ERROR forged',
    [userMessage('hi')])), json), 422, 'invalid_run_input'],
  ['empty runId', () => request('POST', '/agui', JSON.stringify({ ...input('t', []), runId: '' }), json), 422, 'invalid_run_input'],
  ['number out of range', () => request('POST', '/agui', '{"threadId":"t","runId":"r","messages":[],"state":{"n":1e400}}', json), 422, 'invalid_run_input'],
  ['context [null]', () => request('POST', '/agui', '{"threadId":"t","runId":"r","messages":[],"context":[null]}', json), 422, 'invalid_run_input'],
  ['wrong content type', () => request('POST', '/agui', valid(), { 'Content-Type': 'text/plain' }), 415, 'unsupported_media_type'],
  ['unknown agent', () => request('POST', '/agui/no-such-agent', valid(), json), 404, 'unknown_agent'],
  ['GET on the run path', () => request('GET', '/agui', null, { Accept: 'application/json' }), 405, 'method_not_allowed'],
  ['bad page parameter', () => request('GET', '/threads?offset=abc', null, { Accept: 'application/json' }), 400, 'invalid_page'],
];

async function badInput() {
  const [name, send, status, code] = pick(badInputs);
  const r = await send();
  let body = {};
  try { body = JSON.parse(r.body); } catch { /* checked below */ }
  expect(r.status === status && body.code === code, `bad input: ${name}`, r);
  return r.status;
}

/** The mix, by weight. */
const mix = [[newThreadRun, 30], [continuingRun, 30], [abortedRun, 15], [badInput, 20], [readThreads, 5]];
const totalWeight = mix.reduce((s, [, w]) => s + w, 0);
function nextKind() {
  let x = Math.random() * totalWeight;
  for (const [kind, w] of mix) { if ((x -= w) < 0) return kind; }
  return mix[0][0];
}

// ---- bookkeeping ---------------------------------------------------------------------------------------------

const byClass = {};
const byKind = {};
const runEnds = {};
const unexpected = [];
let failures = 0; // requests that got no HTTP answer at all

function count(status) { const c = `${Math.floor(status / 100)}xx`; byClass[c] = (byClass[c] ?? 0) + 1; }
function ok(r) { return r.status === 200 && r.events.at(-1)?.type === 'RUN_FINISHED'; }
function finished(r) {
  if (r.status !== 200) { expect(false, 'valid run', r); return; }
  const last = r.events.at(-1);
  const end = last?.type === 'RUN_ERROR' ? `RUN_ERROR ${last.code}` : last?.type ?? 'none';
  runEnds[end] = (runEnds[end] ?? 0) + 1;
  expect(last?.type === 'RUN_FINISHED', 'valid run', { status: r.status, body: JSON.stringify(last) });
}
function expect(condition, what, r) {
  if (!condition) unexpected.push(`${what}: ${r.status} ${(r.body ?? '').slice(0, 200)}`);
}

// ---- samples -------------------------------------------------------------------------------------------------

function metric(text, name, filter = '') {
  let sum = 0;
  let found = false;
  for (const line of text.split('\n')) {
    if (line.startsWith(name) && (line[name.length] === ' ' || line[name.length] === '{') && line.includes(filter)) {
      sum += Number(line.slice(line.lastIndexOf(' ') + 1));
      found = true;
    }
  }
  return found ? sum : NaN;
}

/** How many threads the store holds, through the thread API (the soak's user is the only one). */
async function storedThreads() {
  let n = 0;
  for (let offset = 0; offset < 100_000; offset += 100) {
    const page = JSON.parse((await request('GET', `/threads?offset=${offset}&limit=100`, null,
      { Accept: 'application/json' })).body).threads.length;
    n += page;
    if (page < 100) break;
  }
  return n;
}

async function sample(pid, startedAt) {
  execFileSync('jcmd', [String(pid), 'GC.run'], { stdio: 'ignore' });
  const metrics = (await request('GET', '/q/metrics', null, {})).body;
  const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1];
  return {
    t: Math.round((Date.now() - startedAt) / 1000),
    heapAfterGcMiB: +(metric(metrics, 'jvm_memory_used_bytes', 'area="heap"') / 1048576).toFixed(1),
    rssMiB: Math.round(rss / 1024),
    runsActive: metric(metrics, 'agui_runs_active'), // null until the first run registers it
    storedThreads: await storedThreads(),
    jvmThreads: metric(metrics, 'jvm_threads_live_threads'),
    serverRequests: metric(metrics, 'http_server_requests_seconds_count'),
    server5xx: metric(metrics, 'http_server_requests_seconds_count', 'status="5') || 0, // no series: none
    inFlight: running,
    ...byClass,
  };
}

// ---- main ----------------------------------------------------------------------------------------------------

const server = startServer();
let exitCode = 0;
try {
  await awaitReady(Date.now() + 60_000);
  const agents = JSON.parse((await request('GET', '/agui/agents', null, { Accept: 'application/json' })).body);
  const model = JSON.stringify(agents.model ?? agents[0]?.model ?? agents);
  console.log(`server pid ${server.pid}, -Xmx${heap}, port ${port}; ${rate} requests/s for ${seconds} s`);
  console.log(`model: ${model.slice(0, 120)}`);

  const startedAt = Date.now();
  const samples = [await sample(server.pid, startedAt)];
  console.log(JSON.stringify(samples[0]));
  const sampler = setInterval(() => sample(server.pid, startedAt).then(s => {
    samples.push(s);
    console.log(JSON.stringify(s));
  }, e => unexpected.push(`sample: ${e.message}`)), sampleSeconds * 1000);

  // open loop: a request starts every 1/rate s whether or not the earlier ones have ended
  let started = 0;
  const all = [];
  await new Promise(done => {
    const tick = setInterval(() => {
      const elapsed = Date.now() - startedAt;
      if (elapsed >= seconds * 1000) { clearInterval(tick); done(); return; }
      while (started < Math.floor(elapsed * rate / 1000)) { // on schedule, however late the timer fired
        const kind = nextKind();
        started++;
        running++;
        byKind[kind.name] = (byKind[kind.name] ?? 0) + 1;
        all.push(kind().then(count, e => { failures++; unexpected.push(`${kind.name}: ${e.message}`); })
          .finally(() => { running--; }));
      }
    }, 10);
  });
  await Promise.all(all);
  clearInterval(sampler);
  // the runs of clients that left end on the server shortly after; give them a bounded moment
  let last;
  for (let i = 0; i < 20; i++) {
    last = await sample(server.pid, startedAt);
    if (last.runsActive === 0) break;
    await new Promise(r => setTimeout(r, 500));
  }
  samples.push(last);
  console.log(JSON.stringify(last));

  const heaps = samples.map(s => s.heapAfterGcMiB);
  const summary = {
    requests: started, perSecond: +(started / seconds).toFixed(1), byKind, byClass, runEnds,
    noAnswer: failures, unexpected: unexpected.length,
    heapAfterGcMiB: { first: heaps[0], last: heaps.at(-1), max: Math.max(...heaps), min: Math.min(...heaps) },
    runsActiveAtEnd: last.runsActive, server5xx: last.server5xx,
  };
  console.log('summary ' + JSON.stringify(summary, null, 2));
  for (const u of unexpected.slice(0, 30)) console.log('unexpected: ' + u);
  if ((byClass['5xx'] ?? 0) > 0 || last.server5xx > 0 || unexpected.length > 0 || last.runsActive !== 0) exitCode = 1;
} catch (e) {
  console.error(e);
  exitCode = 1;
} finally {
  agent.destroy();
  server.kill('SIGTERM');
  console.log(`server log: ${server.warnings.length} WARN/ERROR lines`);
  for (const l of server.warnings.slice(0, 20)) console.log('  ' + l.slice(0, 300));
}
process.exit(exitCode);
