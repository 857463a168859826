// CopilotKit's own client against this server's CopilotKit runtime endpoints (/copilotkit): @copilotkit/core, as
// a CopilotKit app uses it, headless in Node, with nothing but its runtimeUrl pointed here. It proves that
//   - discovery works: /info lists every agent of GET /agui/agents with its description and AG-UI capabilities;
//   - the recipe agent's shared state and predictive STATE_DELTAs arrive in CopilotKit's agent state, while the
//     tool call streams, and the server stored the same state;
//   - a frontend tool registered with CopilotKit is run by CopilotKit, which sends its result in a follow-up run;
//   - a second client connects to the thread and gets its messages and state; an unknown thread connects empty;
//   - CopilotKit's stop ends the run on the server (the thread's last run: cancelled), then a new run works;
//   - CopilotKit's thread store (behind useThreads and the threads drawer) lists, renames, archives and unarchives
//     threads, and the server keeps what it did;
//   - the single-endpoint transport (one POST with a method envelope) runs and connects the same way;
//   - CopilotKit never calls console.warn/console.error nor reports an error (onError) while doing all that.
//
// Needs the server running with the scripted demo model (no LLM API key), then:
//   AGUI_SERVER_URL=http://127.0.0.1:8080 npm run test:copilotkit
// With AGUI_API_KEY set, every request (CopilotKit's and the test's own) sends it as Authorization: Bearer <key>,
// the way a CopilotKit app passes `headers`, for a server with agui.auth.api-keys.

import { test, beforeEach, afterEach } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { z } from "zod";

// CopilotKitCore connects to its runtime only where there is a window; CopilotKit's own tests of the core do this.
globalThis.window = {};
const { CopilotKitCore, ɵcreateThreadStore: createThreadStore } = await import("@copilotkit/core");

const SERVER_URL = (process.env.AGUI_SERVER_URL ?? "http://127.0.0.1:8080").replace(/\/+$/, "");
const RUNTIME_URL = `${SERVER_URL}/copilotkit`;
const AUTH = process.env.AGUI_API_KEY ? { Authorization: `Bearer ${process.env.AGUI_API_KEY}` } : {};
const TIMEOUT = { timeout: 30_000 };
const STORY = "Tell me a long story";

// Every console.warn/console.error fails the test it happens in (and still reaches the real console).
let consoleCalls = [];
for (const level of ["warn", "error"]) {
  const original = console[level].bind(console);
  console[level] = (...args) => {
    consoleCalls.push(`${level}: ${args.map(String).join(" ")}`);
    original(...args);
  };
}
beforeEach(() => {
  consoleCalls = [];
});
afterEach(() => {
  assert.deepEqual(consoleCalls, [], "CopilotKit called console.warn/console.error");
});

/** A CopilotKit client connected to the runtime; `errors` collects what it reports through onError. */
async function client(options = {}) {
  const core = new CopilotKitCore({ runtimeUrl: RUNTIME_URL, headers: AUTH, ...options });
  const errors = [];
  core.subscribe({ onError: ({ code, error }) => errors.push(`${code}: ${error?.message}`) });
  await new Promise((resolve, reject) => {
    const check = () => {
      if (core.runtimeConnectionStatus === "connected") resolve();
      if (core.runtimeConnectionStatus === "error") reject(new Error(`runtime connection failed: ${errors}`));
    };
    core.subscribe({ onRuntimeConnectionStatusChanged: check });
    check();
  });
  return { core, errors };
}

/** Every event the agent receives while `action` runs. */
async function recording(agent, action) {
  const events = [];
  const subscription = agent.subscribe({ onEvent: ({ event }) => events.push(event) });
  try {
    await action(events);
  } finally {
    subscription.unsubscribe();
  }
  return events;
}

const ofType = (events, type) => events.filter((event) => event.type === type);
const roles = (agent) => agent.messages.map((message) => message.role);
const lastText = (agent) => agent.messages.at(-1)?.content;

/** The first truthy value `probe` resolves to, asked every 50 ms for up to 10 s. */
async function until(probe) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const value = await probe();
    if (value) return value;
    assert.ok(Date.now() < deadline, "the condition did not come true within 10 s");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function json(path, init) {
  const response = await fetch(`${SERVER_URL}${path}`, { ...init, headers: AUTH });
  assert.equal(response.status, 200, `${path}: ${response.status} ${await response.clone().text()}`);
  return response.json();
}

