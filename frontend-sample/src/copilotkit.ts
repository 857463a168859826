import "./style.css";
import { CopilotKitCore } from "@copilotkit/core";
import { z } from "zod";
import { fill, h, newId } from "./dom";

/**
 * The CopilotKit mode of the sample: CopilotKit's own client (`@copilotkit/core`, no React) with its runtimeUrl
 * pointed at this server's `/copilotkit`. It discovers the agents there, runs them, shows their shared state as
 * CopilotKit holds it, offers a frontend tool (`change_background`) that CopilotKit runs, stops runs, and reconnects
 * to the thread the URL names (?agent=…&thread=…) after a reload.
 */
const core = new CopilotKitCore({ runtimeUrl: "/copilotkit" });
core.addTool({
  name: "change_background",
  description: "Change the page background colour",
  parameters: z.object({ background: z.string().describe("CSS colour") }),
  handler: async ({ background }: { background: string }) => {
    document.body.style.background = background;
    return `Background changed to ${background}`;
  },
});

const app = document.getElementById("app")!;
let error = "";
core.subscribe({ onError: ({ error: failure }) => void ((error = String(failure?.message ?? failure)), render()) });

type Agent = NonNullable<ReturnType<CopilotKitCore["getAgent"]>>;
let agent: Agent | undefined;
let running = false;
/** Runs this page has seen end (the page shows it as data-runs, for tests). */
let runs = 0;

async function show(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const name = params.get("agent") ?? "chat";
  agent = core.getAgent(name);
  if (!agent) {
    error = `There is no agent named '${name}' at /copilotkit.`;
    layout();
    return render();
  }
  agent.threadId = params.get("thread") ?? newId();
  history.replaceState(null, "", `?${new URLSearchParams({ agent: name, thread: agent.threadId })}`);
  agent.subscribe({ onMessagesChanged: render, onStateChanged: render });
  layout();
  render();
  if (params.has("thread")) await core.connectAgent({ agent });
  app.dataset.connected = "true";
}

async function send(text: string): Promise<void> {
  if (!agent || !text.trim() || running) return;
  agent.addMessage({ id: newId(), role: "user", content: text });
  running = true;
  render();
  try {
    await core.runAgent({ agent });
  } finally {
    running = false;
    runs++;
    render();
  }
}

function messageView(message: Agent["messages"][number]): HTMLElement | null {
  if (message.role === "user" || (message.role === "assistant" && message.content)) {
    return h("div", { class: `msg ${message.role}` }, h("p", {}, String(message.content)));
  }
  if (message.role === "assistant") {
    const calls = message.toolCalls ?? [];
    return h("div", { class: "msg assistant tool" }, ...calls.map((c) => h("p", {}, `→ ${c.function.name}(${c.function.arguments})`)));
  }
  return message.role === "tool" ? h("div", { class: "msg assistant tool" }, h("p", {}, `← ${String(message.content)}`)) : null;
}

const log = h("div", { class: "log", attrs: { role: "log", "aria-label": "Conversation" } });
const errorLine = h("div", { class: "error", attrs: { role: "alert" } });
const stateView = h("pre", { id: "agent-state" });
const sendButton = h("button", { type: "submit", class: "primary" }, "Send");

/** The page's frame, built once so that what the user is typing survives the updates. */
function layout(): void {
  const input = h("textarea", { id: "composer-input", rows: 2, placeholder: "Ask the agent…" });
  const picker = h(
    "select",
    { id: "agent-picker", on: { change: () => (location.search = `?${new URLSearchParams({ agent: picker.value })}`) } },
    ...Object.keys(core.agents).map((name) => h("option", { value: name, selected: name === agent?.agentId }, name)),
  );
  const submit = (e: Event) => {
    e.preventDefault();
    void send(input.value);
    input.value = "";
  };
  fill(
    app,
    h(
      "header",
      { class: "topbar" },
      h("h1", {}, "CopilotKit client"),
      h("div", { class: "field inline" }, h("label", { htmlFor: "agent-picker" }, "Agent"), picker),
      h("span", { class: "thread-id" }, agent?.threadId ? `thread ${agent.threadId.slice(0, 8)}` : ""),
      h("a", { href: "./" }, "AG-UI sample"),
    ),
    agent && h("p", { class: "agent-description" }, agent.description ?? ""),
    h(
      "main",
      { class: "layout" },
      h(
        "section",
        { class: "panel chat" },
        h("h2", {}, "Conversation"),
        log,
        errorLine,
        h(
          "form",
          { class: "composer", on: { submit } },
          h("label", { htmlFor: "composer-input", class: "visually-hidden" }, "Message"),
          input,
          h(
            "div",
            { class: "composer-actions" },
            h("button", { type: "button", on: { click: () => agent && core.stopAgent({ agent }) } }, "Stop"),
            sendButton,
          ),
        ),
      ),
      h("section", { class: "panel" }, h("h2", {}, "State"), stateView),
    ),
  );
}

function render(): void {
  fill(log, ...(agent?.messages ?? []).map(messageView));
  errorLine.textContent = error;
  stateView.textContent = JSON.stringify(agent?.state ?? {}, null, 2);
  sendButton.disabled = running;
  app.dataset.runs = String(runs);
}

core.subscribe({
  onRuntimeConnectionStatusChanged: ({ status }) => {
    if (status === "connected" && !agent) void show();
    if (status === "error") fill(app, h("p", { class: "error fatal", attrs: { role: "alert" } }, "Cannot reach /copilotkit/info"));
  },
});
