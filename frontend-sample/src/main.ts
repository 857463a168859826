import "./style.css";
import { authHeaders } from "./auth";
import { ChatPanel } from "./chat";
import { DecisionPanel } from "./decision";
import { DocumentView } from "./document";
import { fill, h, newId } from "./dom";
import { RecipeView } from "./recipe";
import { RunEventsView } from "./run-events";
import { Session } from "./session";
import { StateTreeView } from "./state-tree";
import suggestionsJson from "./suggestions.json?raw";
import { TasksView } from "./tasks";

interface AgentInfo {
  name: string;
  description: string;
  isDefault: boolean;
  hasState: boolean;
}

interface AgentsList {
  agents: AgentInfo[];
  model: { kind: string; model?: string };
}

/**
 * Each sample agent's view. What to ask each agent is in suggestions.json, in the order a newcomer would click
 * through it; the scripted demo model does something visible with every one (SampleSuggestionsTest runs them).
 */
const VIEWS: Record<string, (s: Session) => { root: HTMLElement; render(): void }> = {
  recipe: (s) => new RecipeView(s),
  document: (s) => new DocumentView(s),
  tasks: (s) => new TasksView(s),
};
const SUGGESTIONS = JSON.parse(suggestionsJson) as Record<string, string[]>;

const app = document.getElementById("app")!;
let agents: AgentsList;
let current: Session | undefined;

async function main(): Promise<void> {
  try {
    const response = await fetch("agui/agents", { headers: { ...authHeaders(), Accept: "application/json" } });
    if (!response.ok) throw new Error(`GET /agui/agents: HTTP ${response.status}`);
    agents = (await response.json()) as AgentsList;
    await show();
  } catch (error) {
    fill(app, h("p", { class: "error fatal", attrs: { role: "alert" } }, `Cannot reach the AG-UI server: ${String(error)}`));
  }
  window.addEventListener("popstate", () => void show());
}

/**
 * Shows the thread the URL names (?agent=…&thread=…), starting a new one when it names none, and follows the run
 * that may be going on in it (a reload mid-run). An agent the server does not have is said so, not replaced.
 */
async function show(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const fallback = agents.agents.find((a) => a.isDefault)?.name ?? agents.agents[0]?.name ?? "chat";
  const wanted = params.get("agent") ?? fallback;
  const threadId = params.get("thread");
  current?.detach();
  current = threadId ? await Session.open(threadId, wanted) : new Session(wanted, newId());
  const session = current;
  if (!agents.agents.some((a) => a.name === session.agentName)) {
    renderUnknownAgent(session.agentName);
    return;
  }
  history.replaceState(null, "", threadUrl(session.agentName, session.threadId));
  render(session);
  if (session.mayBeLive) void session.join();
}

function threadUrl(agent: string, threadId: string): string {
  return `?${new URLSearchParams({ agent, thread: threadId })}`;
}

function startThread(agent: string): void {
  history.pushState(null, "", `?${new URLSearchParams({ agent })}`);
  void show();
}

/** The URL names an agent the server does not have: say so, and offer the ones it has. */
function renderUnknownAgent(name: string): void {
  fill(
    app,
    h("header", { class: "topbar" }, h("h1", {}, "AG-UI shared state")),
    h(
      "section",
      { class: "panel unknown-agent" },
      h("p", { class: "error", attrs: { role: "alert" } }, `There is no agent named '${name}' on this server.`),
      h("p", {}, "Start a thread with one of its agents:"),
      h(
        "ul",
        {},
        ...agents.agents.map((a) =>
          h("li", {}, h("a", { href: `?${new URLSearchParams({ agent: a.name })}` }, a.name), ` — ${a.description}`),
        ),
      ),
    ),
  );
}

function render(session: Session): void {
  const info = agents.agents.find((a) => a.name === session.agentName);
  const picker = h(
    "select",
    { id: "agent-picker", on: { change: () => startThread(picker.value) } },
    ...agents.agents.map((a) => h("option", { value: a.name, selected: a.name === session.agentName }, a.name)),
  );
  const chat = new ChatPanel(session, SUGGESTIONS[session.agentName] ?? []);
  const decision = new DecisionPanel(session);
  // An agent without a card of its own gets its state as a live tree, and the run's events beside it.
  const card = VIEWS[session.agentName]?.(session);
  const views = card ? [card] : [...(info?.hasState === false ? [] : [new StateTreeView(session)]), new RunEventsView(session)];
  const demo = agents.model.kind === "scripted-demo";

  fill(
    app,
    h(
      "header",
      { class: "topbar" },
      h("h1", {}, "AG-UI shared state"),
      h("div", { class: "field inline" }, h("label", { htmlFor: "agent-picker" }, "Agent"), picker),
      h("button", { type: "button", id: "new-thread", on: { click: () => startThread(session.agentName) } }, "New thread"),
      h("span", { class: "thread-id", title: "Thread id (kept in the URL: reload to resume)" }, `thread ${session.threadId.slice(0, 8)}`),
      h(
        "span",
        { class: `model ${demo ? "demo" : ""}` },
        demo ? "Scripted demo model (no LLM configured)" : `Model: ${agents.model.model ?? agents.model.kind}`,
      ),
      h("a", { href: "copilotkit.html" }, "CopilotKit client"),
    ),
    info && h("p", { class: "agent-description" }, info.description),
    h("main", { class: "layout" }, chat.root, h("div", { class: "state-column" }, decision.root, ...views.map((v) => v.root))),
  );
  const update = () => {
    chat.render();
    decision.render();
    for (const v of views) v.render();
  };
  session.onChange(update);
  update();
  chat.focus();
}

void main();