test("discovery: every agent of GET /agui/agents, with its description and AG-UI capabilities", TIMEOUT, async () => {
  const { core, errors } = await client();
  const listed = await json("/agui/agents");
  assert.deepEqual(Object.keys(core.agents).sort(), listed.agents.map((a) => a.name).sort());
  for (const expected of listed.agents) {
    const agent = core.getAgent(expected.name);
    assert.equal(agent.description, expected.description);
    assert.deepEqual(await agent.getCapabilities(), expected.capabilities, `${expected.name}'s capabilities`);
  }
  assert.equal(core.runtimeTransport, "rest", "/info answered, so the client uses the REST routes");
  assert.deepEqual(errors, []);
});

test("recipe: shared state and predictive STATE_DELTAs arrive in CopilotKit's agent state", TIMEOUT, async () => {
  const { core, errors } = await client();
  const agent = core.getAgent("recipe");
  const titles = [];
  let toolCallEnded = false;
  agent.subscribe({
    onToolCallEndEvent: () => void (toolCallEnded = true),
    onStateChanged: ({ state }) => titles.push({ title: state.recipe?.title, duringToolCall: !toolCallEnded }),
  });
  agent.addMessage({ id: randomUUID(), role: "user", content: "Make me a pasta recipe" });
  const events = await recording(agent, () => core.runAgent({ agent }));

  assert.deepEqual(errors, []);
  assert.deepEqual(ofType(events, "RUN_ERROR"), []);
  assert.ok(ofType(events, "STATE_DELTA").length >= 3, "the recipe fills in over several deltas");
  assert.ok(titles.some((t) => t.duringToolCall && t.title !== undefined),
    `the state changed while the tool call streamed (predictive): ${JSON.stringify(titles)}`);
  assert.equal(agent.state.recipe.title, "Tomato Basil Pasta");
  assert.deepEqual(roles(agent), ["user", "assistant", "tool", "assistant"]);
  const stored = await json(`/copilotkit/threads/${agent.threadId}/state`);
  assert.deepEqual(stored.state.recipe, agent.state.recipe, "the server stored what CopilotKit holds");
});

test("frontend tool: CopilotKit runs the page's handler and sends its result in a follow-up run", TIMEOUT, async () => {
  const calls = [];
  const { core, errors } = await client();
  core.addTool({
    name: "change_background",
    description: "Change the page background colour",
    parameters: z.object({ background: z.string().describe("CSS colour") }),
    handler: async ({ background }) => {
      calls.push(background);
      return `Background changed to ${background}`;
    },
  });
  const agent = core.getAgent("chat");
  agent.addMessage({ id: randomUUID(), role: "user", content: "Please change the background to blue" });
  const events = await recording(agent, () => core.runAgent({ agent }));

  assert.deepEqual(errors, []);
  assert.equal(calls.length, 1, "the handler ran once");
  assert.equal(typeof calls[0], "string");
  assert.equal(ofType(events, "RUN_STARTED").length, 2, "the tool's run and the follow-up run");
  assert.deepEqual(roles(agent), ["user", "assistant", "tool", "assistant"], JSON.stringify(agent.messages));
  assert.equal(agent.messages[2].content, `Background changed to ${calls[0]}`);
  assert.ok(lastText(agent).length > 0, "the follow-up run answers in words");
  const stored = await json(`/copilotkit/threads/${agent.threadId}/messages`);
  assert.deepEqual(stored.messages.map((m) => m.role), roles(agent), "the server kept the tool's result");
});

test("reconnect: a second client connects to the thread and gets its messages and state", TIMEOUT, async () => {
  const first = await client();
  const agent = first.core.getAgent("recipe");
  agent.addMessage({ id: randomUUID(), role: "user", content: "Make me a pasta recipe" });
  await first.core.runAgent({ agent });

  const second = await client();
  const again = second.core.getAgent("recipe");
  again.threadId = agent.threadId;
  await second.core.connectAgent({ agent: again });
  assert.deepEqual(first.errors, []);
  assert.deepEqual(second.errors, []);
  assert.deepEqual(again.messages.map((m) => [m.id, m.role]), agent.messages.map((m) => [m.id, m.role]));
  assert.deepEqual(again.state, agent.state);

  // and a thread the server never saw connects empty, quietly
  const fresh = second.core.getAgent("chat");
  fresh.threadId = randomUUID();
  await second.core.connectAgent({ agent: fresh });
  assert.deepEqual(fresh.messages, []);
  assert.deepEqual(second.errors, []);
});

