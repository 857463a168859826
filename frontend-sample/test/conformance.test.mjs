// AG-UI conformance test: drives the running agui-state-server with the official
// @ag-ui/client HttpAgent (the same client a real frontend uses) and proves that
//   - every run is accepted by the client's own validation, verification and apply
//     pipeline: no rejected promise, no RUN_ERROR, no onRunFailed, and not a single
//     console.warn / console.error from the library (it warns when it strips unknown
//     fields, when a state patch fails, when an event names an unknown message, ...);
//   - RUN_STARTED / RUN_FINISHED echo the request's threadId and runId;
//   - the scripted demo model's scenarios work end to end: plain chat, a backend tool
//     (get_weather), a frontend tool round trip over two runs (change_background), a client that
//     sends only its new message,
//     20 concurrent runs, abort mid-run followed by a new run, GET /agui/agents, shared state,
//     and human confirmation: approve and reject through the interrupt / resume round trip
//     (agent.pendingInterrupts as the client keeps it) and through the confirm_changes tool;
//   - connect to a thread the caller does not have (nobody started it, it was deleted, it is another user's, even
//     with a run live on it) restates it empty under its id, which the client accepts;
//   - GET /agui/{agent}/capabilities fits @ag-ui/core 1.0's AgentCapabilitiesSchema made strict
//     (an unknown field fails instead of riding along);
//   - every SSE frame the server sends in the suite, read off the wire before any client
//     strips or fills in a field, is an event of @ag-ui/core 1.0's EventSchemas made strict;
//   - no message the server snapshots (MESSAGES_SNAPSHOT) or stores (GET /threads/{id} of every
//     thread a test ran on) is empty: an assistant message says something or calls a tool;
//   - a slow backend tool's progress (the tasks sample's research): ACTIVITY_SNAPSHOT, then ACTIVITY_DELTAs the
//     client applies, before the result, kept in the thread for a reload, and no restatement when the client leaves
//     activity messages out of what it sends (1.0) or sends them back (0.0.59, whose schemas have them too);
//   - agents as tools (examples/agents.yaml's supervisor hands a task to its researcher): SUBAGENT_STARTED, the
//     researcher's events each carrying its subagentRunId, SUBAGENT_FINISHED with its answer, then the supervisor's
//     TOOL_CALL_RESULT; the client holds the researcher's message attributed, a reload gets it back (1.0). 0.0.59,
//     which predates the SUBAGENT events, is sent none of them and still runs clean;
//   - every STATE_DELTA on the wire applies, with a strict RFC 6902 implementation of the suite's own,
//     both to what a client holds that started from the state it sent (as @ag-ui/client does) and to
//     what one holds that started from {} (as CopilotKit's Node runtime does).
//
// The suite runs once per client in use: @ag-ui/client 1.0.0 and 0.0.59 (what CopilotKit 1.75
// ships, installed under the npm alias @ag-ui/client-0.0.59); AGUI_CLIENT picks one, and
// `npm run test:conformance` runs both.
//
// Needs the server running with the scripted demo model (no LLM API key), then:
//   AGUI_SERVER_URL=http://127.0.0.1:8080 npm run test:conformance
// (AGUI_SERVER_URL defaults to http://127.0.0.1:8080.) Against a server with API keys, AGUI_API_KEY is sent on
// every request; with AGUI_OTHER_API_KEY, another user's key, the "another user" case runs too (it is skipped
// otherwise: a server without keys has one user).

import { test, beforeEach, afterEach } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { isDeepStrictEqual } from "node:util";
import { AgentCapabilitiesSchema, EventSchemas } from "@ag-ui/core/schemas";
import { z } from "zod/v4";

// The client under test: the package's own version must be the one asked for, or the run proves nothing.
const CLIENT_VERSION = process.env.AGUI_CLIENT ?? "1.0.0";
const CLIENT_PACKAGE = { "1.0.0": "@ag-ui/client", "0.0.59": "@ag-ui/client-0.0.59" }[CLIENT_VERSION];
if (!CLIENT_PACKAGE) throw new Error(`AGUI_CLIENT=${CLIENT_VERSION}: expected 1.0.0 or 0.0.59`);
const { HttpAgent } = await import(CLIENT_PACKAGE);
const installed = JSON.parse(await readFile(new URL(`../node_modules/${CLIENT_PACKAGE}/package.json`, import.meta.url), "utf8"));
if (installed.version !== CLIENT_VERSION) {
  throw new Error(`${CLIENT_PACKAGE} is ${installed.version}, expected ${CLIENT_VERSION}: run npm install`);
}
/**
 * A 1.0 client states protocolVersion in its input and gets 1.0 events whole; 0.0.59 states none, its zod 3
 * schemas drop fields they do not know (RUN_STARTED.protocolVersion) and refuse two (a success outcome's
 * pendingToolCallIds, the cancelled outcome), which the server therefore leaves out for it.
 */
const CLIENT_IS_1_0 = CLIENT_VERSION === "1.0.0";

const SERVER_URL = (process.env.AGUI_SERVER_URL ?? "http://127.0.0.1:8080").replace(/\/+$/, "");
const CHAT_URL = `${SERVER_URL}/agui`; // the default agent, "chat"
const TIMEOUT = { timeout: 30_000 };

// The client can be told to keep quiet about what it strips; we want to hear it.
delete process.env.SUPPRESS_TRANSFORMATION_WARNINGS;

// ---------------------------------------------------------------------------
// Console spy: every console.warn/console.error goes to all active sinks (and
// still to the real console, so a failure shows what the library said).
// ---------------------------------------------------------------------------
const sinks = new Set();
for (const level of ["warn", "error"]) {
  const original = console[level].bind(console);
  console[level] = (...args) => {
    for (const sink of sinks) sink.push({ level, text: args.map(String).join(" ") });
    original(...args);
  };
}

// Belt and braces: nothing may warn during a test, even outside a run.
let testConsole;
beforeEach(() => {
  testConsole = [];
  sinks.add(testConsole);
});
afterEach(async () => {
  sinks.delete(testConsole);
  const found = {
    "console.warn/console.error during the test": testConsole,
    "frames that are not strict AG-UI 1.0 events": frameViolations.splice(0),
    "empty messages in a MESSAGES_SNAPSHOT": emptySnapshotted.splice(0),
    "empty messages stored (GET /threads/{id})": await emptyStoredMessages(),
    "STATE_DELTAs that do not apply to what a client holds": stateViolations.splice(0),
  };
  assert.deepEqual(found, Object.fromEntries(Object.keys(found).map((what) => [what, []])));
});

/**
 * A @ag-ui/core schema made strict all the way down: @ag-ui/core 1.0 declares its objects loose (unknown keys
 * pass), so a misspelt field would go unnoticed. Objects become strict objects (the two sides of an intersection of
 * objects become one), and optional, nullable, array and union wrappers are rebuilt around the strict inner schema.
 */
function deepStrict(schema) {
  const def = schema._zod.def;
  switch (def.type) {
    case "object":
      return z.strictObject(Object.fromEntries(Object.entries(def.shape).map(([key, value]) => [key, deepStrict(value)])));
    case "optional":
      return deepStrict(def.innerType).optional();
    case "nullable":
      return deepStrict(def.innerType).nullable();
    case "array":
      return z.array(deepStrict(def.element));
    case "union":
      return def.discriminator
        ? z.discriminatedUnion(def.discriminator, def.options.map(deepStrict))
        : z.union(def.options.map(deepStrict));
    case "intersection": {
      const [left, right] = [def.left._zod.def, def.right._zod.def];
      if (left.type === "object" && right.type === "object") {
        return deepStrict(z.object({ ...left.shape, ...right.shape }));
      }
      return z.intersection(deepStrict(def.left), deepStrict(def.right));
    }
    default:
      return schema;
  }
}

// ---------------------------------------------------------------------------
// The wire itself: every event stream any fetch in this process reads (the clients' and the suite's
// own) is parsed frame by frame as the reader takes it and checked against the strict 1.0 schemas.
// Clients strip unknown fields and fill in defaults, so what a subscriber sees cannot tell.
// ---------------------------------------------------------------------------
const StrictEvent = deepStrict(EventSchemas);
const frameViolations = [];
const emptySnapshotted = [];
const wire = { frames: 0 };

const stateViolations = [];

