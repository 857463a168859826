// What a run's start and end cost in CPU, from bench/profile.sh's stacks (issue 31 item 3): for each phase, the
// share of the CPU samples whose stack passes through it (inclusive: a phase inside another counts in both), times
// the server's CPU per run as load.mjs measured it from /proc (on a loaded machine the profiler's timer loses
// samples, so their count is not the time; their shares are).
//
//   node bench/run-phases.mjs target/profile-real-N.collapsed LOAD_JSON
// LOAD_JSON: load.mjs's line for the profiled window (profile.sh prints it after "load: ").
import fs from 'node:fs';

const [file, loadJson] = process.argv.slice(2);
const load = JSON.parse(loadJson);
const cpuPerRun = load.cpuUsPerEvent * load.eventsPerSecond / load.runsPerSecond;
const phases = [
  ['request: read the run input', /RunAgentInputReader\.read/],
  ['start: load the thread, reconcile, claim (ThreadSessions.open)', /session\/ThreadSessions\.(open|claimed|prepare)/],
  ['  the thread store: load, scopes', /store\/\w+\.(load|loadScope)\b|TimedThreadBackend\.(load|loadScope)/],
  ['  the claim', /tryLock|tryClaim|ThreadSessions\.lock\b/],
  ['start: the run log\'s base entry (LiveRun.<init>)', /LiveRun\.<init>/],
  ['start: the run loop set up (AgentRunner.run)', /AgentRunner\.run\b/],
  ['llm: the upstream request (langchain4j builds and sends it)', /OpenAiCompatibleModel\.(stream|request|chat)|UpstreamHttp\.\w+/],
  ['end: commit, release (ThreadSessions.release, AgentRunner.ended)', /ThreadSessions\.(release|unclaim)|AgentRunner\.ended/],
  ['end: the log saved and expired (LiveRuns.ended)', /LiveRuns\.ended/],
  ['tracing (off by default)', /run\/tracing\//],
  ['metrics', /RunMetrics\./],
  ['webhooks', /webhooks\//],
  ['the claim kept (renewal timer)', /ThreadSessions\.keepClaimed|ClaimRenewal|renew/],
];
let total = 0;
const counts = phases.map(() => 0);
for (const line of fs.readFileSync(file, 'utf8').trim().split('\n')) {
  const cut = line.lastIndexOf(' ');
  const stack = line.slice(0, cut);
  const count = Number(line.slice(cut + 1));
  total += count;
  phases.forEach(([, pattern], i) => { if (pattern.test(stack)) counts[i] += count; });
}
const perRun = (samples) => (cpuPerRun * samples / total).toFixed(1);
console.log(`${total} samples; ${load.runsPerSecond} runs/s, ${cpuPerRun.toFixed(0)} µs of CPU per run in all`);
console.log('| phase | µs of CPU per run | share |');
console.log('|---|---|---|');
phases.forEach(([name], i) => console.log(`| ${name} | ${perRun(counts[i])} | ${(100 * counts[i] / total).toFixed(1)} % |`));
