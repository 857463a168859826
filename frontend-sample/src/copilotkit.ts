import "./style.css";
import { CopilotKitCore } from "@copilotkit/core";
import { z } from "zod";
import { fill, h, newId } from "./dom";

/**
 * The CopilotKit mode of the sample: CopilotKit's own client (`@copilotkit/core`, no React) with its runtimeUrl
 * pointed at this server's `copilotkit`, beside the page. It discovers the agents there, runs them, shows their shared
 * state as CopilotKit holds it, offers a frontend tool (`change_background`) that CopilotKit runs, stops runs, and reconnects
 * to the thread the URL names (?agent=…&thread=…) after a reload.
 */
// Beside the page, which is served at agui.http.root: CopilotKit's endpoints at their default base path under it.
const core = new CopilotKitCore({ runtimeUrl: new URL("copilotkit", document.baseURI).href });
core.addTool({
  name: "change_background",
  description: "Change the page background colour",
  parameters: z.object({ background: z.string().describe("CSS colour") }),
  handler: async ({ background }: { background: string }) => {
    paintBackground(background);
    return `Background changed to ${background}`;
  },
});

/**
 * The whole page takes the colour (the root element's background, not just the app's box), and the text that sits
 * on it directly turns black or white, whichever reads on that colour.
 */
function paintBackground(colour: string): void {
  const probe = h("span", { attrs: { style: `color: ${colour}` } });
  document.body.append(probe);
  const [r, g, b] = (getComputedStyle(probe).color.match(/[\d.]+/g) ?? ["0", "0", "0"]).map(Number);
  probe.remove();
  const root = document.documentElement.style;
  root.setProperty("--bg", colour);
  root.setProperty("--on-bg", luminance(r, g, b) > 0.18 ? "#1b1f24" : "#ffffff");
}

/** WCAG relative luminance of an sRGB colour (0 black, 1 white). */
function luminance(r: number, g: number, b: number): number {
  const linear = (c: number) => (c / 255 <= 0.03928 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

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
const errorLine = h("div", { class: "error", attrs: { role: "alert" }, hidden: true });
const stateView = h("pre", { id: "agent-state" });
const sendButton = h("button", { type: "submit", class: "primary" }, "Send");
const stopButton = h("button", { type: "button", hidden: true, on: { click: () => agent && core.stopAgent({ agent }) } }, "Stop");

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
            stopButton,
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
  errorLine.hidden = error === "";
  stateView.textContent = JSON.stringify(agent?.state ?? {}, null, 2);
  sendButton.disabled = running;
  stopButton.hidden = !running;
  app.dataset.runs = String(runs);
}

core.subscribe({
  onRuntimeConnectionStatusChanged: ({ status }) => {
    if (status === "connected" && !agent) void show();
    if (status === "error") fill(app, h("p", { class: "error fatal", attrs: { role: "alert" } }, "Cannot reach /copilotkit/info"));
  },
});