/**
 * RFC 6902 JSON Patch, strictly, written here so that it is neither the server's nor the client's: a pointer must
 * be well formed (RFC 6901), every path but add's last token must exist, an array index is decimal without leading
 * zeros and within bounds ("-" only to add at the end). Returns the patched copy; throws on the first failure.
 */
function applyPatchStrictly(document, patch) {
  const tokens = (pointer) => {
    if (pointer === "") return [];
    if (!pointer.startsWith("/") || /~(?![01])/.test(pointer)) throw new Error(`not a JSON Pointer: ${JSON.stringify(pointer)}`);
    return pointer.slice(1).split("/").map((t) => t.replaceAll("~1", "/").replaceAll("~0", "~"));
  };
  const index = (array, token, forAdd) => {
    if (forAdd && token === "-") return array.length;
    if (!/^(0|[1-9][0-9]*)$/.test(token)) throw new Error(`not an array index: ${token}`);
    const i = Number(token);
    if (i > array.length || (!forAdd && i === array.length)) throw new Error(`index ${i} out of bounds (${array.length})`);
    return i;
  };
  const child = (container, token) => {
    if (Array.isArray(container)) return container[index(container, token, false)];
    if (container !== null && typeof container === "object" && Object.hasOwn(container, token)) return container[token];
    throw new Error(`no member ${JSON.stringify(token)}`);
  };
  const get = (root, pointer) => tokens(pointer).reduce(child, root);
  let root = structuredClone(document);
  const put = (pointer, value, mode) => {
    const path = tokens(pointer);
    if (path.length === 0) {
      if (mode !== "add") get(root, pointer); // replace: the root exists
      root = value;
      return;
    }
    const parent = path.slice(0, -1).reduce(child, root);
    const last = path.at(-1);
    if (Array.isArray(parent)) {
      const i = index(parent, last, mode === "add");
      if (mode === "add") parent.splice(i, 0, value);
      else if (mode === "replace") parent[i] = value;
      else parent.splice(i, 1);
    } else if (parent !== null && typeof parent === "object") {
      if (mode !== "add" && !Object.hasOwn(parent, last)) throw new Error(`no member ${JSON.stringify(last)}`);
      if (mode === "remove") delete parent[last];
      else parent[last] = value;
    } else {
      throw new Error(`the parent of ${pointer} is not a container`);
    }
  };
  for (const op of patch) {
    switch (op.op) {
      case "add":
      case "replace":
        put(op.path, structuredClone(op.value), op.op);
        break;
      case "remove":
        put(op.path, undefined, "remove");
        break;
      case "test":
        if (!isDeepStrictEqual(get(root, op.path), op.value)) throw new Error(`test failed at ${op.path}`);
        break;
      case "copy":
      case "move": {
        const value = structuredClone(get(root, op.from));
        if (op.op === "move") {
          if (op.path.startsWith(`${op.from}/`)) throw new Error(`cannot move ${op.from} into itself`);
          put(op.from, undefined, "remove");
        }
        put(op.path, value, "add");
        break;
      }
      default:
        throw new Error(`unknown op ${JSON.stringify(op.op)}`);
    }
  }
  return root;
}

/**
 * What two clients of one event stream hold: one that started from the state its request sent, one that started
 * from {}. Each applies every STATE_SNAPSHOT and STATE_DELTA; a delta that does not apply is a violation.
 */
class StateReplicas {
  constructor(where, sent) {
    this.where = where;
    this.held = { "the state it sent": sent ?? {}, "{}": {} };
  }

  apply(event) {
    for (const start of Object.keys(this.held)) {
      if (event.type === "STATE_SNAPSHOT") {
        this.held[start] = event.snapshot;
      } else if (event.type === "STATE_DELTA" && this.held[start] !== undefined) {
        try {
          this.held[start] = applyPatchStrictly(this.held[start], event.delta);
        } catch (error) {
          stateViolations.push({ where: this.where, from: start, holds: this.held[start], delta: event.delta, error: error.message });
          this.held[start] = undefined; // one violation per client and stream
        }
      }
    }
  }
}

/** Splits SSE bytes into frames as they arrive and validates each frame's data as one event. */
class FrameChecker {
  constructor(where, replicas) {
    this.where = where;
    this.replicas = replicas;
    this.decoder = new TextDecoder();
    this.pending = "";
  }

  push(bytes) {
    this.pending += this.decoder.decode(bytes, { stream: true }).replaceAll("\r\n", "\n");
    let end;
    while ((end = this.pending.indexOf("\n\n")) >= 0) {
      this.check(this.pending.slice(0, end));
      this.pending = this.pending.slice(end + 2);
    }
  }

  check(frame) {
    const data = frame.split("\n").filter((l) => l.startsWith("data:")).map((l) => l.slice(5).replace(/^ /, ""));
    if (data.length === 0) return; // a comment (keep-alive) or an id-only frame carries no event
    wire.frames++;
    let event;
    try {
      event = JSON.parse(data.join("\n"));
    } catch (error) {
      frameViolations.push({ where: this.where, frame, error: String(error) });
      return;
    }
    const checked = StrictEvent.safeParse(event);
    if (!checked.success) {
      frameViolations.push({ where: this.where, type: event?.type, issues: checked.error.issues, event });
    }
    this.replicas?.apply(event);
    if (event?.type === "MESSAGES_SNAPSHOT") {
      emptySnapshotted.push(...event.messages.filter(isEmptyMessage).map((message) => ({ where: this.where, message })));
    }
  }
}

const hasContent = (content) => (typeof content === "string" ? content.length > 0 : Array.isArray(content) && content.length > 0);

/**
 * A message that carries nothing: an assistant message without text or tool calls (a client never makes one, and
 * an LLM given one starts over instead of answering), or a user, system, developer or tool message without content.
 */
function isEmptyMessage(message) {
  switch (message.role) {
    case "assistant":
      return !hasContent(message.content) && !(message.toolCalls?.length > 0);
    case "user":
    case "system":
    case "developer":
    case "tool":
      return !hasContent(message.content);
    default:
      return false; // reasoning and activity messages carry what they carry
  }
}

/** The threads the test ran on: every run request's threadId, as the wire fetch saw it. */
const threadsRunOn = new Set();

/** The empty messages the server stores for the threads the test ran on (each thread read once). */
async function emptyStoredMessages() {
  const empty = [];
  for (const threadId of threadsRunOn) {
    const response = await fetch(`${SERVER_URL}/threads/${encodeURIComponent(threadId)}`);
    if (response.status === 404) continue; // never stored (refused, or a connect to a thread that is not there)
    assert.equal(response.status, 200, `GET /threads/${threadId}`);
    const { messages } = await response.json();
    empty.push(...messages.filter(isEmptyMessage).map((message) => ({ threadId, message })));
  }
  threadsRunOn.clear();
  return empty;
}

const API_KEY = process.env.AGUI_API_KEY;
const OTHER_API_KEY = process.env.AGUI_OTHER_API_KEY;

