import type { Message, ToolCall } from "@ag-ui/client";
import { fill, h } from "./dom";
import type { Session } from "./session";

/**
 * The conversation: streaming assistant text, tool calls as they are written (name, arguments, result), the
 * activities backend tools show while they run (a progress bar for `tool-progress`), errors, and the composer. Messages are keyed by id and only the ones that changed are rebuilt, so streaming one long
 * answer does not redraw the whole log.
 */
export class ChatPanel {
  readonly root: HTMLElement;
  private readonly log: HTMLElement;
  private readonly error: HTMLElement;
  private readonly status: HTMLElement;
  private readonly input: HTMLTextAreaElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly stopButton: HTMLButtonElement;
  private readonly suggestions: HTMLElement;
  private readonly rendered = new Map<string, { key: string; el: HTMLElement }>();

  constructor(private readonly session: Session, suggestions: string[]) {
    this.log = h("div", { class: "log", attrs: { role: "log", "aria-live": "polite", "aria-label": "Conversation" } });
    this.error = h("div", { class: "error", attrs: { role: "alert" } });
    this.status = h("p", { class: "run-status", attrs: { role: "status" } });
    this.input = h("textarea", {
      id: "composer-input",
      rows: 2,
      placeholder: "Ask the agent…",
      on: { keydown: (e) => this.onKey(e as KeyboardEvent) },
    });
    this.sendButton = h("button", { type: "submit", class: "primary" }, "Send");
    this.stopButton = h("button", { type: "button", on: { click: () => void session.stop() } }, "Stop");
    this.suggestions = h(
      "div",
      { class: "suggestions", attrs: { "aria-label": "Suggestions" } },
      ...suggestions.map((text) =>
        h("button", { type: "button", class: "chip", on: { click: () => void this.submit(text) } }, text),
      ),
    );
    const form = h(
      "form",
      { class: "composer", on: { submit: (e) => (e.preventDefault(), void this.submit(this.input.value)) } },
      h("label", { htmlFor: "composer-input", class: "visually-hidden" }, "Message"),
      this.input,
      h("div", { class: "composer-actions" }, this.stopButton, this.sendButton),
    );
    this.root = h(
      "section",
      { class: "panel chat", attrs: { "aria-labelledby": "chat-heading" } },
      h("h2", { id: "chat-heading" }, "Conversation"),
      this.log,
      this.status,
      this.error,
      this.suggestions,
      form,
    );
  }

  render(): void {
    const { session } = this;
    const results = new Map<string, string>();
    for (const m of session.messages) {
      if (m.role === "tool") results.set(m.toolCallId, typeof m.content === "string" ? m.content : "");
    }
    const visible = session.messages.filter((m) => m.role === "user" || m.role === "assistant" || m.role === "activity");
    const stuckToBottom = this.log.scrollHeight - this.log.scrollTop - this.log.clientHeight < 40;
    const ids = new Set(visible.map((m) => m.id));
    for (const [id, { el }] of this.rendered) {
      if (!ids.has(id)) {
        el.remove();
        this.rendered.delete(id);
      }
    }
    let previous: Element | null = null;
    for (const message of visible) {
      const key = JSON.stringify([message, toolResults(message, results), session.running, rejectedCalls(message, session)]);
      let entry = this.rendered.get(message.id);
      if (!entry || entry.key !== key) {
        const el = renderMessage(message, results, session);
        entry?.el.replaceWith(el);
        entry = { key, el };
        this.rendered.set(message.id, entry);
      }
      const expectedPosition: ChildNode | null = previous ? previous.nextSibling : this.log.firstChild;
      if (expectedPosition !== entry.el) this.log.insertBefore(entry.el, expectedPosition);
      previous = entry.el;
    }
    if (visible.length === 0 && !this.log.querySelector(".empty")) {
      this.log.append(h("p", { class: "empty" }, "No messages yet. Type below or pick a suggestion."));
    } else if (visible.length > 0) {
      this.log.querySelector(".empty")?.remove();
    }
    if (stuckToBottom) this.log.scrollTop = this.log.scrollHeight;

    this.root.setAttribute("aria-busy", String(session.running));
    this.root.dataset.runs = String(session.finishedRuns);
    fill(this.error, session.error && h("p", {}, h("strong", {}, "Error: "), session.error));
    this.error.hidden = session.error === undefined;
    this.status.textContent = session.stopped ? "Stopped." : "";
    this.status.hidden = !session.stopped;
    this.sendButton.disabled = session.running;
    this.stopButton.hidden = !session.running;
    this.stopButton.disabled = session.stopping;
    for (const chip of this.suggestions.querySelectorAll("button")) chip.disabled = session.running;
  }