test("threads: CopilotKit's thread store lists, renames, archives and unarchives a thread", TIMEOUT, async () => {
  const { core, errors } = await client();
  const agent = core.getAgent("chat");
  agent.addMessage({ id: randomUUID(), role: "user", content: "Hello" });
  await core.runAgent({ agent });
  const id = agent.threadId;
  const threads = createThreadStore({ fetch: (...args) => fetch(...args) });
  threads.start();
  try {
    const listed = () => threads.getState().threads.find((thread) => thread.id === id);
    threads.setContext({ runtimeUrl: RUNTIME_URL, headers: AUTH, agentId: "chat" });
    assert.equal((await until(listed)).archived, false);

    await threads.renameThread(id, "Named by CopilotKit");
    threads.refresh();
    await until(() => listed()?.name === "Named by CopilotKit");
    await threads.archiveThread(id);
    threads.refresh();
    await until(() => !threads.getState().isLoading && !listed());
    const stored = await json(`/threads/${encodeURIComponent(id)}`);
    assert.equal(stored.name, "Named by CopilotKit");
    assert.equal(stored.archived, true);

    threads.setContext({ runtimeUrl: RUNTIME_URL, headers: AUTH, agentId: "chat", includeArchived: true });
    await until(() => listed()?.archived === true);
    await threads.unarchiveThread(id);
    assert.equal((await json(`/threads/${encodeURIComponent(id)}`)).archived, false);
    assert.equal(threads.getState().error, null);
  } finally {
    threads.stop();
  }
  assert.deepEqual(errors, []);
});

test("stop: CopilotKit's stop ends the run on the server (cancelled), and a new run works", TIMEOUT, async () => {
  const { core, errors } = await client();
  const agent = core.getAgent("chat");
  agent.addMessage({ id: randomUUID(), role: "user", content: STORY });
  let stopped = false;
  const events = await recording(agent, () => {
    agent.subscribe({
      onTextMessageContentEvent: () => {
        if (!stopped) {
          stopped = true;
          core.stopAgent({ agent });
        }
      },
    });
    // a run that outlives its connection: only the stop request, not the client leaving, can cancel it
    return core.runAgent({ agent, forwardedProps: { onDisconnect: "continue" } });
  });

  assert.ok(stopped, "a TEXT_MESSAGE_CONTENT arrived to stop on");
  assert.deepEqual(errors, []);
  // CopilotKit detaches from the stream as it sends the stop, so the run's end may or may not reach it first. If
  // it does, it is what a client before AG-UI 1.0 gets for a cancelled run (it has no cancelled outcome):
  // RUN_ERROR code cancelled, which CopilotKit takes quietly after its own stop (errors stays empty).
  assert.deepEqual(ofType(events, "RUN_FINISHED"), [], "no run that was stopped reads as finished");
  for (const error of ofType(events, "RUN_ERROR")) assert.equal(error.code, "cancelled", JSON.stringify(error));
  // the thread says how the run ended once the server has stopped it
  const thread = await until(async () => {
    const stored = await json(`/threads/${agent.threadId}`);
    return stored.lastRun ? stored : undefined;
  });
  assert.equal(thread.lastRun.outcome, "cancelled");
  assert.equal(thread.activeRun, undefined);
  assert.deepEqual(await json(`/copilotkit/agent/chat/stop/${agent.threadId}`, { method: "POST" }),
    { stopped: false, message: `No active run for thread '${agent.threadId}'.` }, "nothing is live any more");

  agent.addMessage({ id: randomUUID(), role: "user", content: "Hello" });
  const next = await recording(agent, () => core.runAgent({ agent }));
  assert.equal(next.at(-1).type, "RUN_FINISHED");
  assert.deepEqual(errors, []);
});

test("single-endpoint transport: runs and connects through POST /copilotkit envelopes", TIMEOUT, async () => {
  const { core, errors } = await client({ runtimeTransport: "single" });
  assert.equal(core.runtimeTransport, "single");
  const agent = core.getAgent("recipe");
  agent.addMessage({ id: randomUUID(), role: "user", content: "Make me a pasta recipe" });
  const events = await recording(agent, () => core.runAgent({ agent }));
  assert.ok(ofType(events, "STATE_DELTA").length >= 3);
  assert.equal(agent.state.recipe.title, "Tomato Basil Pasta");

  const other = await client({ runtimeTransport: "single" });
  const again = other.core.getAgent("recipe");
  again.threadId = agent.threadId;
  await other.core.connectAgent({ agent: again });
  assert.deepEqual(again.messages.map((m) => m.id), agent.messages.map((m) => m.id));
  assert.deepEqual(errors, []);
  assert.deepEqual(other.errors, []);
});