const wireFetch = globalThis.fetch;
globalThis.fetch = async (input, init) => {
  if (API_KEY) {
    // the suite's user, on every request that does not name another
    const headers = new Headers(init?.headers);
    if (!headers.has("Authorization")) headers.set("Authorization", `Bearer ${API_KEY}`);
    init = { ...init, headers };
  }
  const request = typeof init?.body === "string" && init.body.startsWith("{") ? JSON.parse(init.body) : undefined;
  if (typeof request?.threadId === "string") threadsRunOn.add(request.threadId);
  const response = await wireFetch(input, init);
  if (!response.body || !(response.headers.get("content-type") ?? "").startsWith("text/event-stream")) return response;
  const where = String(input?.url ?? input);
  // a resume goes on from its cursor: what its client holds is what the stream it lost left it
  const resumes = new Headers(init?.headers).has("Last-Event-ID");
  const checker = new FrameChecker(where, resumes ? undefined : new StateReplicas(where, request?.state));
  const reader = response.body.getReader();
  // One reader, passed through: a client that cancels its stream cancels the connection, as without the check.
  const body = new ReadableStream({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        checker.push(value);
        controller.enqueue(value);
      } catch (error) {
        controller.error(error);
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
};

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------
function newAgent(url = CHAT_URL) {
  return new HttpAgent({ url, threadId: randomUUID() });
}

function addUserMessage(agent, content) {
  agent.addMessage({ id: randomUUID(), role: "user", content });
}

/**
 * Runs the agent once and records everything: every event in order (onEvent),
 * onRunFailed errors, a rejected promise, the RUN_FINISHED subscriber params and
 * whatever the library printed with console.warn/console.error meanwhile.
 * `onEvent` (optional) is called with each event, e.g. to abort mid-run.
 */
async function runAndRecord(agent, params = {}, { onEvent } = {}) {
  const rec = {
    threadId: agent.threadId,
    runId: params.runId ?? randomUUID(),
    events: [],
    failures: [],
    console: [],
    finished: undefined,
    error: undefined,
  };
  sinks.add(rec.console);
  try {
    rec.result = await agent.runAgent(
      { tools: [], context: [], forwardedProps: {}, ...params, runId: rec.runId },
      {
        onEvent: ({ event }) => {
          rec.events.push(event);
          onEvent?.(event);
        },
        onRunFailed: ({ error }) => {
          rec.failures.push(error);
        },
        onRunFinishedEvent: ({ outcome, pendingToolCallIds }) => {
          rec.finished = { outcome, pendingToolCallIds };
        },
      },
    );
  } catch (error) {
    rec.error = error;
  } finally {
    sinks.delete(rec.console);
  }
  return rec;
}

const ofType = (rec, type) => rec.events.filter((e) => e.type === type);
const indexOfType = (rec, type, from = 0) => rec.events.findIndex((e, i) => i >= from && e.type === type);
const lastIndexOfType = (rec, type) => rec.events.findLastIndex((e) => e.type === type);

/** Every threadId/runId an event carries must be the request's (RUN_STARTED.input too). */
function assertIdsEcho(rec) {
  for (const event of rec.events) {
    for (const carrier of [event, event.input].filter(Boolean)) {
      if ("threadId" in carrier) assert.equal(carrier.threadId, rec.threadId, `${event.type}.threadId`);
      if ("runId" in carrier) assert.equal(carrier.runId, rec.runId, `${event.type}.runId`);
    }
  }
}

/** The run succeeded in every way the client can tell, and was well-formed. */
function assertCleanRun(rec) {
  assert.equal(rec.error, undefined, `runAgent rejected: ${rec.error?.stack ?? rec.error}`);
  assert.deepEqual(rec.failures.map(String), [], "onRunFailed was called");
  assert.deepEqual(ofType(rec, "RUN_ERROR"), [], "RUN_ERROR received");
  assert.deepEqual(rec.console, [], "the client printed console.warn/console.error");
  assert.ok(rec.events.length >= 2, "expected at least RUN_STARTED and RUN_FINISHED");
  assert.equal(rec.events[0].type, "RUN_STARTED", "first event");
  if (CLIENT_IS_1_0) {
    assert.equal(rec.events[0].protocolVersion, "1.0", "RUN_STARTED states the producer's AG-UI version");
  }
  assert.equal(rec.events.at(-1).type, "RUN_FINISHED", "last event");
  assert.equal(ofType(rec, "RUN_STARTED").length, 1, "exactly one RUN_STARTED");
  assert.equal(ofType(rec, "RUN_FINISHED").length, 1, "exactly one RUN_FINISHED");
  const outcome = rec.events.at(-1).outcome;
  if (outcome !== undefined) assert.equal(outcome.type, "success", "RUN_FINISHED.outcome");
  assertIdsEcho(rec);
}

/** Exactly the text messages of the run, each START < CONTENT... < END, returned as {id, text}. */
function textMessages(rec) {
  const starts = ofType(rec, "TEXT_MESSAGE_START");
  return starts.map((start) => {
    const id = start.messageId;
    const startIdx = rec.events.indexOf(start);
    const mine = rec.events.filter((e) => e.type.startsWith("TEXT_MESSAGE_") && e.messageId === id);
    const endIdx = rec.events.findIndex((e) => e.type === "TEXT_MESSAGE_END" && e.messageId === id);
    assert.ok(endIdx > startIdx, `TEXT_MESSAGE_END after START for ${id}`);
    const contents = mine.filter((e) => e.type === "TEXT_MESSAGE_CONTENT");
    assert.ok(contents.length >= 1, `at least one TEXT_MESSAGE_CONTENT for ${id}`);
    for (const c of contents) {
      const i = rec.events.indexOf(c);
      assert.ok(startIdx < i && i < endIdx, `TEXT_MESSAGE_CONTENT between START and END for ${id}`);
    }
    return { id, role: start.role ?? "assistant", start: startIdx, end: endIdx, text: contents.map((c) => c.delta).join("") };
  });
}

/** Tool calls of the run: {id, name, parentMessageId, args (parsed), start, end}. */
function toolCalls(rec) {
  return ofType(rec, "TOOL_CALL_START").map((start) => {
    const id = start.toolCallId;
    const startIdx = rec.events.indexOf(start);
    const args = ofType(rec, "TOOL_CALL_ARGS").filter((e) => e.toolCallId === id);
    const endIdx = rec.events.findIndex((e) => e.type === "TOOL_CALL_END" && e.toolCallId === id);
    assert.ok(endIdx > startIdx, `TOOL_CALL_END after START for ${id}`);
    for (const a of args) {
      const i = rec.events.indexOf(a);
      assert.ok(startIdx < i && i < endIdx, `TOOL_CALL_ARGS between START and END for ${id}`);
    }
    const json = args.map((a) => a.delta).join("");
    let parsed;
    assert.doesNotThrow(() => (parsed = JSON.parse(json)), `tool call args are JSON: ${json}`);
    return { id, name: start.toolCallName, parentMessageId: start.parentMessageId, args: parsed, start: startIdx, end: endIdx };
  });
}

/** RUN_FINISHED names the calls left pending to a 1.0 client; before 1.0 the outcome cannot say it. */
function assertPendingOnWire(rec, ids, what) {
  const expected = CLIENT_IS_1_0 ? { type: "success", pendingToolCallIds: ids } : { type: "success" };
  assert.deepEqual(rec.events.at(-1).outcome, expected, what);
}

const isAssistantText = (m) => m.role === "assistant" && typeof m.content === "string" && m.content.length > 0;

// ---------------------------------------------------------------------------
// Scenarios
// ---------------------------------------------------------------------------
test("plain chat: one streamed assistant text message, no tool calls", TIMEOUT, async () => {
  const agent = newAgent();
  addUserMessage(agent, "Hello there");
  const rec = await runAndRecord(agent);

  assertCleanRun(rec);
  const texts = textMessages(rec);
  assert.equal(texts.length, 1, "one text message");
  assert.equal(texts[0].role, "assistant");
  assert.ok(texts[0].text.length > 0, "non-empty reply");
  assert.deepEqual(ofType(rec, "TOOL_CALL_START"), [], "no tool calls");

  assert.equal(agent.messages.length, 2, JSON.stringify(agent.messages));
  assert.deepEqual(
    { role: agent.messages[0].role, content: agent.messages[0].content },
    { role: "user", content: "Hello there" },
  );
  assert.equal(agent.messages[1].id, texts[0].id);
  assert.ok(isAssistantText(agent.messages[1]), JSON.stringify(agent.messages[1]));
  assert.equal(agent.messages[1].content, texts[0].text);
});

test("the wire check reads every frame and fails what strict 1.0 refuses", TIMEOUT, async () => {
  const before = wire.frames;
  const agent = newAgent();
  addUserMessage(agent, "Hello there");
  const rec = await runAndRecord(agent);
  assertCleanRun(rec);
  assert.equal(wire.frames - before, rec.events.length, "one checked frame per event the client applied");

  const started = { type: "RUN_STARTED", threadId: "t", runId: "r" };
  assert.ok(StrictEvent.safeParse({ ...started, metadata: { trace: "x" } }).success, "extensions ride in metadata");
  assert.ok(!StrictEvent.safeParse({ ...started, traceId: "x" }).success, "an unknown field fails");
  const snapshot = { type: "MESSAGES_SNAPSHOT", messages: [{ id: "m", role: "user", content: "hi", extra: 1 }] };
  assert.ok(!StrictEvent.safeParse(snapshot).success, "an unknown field fails inside a message too");
});

test("the state replay's JSON Patch applies what RFC 6902 allows and refuses the rest", TIMEOUT, async () => {
  const doc = { a: { "b/c": [1, 2], "d~e": "x" }, list: [] };
  assert.deepEqual(applyPatchStrictly(doc, [
    { op: "add", path: "/a/b~1c/-", value: 3 },
    { op: "add", path: "/a/b~1c/0", value: 0 },
    { op: "replace", path: "/a/d~0e", value: "y" },
    { op: "add", path: "/a/d~0e", value: "z" }, // add replaces an existing member
    { op: "test", path: "/a/d~0e", value: "z" },
    { op: "copy", from: "/a/b~1c", path: "/list/0" },
    { op: "move", from: "/a/d~0e", path: "/moved" },
    { op: "remove", path: "/a/b~1c/3" },
  ]), { a: { "b/c": [0, 1, 2] }, list: [[0, 1, 2, 3]], moved: "z" });
  assert.deepEqual(doc, { a: { "b/c": [1, 2], "d~e": "x" }, list: [] }, "the document itself is left as it was");
  for (const refused of [
    { op: "replace", path: "/recipe", value: {} }, // the server's old first delta on a client that started from {}
    { op: "remove", path: "/missing" },
    { op: "add", path: "/missing/child", value: 1 },
    { op: "add", path: "/list/1", value: 1 },
    { op: "replace", path: "/list/0", value: 1 },
    { op: "add", path: "/a/b~1c/01", value: 1 },
    { op: "add", path: "/a/~2", value: 1 },
    { op: "add", path: "a", value: 1 },
    { op: "test", path: "/list", value: [1] },
    { op: "move", from: "/a", path: "/a/inner" },
    { op: "increment", path: "/list" },
  ]) {
    assert.throws(() => applyPatchStrictly(doc, [refused]), undefined, JSON.stringify(refused));
  }
});

test("the chat agent is also reachable at /agui/chat", TIMEOUT, async () => {
  const agent = newAgent(`${SERVER_URL}/agui/chat`);
  addUserMessage(agent, "Hello there");
  const rec = await runAndRecord(agent);
  assertCleanRun(rec);
  assert.equal(textMessages(rec).length, 1);
  assert.ok(isAssistantText(agent.messages.at(-1)));
});

test("backend tool: get_weather is called, answered and summarised in one run", TIMEOUT, async () => {
  const agent = newAgent();
  addUserMessage(agent, "What's the weather in Paris?");
  const rec = await runAndRecord(agent);
  assertCleanRun(rec);

  const calls = toolCalls(rec);
  assert.equal(calls.length, 1, "one tool call");
  const [call] = calls;
  assert.equal(call.name, "get_weather");
  assert.equal(typeof call.parentMessageId, "string", "TOOL_CALL_START.parentMessageId");
  assert.ok(call.parentMessageId.length > 0);
  assert.deepEqual(call.args, { location: "Paris" });

  const results = ofType(rec, "TOOL_CALL_RESULT");
  assert.equal(results.length, 1, "one TOOL_CALL_RESULT");
  const [result] = results;
  assert.equal(result.toolCallId, call.id);
  assert.equal(typeof result.content, "string");
  assert.doesNotThrow(() => JSON.parse(result.content), `result is JSON text: ${result.content}`);
  assert.match(result.content, /Paris/);
  const resultIdx = rec.events.indexOf(result);
  assert.ok(resultIdx > call.end, "TOOL_CALL_RESULT after TOOL_CALL_END");

  const summaries = textMessages(rec).filter((t) => t.start > resultIdx);
  assert.equal(summaries.length, 1, "one assistant text message after the tool result");
  assert.ok(summaries[0].text.length > 0);

  // agent.messages: user, assistant with the tool call, tool result, assistant summary.
  const msgs = agent.messages;
  const callMsgIdx = msgs.findIndex(
    (m) => m.role === "assistant" && m.toolCalls?.some((tc) => tc.id === call.id),
  );
  assert.ok(callMsgIdx >= 0, `assistant message with the tool call: ${JSON.stringify(msgs)}`);
  assert.equal(msgs[callMsgIdx].id, call.parentMessageId);
  const tc = msgs[callMsgIdx].toolCalls.find((t) => t.id === call.id);
  assert.equal(tc.type, "function");
  assert.equal(tc.function.name, "get_weather");
  assert.deepEqual(JSON.parse(tc.function.arguments), { location: "Paris" });
  const toolMsgIdx = msgs.findIndex((m) => m.role === "tool" && m.toolCallId === call.id);
  assert.ok(toolMsgIdx > callMsgIdx, "tool message after the assistant tool call");
  assert.equal(msgs[toolMsgIdx].id, result.messageId);
  assert.equal(msgs[toolMsgIdx].content, result.content);
  assert.ok(msgs.slice(toolMsgIdx + 1).some(isAssistantText), "assistant text after the tool message");
  assert.ok(isAssistantText(msgs.at(-1)), "the run ends with the assistant summary");
});

test("tool progress: ACTIVITY_SNAPSHOT, then ACTIVITY_DELTAs the client applies, before the result; kept for a reload", TIMEOUT, async () => {
  const url = `${SERVER_URL}/agui/tasks`;
  const agent = new HttpAgent({ url, threadId: randomUUID() });
  addUserMessage(agent, "Research the history of cake");
  const rec = await runAndRecord(agent);
  assertCleanRun(rec);

  const [call] = toolCalls(rec);
  assert.equal(call.name, "research");
  const snapshots = ofType(rec, "ACTIVITY_SNAPSHOT");
  assert.equal(snapshots.length, 1, "one activity message, made once");
  const [snapshot] = snapshots;
  assert.equal(snapshot.activityType, "tool-progress");
  const deltas = ofType(rec, "ACTIVITY_DELTA");
  assert.ok(deltas.length >= 1, "the progress moved");
  const resultIdx = indexOfType(rec, "TOOL_CALL_RESULT");
  assert.ok(rec.events.indexOf(snapshot) > call.end, "shown while the call runs");
  assert.ok(lastIndexOfType(rec, "ACTIVITY_DELTA") < resultIdx, "every change before the result");
  let content = snapshot.content;
  for (const delta of deltas) {
    assert.equal(delta.messageId, snapshot.messageId);
    content = applyPatchStrictly(content, delta.patch);
  }
  assert.deepEqual(content, { fraction: 1, message: "Read source 5 of 5" });
  const held = agent.messages.find((m) => m.role === "activity");
  assert.equal(held?.id, snapshot.messageId, `the client holds the activity: ${JSON.stringify(agent.messages)}`);
  assert.deepEqual(held.content, content, "and applied every delta");

  const reloaded = new HttpAgent({ url, threadId: agent.threadId });
  const restated = await runAndRecord(reloaded);
  assertCleanRun(restated);
  assert.deepEqual(reloaded.messages.find((m) => m.role === "activity")?.content, content, "a reload gets it back");

  // the next run: a 1.0 client leaves activity messages out of what it sends, an older one may send them back
  addUserMessage(agent, "Thanks");
  const next = await runAndRecord(agent);
  assertCleanRun(next);
  assert.deepEqual(ofType(next, "MESSAGES_SNAPSHOT"), [], "the client holds the thread, its activity included");
});

test("sub-agents: the researcher's run streams attributed inside the supervisor's call; kept for a reload", TIMEOUT, async () => {
  const url = `${SERVER_URL}/agui/supervisor`;
  const agent = new HttpAgent({ url, threadId: randomUUID() });
  addUserMessage(agent, "Ask the researcher about otters");
  const rec = await runAndRecord(agent);
  assertCleanRun(rec);

  const [call] = toolCalls(rec);
  assert.equal(call.name, "researcher");
  assert.equal(call.args.task, "otters", "the demo model's task is the topic");
  const [result] = ofType(rec, "TOOL_CALL_RESULT");
  assert.equal(result.toolCallId, call.id);
  const [answer, summary] = textMessages(rec);
  assert.ok(call.end < answer.start && answer.end < rec.events.indexOf(result), "the researcher speaks within the call");
  assert.equal(result.content, answer.text, "its answer is the call's result");
  assert.ok(rec.events.indexOf(result) < summary.start, "then the supervisor sums up");
  if (!CLIENT_IS_1_0) {
    assert.deepEqual(rec.events.filter((e) => e.type.startsWith("SUBAGENT_")), [], "0.0.59 is sent no SUBAGENT event");
    return;
  }
  const [started] = ofType(rec, "SUBAGENT_STARTED");
  const [finished] = ofType(rec, "SUBAGENT_FINISHED");
  assert.equal(started.name, "researcher");
  assert.equal(started.parentToolCallId, call.id);
  const id = started.subagentRunId;
  assert.equal(finished.subagentRunId, id);
  assert.equal(finished.result, answer.text);
  const within = rec.events.slice(rec.events.indexOf(started) + 1, rec.events.indexOf(finished));
  assert.ok(within.length >= 3 && within.every((e) => e.subagentRunId === id), "the researcher's events are its own");
  assert.ok(rec.events.indexOf(finished) < rec.events.indexOf(result));
  assert.equal(result.subagentRunId, undefined, "the call is the supervisor's");
  assert.equal(agent.messages.find((m) => m.id === answer.id)?.subagentRunId, id, "the client holds it attributed");

  const reloaded = new HttpAgent({ url, threadId: agent.threadId });
  assertCleanRun(await runAndRecord(reloaded));
  assert.deepEqual(reloaded.messages.find((m) => m.id === answer.id), agent.messages.find((m) => m.id === answer.id),
    "a reload gets it back as the client had it");

  addUserMessage(agent, "Thanks");
  const next = await runAndRecord(agent);
  assertCleanRun(next);
  assert.deepEqual(ofType(next, "MESSAGES_SNAPSHOT"), [], "the client holds the thread, the researcher's message included");
});

const CHANGE_BACKGROUND = {
  name: "change_background",
  description: "Change the page background colour",
  parameters: {
    type: "object",
    properties: { background: { type: "string", description: "CSS colour" } },
    required: ["background"],
  },
};

test("frontend tool: change_background is left to the client, then answered in a second run", TIMEOUT, async () => {
  const agent = newAgent();
  addUserMessage(agent, "Please change the background to blue");

  // Run 1: the model calls the frontend tool and the run finishes without a result.
  const run1 = await runAndRecord(agent, { tools: [CHANGE_BACKGROUND] });
  assertCleanRun(run1);
  const calls = toolCalls(run1);
  assert.equal(calls.length, 1, "one tool call");
  const [call] = calls;
  assert.equal(call.name, "change_background");
  assert.equal(typeof call.args, "object");
  assert.equal(typeof call.args.background, "string", JSON.stringify(call.args));
  assert.deepEqual(ofType(run1, "TOOL_CALL_RESULT"), [], "no TOOL_CALL_RESULT for a frontend tool");
  assert.equal(run1.finished?.outcome, "success");
  // 0.0.59 does not tell its subscribers which calls are pending
  assert.deepEqual(run1.finished.pendingToolCallIds, CLIENT_IS_1_0 ? [call.id] : undefined, "the tool call is left pending");
  // the client would infer the list from the stream when absent: the server names it on the wire itself
  assertPendingOnWire(run1, [call.id], "RUN_FINISHED.outcome.pendingToolCallIds");
  const callMsg = agent.messages.find((m) => m.role === "assistant" && m.toolCalls?.some((t) => t.id === call.id));
  assert.ok(callMsg, `assistant message with the tool call: ${JSON.stringify(agent.messages)}`);

  // The frontend executes the tool and reports back.
  agent.addMessage({ id: randomUUID(), role: "tool", toolCallId: call.id, content: "Background changed to blue" });

  // Run 2: same thread, new run, same tools: the model answers in text.
  const run2 = await runAndRecord(agent, { tools: [CHANGE_BACKGROUND] });
  assertCleanRun(run2);
  assert.notEqual(run2.runId, run1.runId);
  assert.equal(run2.threadId, run1.threadId);
  assert.deepEqual(ofType(run2, "TOOL_CALL_START"), [], "no tool call in run 2");
  const texts = textMessages(run2);
  assert.equal(texts.length, 1, "one text message in run 2");
  assert.ok(texts[0].text.length > 0);
  assert.deepEqual(
    agent.messages.map((m) => m.role),
    ["user", "assistant", "tool", "assistant"],
    JSON.stringify(agent.messages),
  );
  assert.ok(isAssistantText(agent.messages.at(-1)));
});

test("a frontend tool on a page that also offers confirm_changes: nothing is added after the call", TIMEOUT, async () => {
  // CopilotKit offers a page's actions to every agent, confirm_changes too (issue 25)
  const tools = [CHANGE_BACKGROUND, { name: "confirm_changes", description: "Ask the user to confirm", parameters: { type: "object", properties: {} } }];
  const agent = newAgent();
  addUserMessage(agent, "Please change the background to blue");
  const run1 = await runAndRecord(agent, { tools });
  assertCleanRun(run1);
  const [call] = toolCalls(run1);
  assert.equal(call.name, "change_background");
  assertPendingOnWire(run1, [call.id], "only the frontend call is left to the client");
  const stored = await (await fetch(`${SERVER_URL}/threads/${agent.threadId}`)).json();
  assert.deepEqual(stored.messages.map((m) => m.id), agent.messages.map((m) => m.id), "stored = what the client holds");

  agent.addMessage({ id: randomUUID(), role: "tool", toolCallId: call.id, content: "Background changed to blue" });
  const run2 = await runAndRecord(agent, { tools });
  assertCleanRun(run2);
  assert.deepEqual(ofType(run2, "MESSAGES_SNAPSHOT"), [], "the client holds the conversation: nothing to restate");
  assert.match(textMessages(run2)[0]?.text ?? "", /^Done: change_background/, "the model answers the tool's result");
  assert.deepEqual(agent.messages.map((m) => m.role), ["user", "assistant", "tool", "assistant"]);
});

test("a frontend tool answers with content parts (AG-UI 1.0): accepted, kept as sent, restated to a new client", TIMEOUT, async () => {
  const agent = newAgent();
  addUserMessage(agent, "Please change the background to blue");
  const run1 = await runAndRecord(agent, { tools: [CHANGE_BACKGROUND] });
  assertCleanRun(run1);
  const [call] = toolCalls(run1);
  const parts = [
    { type: "text", text: "Background changed to blue", id: "part-1", metadata: { by: "test" } },
    { type: "image", source: { type: "data", value: "iVBORw0KGgo=", mimeType: "image/png" } },
    { type: "document", source: { type: "url", value: "https://example.com/report.pdf", mimeType: "application/pdf" } },
  ];
  const toolMessageId = randomUUID();
  agent.addMessage({ id: toolMessageId, role: "tool", toolCallId: call.id, content: parts });
  assertCleanRun(await runAndRecord(agent, { tools: [CHANGE_BACKGROUND] }));

  // a client holding nothing gets the conversation restated, the tool message exactly as it was sent (to a
  // client before 1.0, whose tool messages hold a string, as the text of its text parts)
  const light = new HttpAgent({ url: CHAT_URL, threadId: agent.threadId });
  addUserMessage(light, "Thanks");
  assertCleanRun(await runAndRecord(light));
  assert.deepEqual(light.messages.find((m) => m.id === toolMessageId)?.content,
    CLIENT_IS_1_0 ? parts : "Background changed to blue", JSON.stringify(light.messages));
});

test("a client that sends only its new message continues the stored conversation", TIMEOUT, async () => {
  const first = newAgent();
  addUserMessage(first, "My name is Alice");
  const run1 = await runAndRecord(first);
  assertCleanRun(run1);

  // A second client on the same thread that holds nothing but the message it sends.
  const light = new HttpAgent({ url: CHAT_URL, threadId: first.threadId });
  addUserMessage(light, "What is my name?");
  const asked = light.messages[0].id;
  const run2 = await runAndRecord(light);
  assertCleanRun(run2);

  assert.ok(ofType(run2, "MESSAGES_SNAPSHOT").length >= 1, "the server restates the conversation the client lacks");
  assert.ok(lastIndexOfType(run2, "MESSAGES_SNAPSHOT") < indexOfType(run2, "TEXT_MESSAGE_START"), "before the answer");
  assert.deepEqual(
    light.messages.map((m) => m.id).slice(0, 3),
    [...first.messages.map((m) => m.id), asked],
    `the client holds the whole conversation, in order: ${JSON.stringify(light.messages)}`,
  );
  assert.deepEqual(light.messages.map((m) => m.role), ["user", "assistant", "user", "assistant"]);
  const stored = await (await fetch(`${SERVER_URL}/threads/${first.threadId}`)).json();
  assert.deepEqual(stored.messages.map((m) => m.id), light.messages.map((m) => m.id), "stored = what the client holds");
});

test("20 concurrent runs on 20 threads all succeed independently", TIMEOUT, async () => {
  const agents = Array.from({ length: 20 }, () => newAgent());
  for (const agent of agents) addUserMessage(agent, "Hello there");
  const recs = await Promise.all(agents.map((agent) => runAndRecord(agent)));

  assert.equal(new Set(agents.map((a) => a.threadId)).size, 20);
  const replyIds = new Set();
  recs.forEach((rec, i) => {
    assertCleanRun(rec);
    assert.equal(rec.threadId, agents[i].threadId);
    const texts = textMessages(rec);
    assert.equal(texts.length, 1, `agent ${i}: one text message`);
    const msgs = agents[i].messages;
    assert.deepEqual(msgs.map((m) => m.role), ["user", "assistant"], `agent ${i}: ${JSON.stringify(msgs)}`);
    assert.equal(msgs[1].id, texts[0].id);
    assert.ok(isAssistantText(msgs[1]));
    replyIds.add(msgs[1].id);
  });
  assert.equal(replyIds.size, 20, "every agent got its own reply message");
});

test("abort mid-run stops the stream; the same agent then runs normally", TIMEOUT, async () => {
  const agent = newAgent();
  addUserMessage(agent, "Tell me a long story");
  let aborted = false;
  const rec = await runAndRecord(agent, {}, {
    onEvent: (event) => {
      if (event.type === "TEXT_MESSAGE_CONTENT" && !aborted) {
        aborted = true;
        agent.abortRun();
      }
    },
  });

  // @ag-ui/client 1.0.0 reports an abort as a synthesized RUN_ERROR with code
  // "abort" (the AbortError itself is swallowed): the promise resolves, no
  // onRunFailed, no console output. That error, and only that one, is expected.
  assert.ok(aborted, "received a TEXT_MESSAGE_CONTENT to abort on");
  assert.equal(rec.error, undefined, `runAgent rejected: ${rec.error?.stack ?? rec.error}`);
  assert.deepEqual(rec.failures.map(String), [], "onRunFailed was called");
  assert.deepEqual(rec.console, [], "the client printed console.warn/console.error");
  assert.equal(rec.events[0].type, "RUN_STARTED");
  const errors = ofType(rec, "RUN_ERROR");
  assert.equal(errors.length, 1, "one RUN_ERROR");
  assert.equal(errors[0].code, "abort", `RUN_ERROR: ${JSON.stringify(errors[0])}`);
  assert.equal(rec.events.at(-1), errors[0], "the abort RUN_ERROR is the last event");
  assert.deepEqual(ofType(rec, "RUN_FINISHED"), [], "no RUN_FINISHED after the abort");
  assert.deepEqual(ofType(rec, "TEXT_MESSAGE_END"), [], "the story was cut before it ended");
  assertIdsEcho(rec);
  const abortedChunks = ofType(rec, "TEXT_MESSAGE_CONTENT").length;

  // The same agent (same thread) can run again right away.
  addUserMessage(agent, "Hello there");
  const next = await runAndRecord(agent);
  assertCleanRun(next);
  assert.equal(textMessages(next).length, 1);
  assert.ok(isAssistantText(agent.messages.at(-1)));

  // For comparison, the full story on a fresh thread: the aborted run really stopped early.
  const fullAgent = newAgent();
  addUserMessage(fullAgent, "Tell me a long story");
  const full = await runAndRecord(fullAgent);
  assertCleanRun(full);
  const fullChunks = ofType(full, "TEXT_MESSAGE_CONTENT").length;
  assert.ok(
    abortedChunks < fullChunks,
    `aborted run got ${abortedChunks} content events, a full run ${fullChunks}`,
  );
});

const STRICT_CAPABILITIES = deepStrict(AgentCapabilitiesSchema);

test("GET /agui/{agent}/capabilities fits AG-UI 1.0's AgentCapabilities, strictly, and GET /agui/agents carries it", TIMEOUT, async () => {
  const get = async (path) => {
    const response = await fetch(`${SERVER_URL}${path}`, { headers: { Accept: "application/json" } });
    assert.equal(response.status, 200, path);
    return response.json();
  };
  const listed = (await get("/agui/agents")).agents;
  assert.ok(listed.length >= 4, "the sample agents");
  for (const { name, capabilities } of listed) {
    const own = await get(`/agui/${name}/capabilities`);
    assert.deepEqual(STRICT_CAPABILITIES.parse(own), own, `${name}: parsed as sent`);
    assert.deepEqual(capabilities, own, `${name}: the list carries the same object`);
  }

  const chat = await get("/agui/chat/capabilities");
  assert.equal(chat.identity.name, "chat");
  assert.deepEqual(chat.tools.items.map((t) => t.name), ["get_weather"]);
  assert.deepEqual(chat.tools.items[0].parameters.required, ["location"]);
  assert.equal(chat.tools.clientProvided, true, "change_background and friends are the page's");
  assert.equal(chat.reasoning.supported, false, "the scripted demo model never reasons");
  assert.equal(chat.transport.resumable, true);
  const recipe = await get("/agui/recipe/capabilities");
  assert.deepEqual(recipe.custom.predictiveState, [{ stateKey: "recipe", tool: "update_recipe", toolArgument: "recipe" }]);
  assert.equal(recipe.custom.stateSchema.properties.recipe.type, "object");
  const document = await get("/agui/document/capabilities");
  assert.equal(document.humanInTheLoop.interrupts, true, "document asks before writing (the samples' default)");

  // the strict schema can fail: an unknown field is refused, not stripped
  assert.throws(() => STRICT_CAPABILITIES.parse({ ...chat, transport: { ...chat.transport, sse: true } }));
  assert.throws(() => STRICT_CAPABILITIES.parse({ ...chat, protocolVersion: "1.0" }));
});

test("GET /agui/{agent}/capabilities of an unknown agent: 404 unknown_agent", TIMEOUT, async () => {
  const response = await fetch(`${SERVER_URL}/agui/nobody/capabilities`);
  assert.equal(response.status, 404);
  assert.equal((await response.json()).code, "unknown_agent");
});

test("GET /agui/agents lists the chat agent with its get_weather tool", TIMEOUT, async () => {
  const response = await fetch(`${SERVER_URL}/agui/agents`, { headers: { Accept: "application/json" } });
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type") ?? "", /application\/json/);
  const body = await response.json();

  // Accept either a bare array or {agents: [...]}, or {agents: {name: {...}}}.
  const list = Array.isArray(body) ? body : body.agents;
  assert.ok(list && typeof list === "object", `agents listing: ${JSON.stringify(body)}`);
  const agents = Array.isArray(list) ? list : Object.entries(list).map(([name, a]) => ({ name, ...a }));
  const chat = agents.find((a) => (a.name ?? a.id ?? a.agentId) === "chat");
  assert.ok(chat, `agent "chat" listed: ${JSON.stringify(body)}`);
  const toolNames = (chat.tools ?? []).map((t) => (typeof t === "string" ? t : t.name));
  assert.ok(toolNames.includes("get_weather"), `chat tools: ${JSON.stringify(chat.tools)}`);
});

// ---------------------------------------------------------------------------
// Shared state: the client's own agent.state follows the server's deltas and snapshots
// ---------------------------------------------------------------------------
test("shared state: the client's state equals the last snapshot, and a second run keeps the user's edits", TIMEOUT, async () => {
  const agent = new HttpAgent({ url: `${SERVER_URL}/agui/recipe`, threadId: randomUUID(), initialState: {} });
  addUserMessage(agent, "Make me a pasta recipe");
  const first = await runAndRecord(agent);

  assertCleanRun(first);
  const predict = ofType(first, "CUSTOM").find((e) => e.name === "PredictState");
  assert.ok(predict, "PredictState announces the prediction");
  assert.deepEqual(predict.value, [{ state_key: "recipe", tool: "update_recipe", tool_argument: "recipe" }]);
  assert.ok(ofType(first, "STATE_DELTA").length >= 3, "the recipe card fills in over several deltas");
  const snapshots = ofType(first, "STATE_SNAPSHOT");
  assert.ok(snapshots.length >= 1, "an authoritative snapshot follows the tool");
  assert.deepEqual(agent.state, snapshots.at(-1).snapshot, "the client's own state is the last snapshot");
  assert.equal(agent.state.recipe.title, "Tomato Basil Pasta");

  // The user edits the card; the next run sends that state and the server keeps it.
  const edited = structuredClone(agent.state);
  edited.recipe.title = "Grandma's pasta";
  edited.recipe.ingredients.push({ icon: "🌶️", name: "Chili flakes", amount: "1 pinch" });
  agent.setState(edited);
  addUserMessage(agent, "Thanks!");
  const second = await runAndRecord(agent);

  assertCleanRun(second);
  assert.deepEqual(ofType(second, "STATE_SNAPSHOT"), [], "no snapshot: the client already holds the state");
  assert.deepEqual(agent.state, edited, "what the server did not change is kept");
});

test("shared state: an edit of the recipe the client holds streams as deltas every client applies", TIMEOUT, async () => {
  const agent = new HttpAgent({ url: `${SERVER_URL}/agui/recipe`, threadId: randomUUID(), initialState: {} });
  addUserMessage(agent, "Make me a pasta recipe");
  assertCleanRun(await runAndRecord(agent));
  const before = structuredClone(agent.state);
  assert.ok(before.recipe, "the first run made a recipe");

  addUserMessage(agent, "Make it vegan");
  const edit = await runAndRecord(agent);

  assertCleanRun(edit);
  const firstDelta = indexOfType(edit, "STATE_DELTA");
  assert.ok(firstDelta > 0, "the edit streams as deltas");
  // a client that plays the deltas onto {} (CopilotKit's Node runtime) lacks the recipe the deltas change: it gets
  // the state they apply to first (the suite replays every stream from {} as well)
  assert.equal(edit.events[firstDelta - 1].type, "STATE_SNAPSHOT", "a snapshot right before the first delta");
  assert.deepEqual(edit.events[firstDelta - 1].snapshot, before, "of the state the client holds");
  assert.ok(agent.state.recipe.special_preferences.includes("Vegan"), JSON.stringify(agent.state.recipe));
  assert.deepEqual(agent.state, ofType(edit, "STATE_SNAPSHOT").at(-1).snapshot, "the client ends at the authoritative state");
});

// ---- human confirmation (the document sample asks before it writes, by default) ---------------------------

const OLD_DRAFT = "An old draft.";

/** A document run that stops to ask: the proposal shows, the client holds one pending interrupt. */
async function proposeDocument(params = {}) {
  const agent = new HttpAgent({ url: `${SERVER_URL}/agui/document`, threadId: randomUUID(), initialState: { document: OLD_DRAFT } });
  addUserMessage(agent, "Write a document about the sea");
  const first = await runAndRecord(agent, params);
  assert.equal(first.error, undefined, `runAgent rejected: ${first.error?.stack ?? first.error}`);
  assert.deepEqual(first.console, [], "the client printed console.warn/console.error");
  assert.deepEqual(ofType(first, "RUN_ERROR"), [], "RUN_ERROR received");
  assertIdsEcho(first);
  assert.ok(ofType(first, "STATE_DELTA").length >= 2, "the proposal streams into the document");
  assert.notEqual(agent.state.document, OLD_DRAFT, "the client shows the proposal while it asks");
  return { agent, first, proposal: agent.state.document };
}

/** The tool message the client holds for the write_document call, after the answer. */
function documentResult(agent) {
  const call = agent.messages.flatMap((m) => m.toolCalls ?? []).find((c) => c.function.name === "write_document");
  assert.ok(call, "the write_document call is in the client's history");
  return agent.messages.find((m) => m.role === "tool" && m.toolCallId === call.id);
}

for (const approved of [true, false]) {
  test(`confirmation, interrupt form: ${approved ? "approve" : "reject"} over two runs`, TIMEOUT, async () => {
    const { agent, first, proposal } = await proposeDocument();
    assert.equal(first.finished?.outcome, "interrupt", "the run ends asking");
    assert.equal(agent.pendingInterrupts.length, 1);
    const [interrupt] = agent.pendingInterrupts;
    assert.equal(interrupt.reason, "tool_call");
    assert.ok(interrupt.message.length > 0, "the interrupt says what it asks");
    assert.equal(documentResult(agent), undefined, "the tool has not run");

    const second = await runAndRecord(agent, {
      resume: [{ interruptId: interrupt.id, status: "resolved", payload: { approved } }],
    });

    assertCleanRun(second);
    assert.deepEqual(agent.pendingInterrupts, [], "nothing is pending any more");
    assert.deepEqual(ofType(second, "TOOL_CALL_START"), [], "the call is not repeated");
    assert.equal(ofType(second, "STATE_SNAPSHOT").length, 1, "one authoritative snapshot");
    assert.equal(agent.state.document, approved ? proposal : OLD_DRAFT,
      approved ? "the approved document stays" : "the old draft comes back");
    assert.ok(documentResult(agent), "the call has its result in the client's history");
    assert.ok(textMessages(second).length >= 1, "the agent sums up");
  });
}

test("confirmation, confirm_changes form: the client answers the tool call in the next run", TIMEOUT, async () => {
  const confirmTool = { name: "confirm_changes", description: "Ask the user to confirm the changes", parameters: { type: "object", properties: {} } };
  const { agent, first, proposal } = await proposeDocument({ tools: [confirmTool] });
  assertCleanRun(first);
  const confirm = toolCalls(first).find((c) => c.name === "confirm_changes");
  assert.ok(confirm, "the server calls confirm_changes");
  assert.deepEqual(agent.pendingInterrupts, [], "this form leaves no interrupt pending");
  assertPendingOnWire(first, [confirm.id], "the confirm_changes call is pending");

  agent.addMessage({ id: randomUUID(), role: "tool", toolCallId: confirm.id, content: JSON.stringify({ accepted: true }) });
  const second = await runAndRecord(agent, { tools: [confirmTool] });

  assertCleanRun(second);
  assert.equal(agent.state.document, proposal);
  assert.ok(documentResult(agent), "the write_document call has its result");
});

// ---- runs that outlive their connection (docs/reconnect.md) --------------------------------------------------

const STORY = "Tell me a long story";

/** The story on a fresh chat thread, read by the official client without interruption. */
async function uninterruptedStory() {
  const agent = newAgent();
  addUserMessage(agent, STORY);
  assertCleanRun(await runAndRecord(agent));
  return agent.messages.at(-1).content;
}

/** Starts the story on a new chat thread, going on without its connection; resolves once text is streaming. */
async function startStory() {
  const agent = newAgent();
  addUserMessage(agent, STORY);
  let streaming;
  const started = new Promise((resolve) => (streaming = resolve));
  const done = runAndRecord(agent, { forwardedProps: { onDisconnect: "continue" } }, {
    onEvent: (event) => event.type === "TEXT_MESSAGE_CONTENT" && streaming(),
  });
  await started;
  return { agent, done };
}

/** The SSE frames of a response as {id, event}. */
async function frames(response) {
  const text = await response.text();
  return text.split("\n\n").filter((f) => f.trim() !== "").map((frame) => {
    const lines = frame.split("\n");
    const id = lines.find((l) => l.startsWith("id:"))?.slice(3).trim();
    const data = lines.filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trim()).join("\n");
    return { id, event: JSON.parse(data) };
  });
}

test("every frame of a run carries id: <run>.<seq>, 1, 2, … in order", TIMEOUT, async () => {
  const runId = randomUUID();
  const response = await fetch(CHAT_URL, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "text/event-stream" },
    body: JSON.stringify({ threadId: randomUUID(), runId, state: {}, tools: [], context: [], forwardedProps: {},
      messages: [{ id: randomUUID(), role: "user", content: "Hello there" }] }),
  });
  const all = await frames(response);
  assert.ok(all.length >= 4, `a few frames: ${all.length}`);
  const run = all[0].id.slice(0, all[0].id.indexOf(".") + 1); // the run, named by its claim's ordinal
  assert.match(run, /^[0-9a-z]+\.$/, `a compact cursor: ${all[0].id}`);
  assert.deepEqual(all.map((f) => f.id), all.map((_, i) => `${run}${i + 1}`));
  assert.equal(all.at(-1).event.type, "RUN_FINISHED");
  // The client reading the same kind of run stays quiet: every test above reads frames with ids.
});

