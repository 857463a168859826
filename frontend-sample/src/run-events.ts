import type { BaseEvent } from "@ag-ui/client";
import { fill, h } from "./dom";
import type { Session } from "./session";

/** One line of the events list: an event, or a run of streaming chunks of the same kind folded into one. */
export interface EventLine {
  type: string;
  detail: string;
  count: number;
}

/** Streaming chunks: consecutive ones of a kind fold into one line, their text joined. */
const CHUNKS = new Set(["TEXT_MESSAGE_CONTENT", "TOOL_CALL_ARGS", "REASONING_MESSAGE_CONTENT"]);
const MAX_LINES = 300;
const MAX_DETAIL = 160;

/** Adds an event to the lines of the run, folding streaming chunks; the oldest lines go past {@link MAX_LINES}. */
export function addEvent(lines: EventLine[], event: BaseEvent): void {
  const type = String(event.type);
  const detail = describe(event);
  const last = lines.at(-1);
  if (last && last.type === type && CHUNKS.has(type)) {
    last.count++;
    last.detail = clip(last.detail + detail);
    return;
  }
  lines.push({ type, detail: clip(detail), count: 1 });
  if (lines.length > MAX_LINES) lines.splice(0, lines.length - MAX_LINES);
}

/** What is worth reading of an event, on one line. */
function describe(event: BaseEvent): string {
  const e = event as Record<string, unknown>;
  switch (event.type) {
    case "TEXT_MESSAGE_CONTENT":
    case "TOOL_CALL_ARGS":
    case "REASONING_MESSAGE_CONTENT":
      return String(e.delta ?? "");
    case "TOOL_CALL_START":
      return String(e.toolCallName ?? "");
    case "TOOL_CALL_RESULT":
      return String(e.content ?? "");
    case "STATE_DELTA":
      return (e.delta as { op: string; path: string }[]).map((op) => `${op.op} ${op.path}`).join(", ");
    case "STATE_SNAPSHOT":
      return JSON.stringify(e.snapshot);
    case "MESSAGES_SNAPSHOT":
      return `${(e.messages as unknown[]).length} messages`;
    case "CUSTOM":
      return String(e.name ?? "");
    case "RUN_FINISHED":
      return JSON.stringify(e.outcome ?? { type: "success" });
    case "RUN_ERROR":
      return `${String(e.code ?? "")} ${String(e.message ?? "")}`.trim();
    default:
      return "";
  }
}

function clip(text: string): string {
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL - 1)}…` : text;
}

/** The events of the latest run as they arrive: what the page is told, in order, for any agent. */
export class RunEventsView {
  readonly root: HTMLElement;
  private readonly list: HTMLOListElement;
  private renderedKey = "";

  constructor(private readonly session: Session) {
    this.list = h("ol", { class: "run-events", attrs: { "aria-label": "Events of the latest run" } });
    this.root = h(
      "section",
      { id: "events-view", class: "panel", attrs: { "aria-labelledby": "events-heading" } },
      h("h2", { id: "events-heading" }, "Run events"),
      this.list,
    );
  }

  render(): void {
    const lines = this.session.events;
    const last = lines.at(-1);
    const key = `${lines.length}:${last?.count}:${last?.detail}`;
    if (key === this.renderedKey) return;
    this.renderedKey = key;
    const stuckToBottom = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 40;
    fill(
      this.list,
      ...lines.map((line) =>
        h(
          "li",
          { attrs: { "data-type": line.type } },
          h("code", {}, line.type),
          line.count > 1 && h("span", { class: "event-count" }, ` ×${line.count}`),
          line.detail && h("span", { class: "event-detail" }, ` ${line.detail}`),
        ),
      ),
    );
    if (lines.length === 0) this.list.append(h("li", { class: "empty" }, "The events of the next run show here."));
    if (stuckToBottom) this.list.scrollTop = this.list.scrollHeight;
  }
}
