// Joins the live run of a thread through POST /agui/{agent}/connect with a plain @ag-ui/client HttpAgent, as a
// page that knows nothing of cursors would: it runs the agent at the connect URL and takes what comes. Driven by
// the replica tests (ReplicasContract), which check what it writes to RESULT_FILE:
//   { events, messages, state, error, failures, console }
// events: every event the client accepted, in order; messages/state: the agent's after the run; error: a
// rejected runAgent; failures: onRunFailed errors; console: what the library printed with console.warn/error.
//
// JOINED_FILE, when set, is created at the first event: how a test knows the client is in before it lets the run end.
//
//   AGUI_SERVER_URL=http://127.0.0.1:8080 AGENT=document THREAD_ID=... RESULT_FILE=/tmp/join.json \
//     node drivers/join-run.mjs

import { writeFileSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { HttpAgent } from "@ag-ui/client";

const SERVER_URL = (process.env.AGUI_SERVER_URL ?? "http://127.0.0.1:8080").replace(/\/+$/, "");
const { AGENT, THREAD_ID, RESULT_FILE, JOINED_FILE } = process.env;
if (!AGENT || !THREAD_ID || !RESULT_FILE) {
  throw new Error("AGENT, THREAD_ID and RESULT_FILE must be set");
}

// The client can be told to keep quiet about what it strips; we want to hear it.
delete process.env.SUPPRESS_TRANSFORMATION_WARNINGS;
const printed = [];
for (const level of ["warn", "error"]) {
  const original = console[level].bind(console);
  console[level] = (...args) => {
    printed.push({ level, text: args.map(String).join(" ") });
    original(...args);
  };
}

const agent = new HttpAgent({ url: `${SERVER_URL}/agui/${AGENT}/connect`, threadId: THREAD_ID });
const result = { events: [], failures: [], console: printed };
try {
  await agent.runAgent(
    { runId: randomUUID(), tools: [], context: [], forwardedProps: {} },
    {
      onEvent: ({ event }) => {
        if (JOINED_FILE && result.events.length === 0) {
          writeFileSync(JOINED_FILE, event.type);
        }
        result.events.push(event);
      },
      onRunFailed: ({ error }) => {
        result.failures.push(String(error));
      },
    },
  );
} catch (error) {
  result.error = String(error?.stack ?? error);
}
result.messages = agent.messages;
result.state = agent.state;
writeFileSync(RESULT_FILE, JSON.stringify(result));