test("join without a cursor: a plain HttpAgent on /connect follows the live run to its end", TIMEOUT, async () => {
  const { agent: starter, done } = await startStory();
  const joiner = new HttpAgent({ url: `${SERVER_URL}/agui/chat/connect`, threadId: starter.threadId });
  const joined = await runAndRecord(joiner);
  const started = await done;

  assertCleanRun(started);
  assert.equal(joined.error, undefined, `runAgent rejected: ${joined.error?.stack ?? joined.error}`);
  assert.deepEqual(joined.failures.map(String), [], "onRunFailed was called");
  assert.deepEqual(joined.console, [], "the client printed console.warn/console.error");
  assert.deepEqual(ofType(joined, "RUN_ERROR"), [], "RUN_ERROR received");
  assert.equal(joined.events[0].type, "RUN_STARTED");
  assert.equal(joined.events[0].runId, started.runId, "the prelude starts the live run");
  assert.equal(ofType(joined, "MESSAGES_SNAPSHOT").length, 1, "the prelude restates what is complete");
  const story = started.events.find((e) => e.type === "TEXT_MESSAGE_START").messageId;
  const reopened = indexOfType(joined, "TEXT_MESSAGE_START");
  assert.equal(joined.events[reopened].messageId, story, "the open message is re-opened");
  assert.equal(joined.events.at(-1).type, "RUN_FINISHED");
  assert.deepEqual(
    joiner.messages.map((m) => [m.id, m.role, m.content]),
    starter.messages.map((m) => [m.id, m.role, m.content]),
    "the joiner ends with what the starter has",
  );
});

