import { fill, h } from "./dom";
import type { Session } from "./session";

/**
 * The document, bound to state.document, shown as it is written. With confirmation on, the run ends with an
 * interrupt and the predicted text stays on screen, marked as a proposal, until the user approves or rejects it
 * (the decision panel); on reject the server's snapshot brings the previous text back.
 */
export class DocumentView {
  readonly root: HTMLElement;
  private readonly status: HTMLElement;
  private readonly article: HTMLElement;
  private renderedKey = "";

  constructor(private readonly session: Session) {
    this.status = h("p", { class: "doc-status", attrs: { "aria-live": "polite" } });
    this.article = h("article", { class: "document-text", attrs: { "aria-label": "Document text" } });
    this.root = h(
      "section",
      { id: "document-view", class: "panel card document", attrs: { "aria-labelledby": "document-heading" } },
      h("h2", { id: "document-heading" }, "Document"),
      this.status,
      this.article,
    );
  }

  render(): void {
    const text = typeof this.session.state.document === "string" ? this.session.state.document : "";
    const pending = this.session.pendingInterrupts.length > 0;
    const key = JSON.stringify([text, this.session.running, pending]);
    if (key === this.renderedKey) return;
    this.renderedKey = key;
    this.root.setAttribute("aria-busy", String(this.session.running));
    this.root.classList.toggle("proposed", pending);
    this.status.textContent = this.session.running
      ? "The agent is writing…"
      : pending
        ? "Proposed text: approve or reject it."
        : "";
    fill(this.article, ...(text ? markdown(text) : [h("p", { class: "empty" }, "No document yet. Ask the agent to write one.")]));
  }
}

/** Headings, paragraphs, bullet lists and *emphasis* — what the agent writes — built as DOM nodes, never as HTML. */
function markdown(text: string): HTMLElement[] {
  const out: HTMLElement[] = [];
  for (const block of text.split(/\n{2,}/)) {
    let paragraph: HTMLParagraphElement | undefined;
    let list: HTMLUListElement | undefined;
    for (const line of block.split("\n")) {
      const heading = /^(#{1,3})\s+(.*)$/.exec(line);
      const item = /^[-*]\s+(.*)$/.exec(line);
      if (heading) {
        out.push(h(heading[1].length === 1 ? "h3" : "h4", {}, ...inline(heading[2])));
        paragraph = list = undefined;
      } else if (item) {
        if (!list) out.push((list = h("ul")));
        list.append(h("li", {}, ...inline(item[1])));
        paragraph = undefined;
      } else if (line.trim() !== "") {
        if (!paragraph) out.push((paragraph = h("p")));
        else paragraph.append(" ");
        paragraph.append(...inline(line));
        list = undefined;
      }
    }
  }
  return out;
}

function inline(text: string): (HTMLElement | string)[] {
  return text.split(/(\*[^*]+\*)/).map((part) => (/^\*[^*]+\*$/.test(part) ? h("em", {}, part.slice(1, -1)) : part));
}
