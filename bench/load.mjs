// Closed-loop SSE load generator for bench/ratios.sh (Node 20, no dependencies).
// N clients, each on its own keep-alive connection, POST a run and read its SSE stream to the end, then start the
// next one. Every run is validated, warm-up included: HTTP 200, every frame's data parses as JSON, the first event is
// RUN_STARTED, exactly one terminal event (RUN_FINISHED or RUN_ERROR) and it is the last; a RUN_ERROR run counts as
// failed. After the measured window no new run starts and those still open are awaited (up to --drain seconds,
// default 60): "unfinished" counts those that did not end. events/s counts the events that arrived in the window.
// Added latency: a run's k-th TEXT_MESSAGE_CONTENT should arrive k × pace after its first one; the lateness beyond
// that (p50, p99, over the runs that ended in the window), so a server that streams on time scores ≈ 0.
// With --pid, the server's CPU time (utime+stime from /proc) over the measured window, per event and per run that
// ended in it, and its peak threads and RSS.
//
// node bench/load.mjs --url http://127.0.0.1:18150/agui --clients 100 --warmup 5 --seconds 20 --pace 15 [--pid P]
// Prints one JSON line.
import http from 'node:http';
import fs from 'node:fs';
import { randomUUID } from 'node:crypto';

const args = Object.fromEntries(process.argv.slice(2).reduce((pairs, arg, i, all) =>
  arg.startsWith('--') ? [...pairs, [arg.slice(2), all[i + 1]]] : pairs, []));
const url = new URL(args.url);
const clients = Number(args.clients ?? 10);
const warmupMs = Number(args.warmup ?? 5) * 1000;
const measureMs = Number(args.seconds ?? 20) * 1000;
const paceMs = Number(args.pace ?? 15);
const drainMs = Number(args.drain ?? 60) * 1000;
const pid = args.pid;
const TICKS = 100; // USER_HZ

const agent = new http.Agent({ keepAlive: true, maxSockets: clients, maxFreeSockets: clients });
let measuring = false;
let stopping = false;
const totals = { runs: 0, invalid: 0, failed: 0, events: 0, lateness: [], open: 0, ended: 0 };
const reasons = {};

function invalid(reason) {
  totals.invalid++;
  reasons[reason] = (reasons[reason] ?? 0) + 1;
}

function body() {
  return JSON.stringify({ threadId: `bench-${randomUUID()}`, runId: randomUUID(), state: null, tools: [],
    context: [], forwardedProps: {}, messages: [{ id: randomUUID(), role: 'user', content: 'Hello' }] });
}

function oneRun() {
  return new Promise((done) => {
    totals.open++;
    let settled = false;
    const resolve = () => { if (!settled) { settled = true; totals.open--; done(); } };
    const payload = body();
    const request = http.request(url, { method: 'POST', agent, headers: { 'Content-Type': 'application/json',
      Accept: 'text/event-stream', 'Content-Length': Buffer.byteLength(payload) } }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        response.on('end', () => { invalid(`http ${response.statusCode}`); resolve(); });
        return;
      }
      response.setEncoding('utf8');
      let buffer = '';
      const events = [];
      let firstContent = -1;
      let contents = 0;
      const late = [];
      let bad = null;
      response.on('data', (chunk) => {
        const now = performance.now();
        buffer += chunk;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame.split('\n').filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trimStart()).join('\n');
          if (!data) continue; // keep-alive comment
          let event;
          try { event = JSON.parse(data); } catch { bad ??= 'unparsable frame'; continue; }
          events.push(event.type);
          if (measuring) totals.events++;
          if (event.type === 'TEXT_MESSAGE_CONTENT') {
            if (firstContent < 0) firstContent = now;
            else late.push(Math.max(0, now - firstContent - contents * paceMs));
            contents++;
          }
        }
      });
      response.on('end', () => {
        const terminals = events.filter((t) => t === 'RUN_FINISHED' || t === 'RUN_ERROR').length;
        if (bad) invalid(bad);
        else if (events[0] !== 'RUN_STARTED') invalid(`first event ${events[0]}`);
        else if (terminals !== 1) invalid(`${terminals} terminal events`);
        else if (!['RUN_FINISHED', 'RUN_ERROR'].includes(events.at(-1))) invalid('terminal event not last');
        else if (events.at(-1) === 'RUN_ERROR') totals.failed++;
        else {
          totals.runs++;
          if (measuring) { totals.ended++; for (const l of late) totals.lateness.push(l); }
        }
        resolve();
      });
      response.on('error', () => { if (!settled) invalid('response error'); resolve(); });
    });
    request.on('error', (e) => { if (!settled) invalid(`request ${e.code ?? e.message}`); resolve(); });
    request.end(payload);
  });
}

async function client() {
  while (!stopping) await oneRun();
}

function procStat() {
  if (!pid) return null;
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+)`, 'm'))[1]);
  return { cpuTicks: Number(fields[11]) + Number(fields[12]), threads: field('Threads'), rssKb: field('VmRSS') };
}

function percentile(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] : NaN;
}

const running = Array.from({ length: clients }, client);
await new Promise((r) => setTimeout(r, warmupMs));
measuring = true;
const start = performance.now();
const before = procStat();
let peakThreads = before?.threads ?? 0;
let peakRssKb = before?.rssKb ?? 0;
const sampler = setInterval(() => {
  const s = procStat();
  if (s) { peakThreads = Math.max(peakThreads, s.threads); peakRssKb = Math.max(peakRssKb, s.rssKb); }
}, 500);
await new Promise((r) => setTimeout(r, measureMs));
const after = procStat();
const elapsed = (performance.now() - start) / 1000;
measuring = false; // events/s: the events that arrived in the window; runs: those that started in it, awaited
clearInterval(sampler);
stopping = true;
await Promise.race([Promise.all(running), new Promise((r) => setTimeout(r, drainMs))]);
const unfinished = totals.open;
agent.destroy();
const sorted = Float64Array.from(totals.lateness).sort();
const cpuSeconds = after && before ? (after.cpuTicks - before.cpuTicks) / TICKS : NaN;
console.log(JSON.stringify({
  clients, seconds: Number(elapsed.toFixed(1)), runs: totals.runs, invalid: totals.invalid, failed: totals.failed,
  unfinished, reasons, eventsPerSecond: Math.round(totals.events / elapsed),
  runsPerSecond: Number((totals.ended / elapsed).toFixed(1)),
  lateP50Ms: Number(percentile(sorted, 0.5).toFixed(2)), lateP99Ms: Number(percentile(sorted, 0.99).toFixed(2)),
  cpuUsPerEvent: Number((cpuSeconds * 1e6 / Math.max(1, totals.events)).toFixed(1)),
  cpuMsPerRun: Number((cpuSeconds * 1e3 / Math.max(1, totals.ended)).toFixed(3)),
  serverCpuPercent: Number((cpuSeconds / elapsed * 100).toFixed(0)), peakThreads, peakRssMb: Math.round(peakRssKb / 1024),
}));
process.exit(0);