/**
 * Connects a plain HttpAgent to the thread and checks that what it got is the thread restated empty, as for a thread
 * nobody started: RUN_STARTED and RUN_FINISHED naming the thread and the connection's run, no messages, a client that
 * accepts it all quietly. `headers` are the connecting user's.
 */
async function assertConnectRestatesNothing(threadId, headers = {}) {
  const agent = new HttpAgent({ url: `${SERVER_URL}/agui/chat/connect`, threadId, headers });
  const rec = await runAndRecord(agent);
  assertCleanRun(rec);
  assert.equal(rec.events[0].threadId, threadId, "RUN_STARTED names the thread");
  assert.equal(rec.events.at(-1).threadId, threadId, "RUN_FINISHED names the thread");
  assert.deepEqual(ofType(rec, "MESSAGES_SNAPSHOT").map((e) => e.messages), [[]], "nothing is stored for this user");
  assert.deepEqual(agent.messages, []);
}

test("connect to a thread nobody started: the thread restated empty, which the client accepts", TIMEOUT, async () => {
  await assertConnectRestatesNothing(randomUUID());
});

test("connect to a deleted thread: restated empty, as one nobody started", TIMEOUT, async () => {
  const agent = newAgent();
  addUserMessage(agent, "Hello there");
  assertCleanRun(await runAndRecord(agent));
  const deleted = await fetch(`${SERVER_URL}/threads/${agent.threadId}`, { method: "DELETE" });
  assert.equal(deleted.status, 204);

  await assertConnectRestatesNothing(agent.threadId);
});