  focus(): void {
    this.input.focus();
  }

  private onKey(event: KeyboardEvent): void {
    if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      void this.submit(this.input.value);
    }
  }

  private async submit(text: string): Promise<void> {
    if (this.session.running || text.trim() === "") return;
    this.input.value = "";
    await this.session.send(text);
  }
}

function toolResults(message: Message, results: Map<string, string>): (string | undefined)[] {
  return message.role === "assistant" ? (message.toolCalls ?? []).map((c) => results.get(c.id)) : [];
}

function rejectedCalls(message: Message, session: Session): string[] {
  return message.role === "assistant" ? (message.toolCalls ?? []).map((c) => c.id).filter((id) => session.isRejected(id)) : [];
}

function renderMessage(message: Message, results: Map<string, string>, session: Session): HTMLElement {
  const text = typeof message.content === "string" ? message.content : "";
  if (message.role === "user") {
    return h("article", { class: "msg user", attrs: { "aria-label": "Your message" } }, h("p", {}, text));
  }
  if (message.role === "activity") return renderActivity(message);
  const calls = message.role === "assistant" ? (message.toolCalls ?? []) : [];
  // a sub-agent's message (AG-UI 1.0's subagentRunId) is labelled with its author, not the page's agent
  const subagent = message.subagentRunId === undefined ? undefined : session.subagentName(message.subagentRunId);
  return h(
    "article",
    subagent === undefined
      ? { class: "msg assistant", attrs: { "aria-label": "Agent's message" } }
      : { class: "msg assistant subagent", attrs: { "aria-label": `${subagent}'s message`, "data-subagent": subagent } },
    subagent && h("p", { class: "subagent-name" }, subagent),
    ...calls.map((call) => renderToolCall(call, results.get(call.id), session)),
    text && h("p", {}, text),
  );
}

/**
 * An activity a backend tool shows while it runs (ACTIVITY_SNAPSHOT, then ACTIVITY_DELTAs the client applies): a
 * progress bar with the tool's message for `tool-progress`, the content as JSON for any other type.
 */
function renderActivity(message: Extract<Message, { role: "activity" }>): HTMLElement {
  const content = message.content as { fraction?: number; message?: string };
  const body =
    message.activityType === "tool-progress"
      ? [
          h("progress", { max: 1, ...(typeof content.fraction === "number" ? { value: content.fraction } : {}),
            attrs: { "aria-label": content.message ?? "Progress" } }),
          h("span", { class: "activity-text" }, content.message ?? ""),
        ]
      : [h("pre", {}, JSON.stringify(message.content, null, 2))];
  return h("div", { class: "msg activity", attrs: { "data-activity": message.activityType, role: "status" } }, ...body);
}

/** A call's status: a rejected proposal has a result too (what the agent was told), but it did not happen. */
function renderToolCall(call: ToolCall, result: string | undefined, session: Session): HTMLElement {
  const answered = result === undefined ? undefined : session.isRejected(call.id) ? "rejected" : "done";
  const status = answered ?? (session.running ? "running…" : "waiting");
  return h(
    "details",
    { class: "tool-call", attrs: { "data-tool": call.function.name } },
    h(
      "summary",
      {},
      h("span", { attrs: { "aria-hidden": "true" } }, "🔧 "),
      h("code", {}, call.function.name),
      h("span", { class: `tool-status ${answered ?? ""}` }, ` ${status}`),
    ),
    h("div", { class: "tool-label" }, "Arguments"),
    h("pre", {}, call.function.arguments || "…"),
    result !== undefined && h("div", { class: "tool-label" }, "Result"),
    result !== undefined && h("pre", {}, result),
  );
}