test("connect to another user's live run: restated empty, as a thread nobody started; their stop stops nothing",
  { ...TIMEOUT, skip: OTHER_API_KEY ? false : "needs a server with two users (AGUI_API_KEY, AGUI_OTHER_API_KEY)" },
  async () => {
    const { agent, done } = await startStory();
    const other = { Authorization: `Bearer ${OTHER_API_KEY}` };

    await assertConnectRestatesNothing(agent.threadId, other);
    const stop = await fetch(`${SERVER_URL}/agui/chat/stop/${agent.threadId}`, { method: "POST", headers: other });
    assert.deepEqual(await stop.json(), { stopped: false });

    const rec = await done;
    assertCleanRun(rec);
    assert.equal(textMessages(rec).length, 1, "the owner's run told its whole story");
  });

test("Stop: the run ends RUN_FINISHED cancelled (RUN_ERROR cancelled before 1.0), which the client accepts quietly", TIMEOUT, async () => {
  const { agent, done } = await startStory();
  const response = await fetch(`${SERVER_URL}/agui/chat/stop/${agent.threadId}`, { method: "POST" });
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { stopped: true });
  const rec = await done;

  assert.equal(rec.error, undefined, `runAgent rejected: ${rec.error?.stack ?? rec.error}`);
  assert.deepEqual(rec.failures.map(String), [], "onRunFailed was called");
  assert.deepEqual(rec.console, [], "the client printed console.warn/console.error");
  if (CLIENT_IS_1_0) {
    assert.deepEqual(ofType(rec, "RUN_ERROR"), []);
    assert.deepEqual(rec.events.at(-1).outcome, { type: "cancelled" });
    assert.equal(rec.finished?.outcome, "cancelled");
  } else {
    // no cancelled outcome before 1.0: the one terminal event that says the run did not finish
    assert.equal(ofType(rec, "RUN_FINISHED").length, 0);
    assert.deepEqual(rec.events.at(-1), { type: "RUN_ERROR", message: "The run was stopped.", code: "cancelled" });
  }
  const again = await fetch(`${SERVER_URL}/agui/chat/stop/${agent.threadId}`, { method: "POST" });
  assert.deepEqual(await again.json(), { stopped: false }, "nothing is live any more");
});

/** The sample UI's ReconnectingAgent (TypeScript), compiled for Node next to the packages it imports. */
async function reconnectingAgent() {
  const { transformWithEsbuild } = await import("vite");
  const source = new URL("../src/reconnecting-agent.ts", import.meta.url);
  const { code } = await transformWithEsbuild(await readFile(source, "utf8"), "reconnecting-agent.ts", { format: "esm" });
  const built = new URL("../node_modules/.cache/agui-test/reconnecting-agent.mjs", import.meta.url);
  await mkdir(new URL(".", built), { recursive: true });
  // written aside, then renamed into place: the suite for the other client may be importing it at this moment
  const written = new URL(`reconnecting-agent.mjs.${process.pid}`, built);
  await writeFile(written, code);
  await rename(written, built);
  return (await import(built.href)).ReconnectingAgent;
}

/**
 * A fetch whose first run response is cut after `bytes` bytes, as a dropped network cuts it (mid-frame); it
 * records every request's path and Last-Event-ID.
 */
function droppingFetch(bytes) {
  const requests = [];
  let dropped = false;
  const dropping = async (url, init) => {
    requests.push({ path: new URL(url).pathname, cursor: new Headers(init.headers).get("Last-Event-ID") });
    const response = await fetch(url, init);
    if (dropped || !response.ok) return response;
    dropped = true;
    const reader = response.body.getReader();
    let passed = 0;
    const body = new ReadableStream({
      async pull(controller) {
        const { done, value } = await reader.read();
        if (done) return controller.close();
        if (passed + value.length < bytes) {
          passed += value.length;
          return controller.enqueue(value);
        }
        controller.enqueue(value.subarray(0, bytes - passed));
        await reader.cancel();
        controller.error(new TypeError("network error"));
      },
    });
    return new Response(body, { status: response.status, headers: response.headers });
  };
  return { fetch: dropping, requests };
}

test("a network drop mid-run: ReconnectingAgent resumes from its cursor and ends as an uninterrupted run", TIMEOUT, async () => {
  const ReconnectingAgent = await reconnectingAgent();
  const expected = await uninterruptedStory();
  const { fetch: dropping, requests } = droppingFetch(2500);
  const agent = new ReconnectingAgent({ url: `${SERVER_URL}/agui/chat`, threadId: randomUUID(), fetch: dropping });
  addUserMessage(agent, STORY);
  const rec = await runAndRecord(agent);

  assertCleanRun(rec);
  assert.deepEqual(requests.map((r) => r.path), ["/agui/chat", "/agui/chat/connect"], "one run, one resume");
  assert.match(requests[1].cursor, /^[0-9a-z]+\.\d+$/, "the resume sends the last id read");
  const [text] = textMessages(rec);
  assert.equal(text.text, expected, "every piece of the answer once, in order");
  assert.equal(agent.messages.at(-1).content, expected);
  const stored = await (await fetch(`${SERVER_URL}/threads/${agent.threadId}`)).json();
  assert.equal(stored.messages.at(-1).content, expected, "the run went on while the client was away");
});
