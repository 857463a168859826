import { fill, h } from "./dom";
import type { Session } from "./session";

/**
 * The document, bound to state.document, shown as it is written. With confirmation on, the run ends with an
 * interrupt and the predicted text stays on screen, marked as a proposal, until the user approves or rejects it
 * (the decision panel); on reject the server's snapshot brings the previous text back. Between runs the user can
 * edit the text; the next run sends it.
 */
export class DocumentView {
  readonly root: HTMLElement;
  private readonly status: HTMLElement;
  private readonly article: HTMLElement;
  private readonly editor: HTMLTextAreaElement;
  private readonly editButton: HTMLButtonElement;
  private readonly editorLabel: HTMLLabelElement;
  private editing = false;
  private renderedKey = "";

  constructor(private readonly session: Session) {
    this.status = h("p", { class: "doc-status", attrs: { "aria-live": "polite" } });
    this.article = h("article", { class: "document-text", attrs: { "aria-label": "Document text" } });
    this.editor = h("textarea", { id: "document-editor", rows: 16, class: "document-editor" });
    this.editorLabel = h("label", { htmlFor: "document-editor", class: "visually-hidden" }, "Document text (markdown)");
    this.editButton = h("button", { type: "button", on: { click: () => this.toggleEditing() } }, "Edit");
    this.root = h(
      "section",
      { id: "document-view", class: "panel card document", attrs: { "aria-labelledby": "document-heading" } },
      h("div", { class: "card-head" }, h("h2", { id: "document-heading" }, "Document"), this.editButton),
      this.status,
      this.article,
      this.editorLabel,
      this.editor,
    );
  }

  private text(): string {
    return typeof this.session.state.document === "string" ? this.session.state.document : "";
  }

  /** Edit shows the markdown in a text box; Save puts it into the shared state for the next run. */
  private toggleEditing(): void {
    if (this.editing) this.session.setState({ ...this.session.state, document: this.editor.value });
    else this.editor.value = this.text();
    this.editing = !this.editing;
    this.renderedKey = "";
    this.render();
    (this.editing ? this.editor : this.editButton).focus();
  }

  render(): void {
    const text = this.text();
    const pending = this.session.pendingInterrupts.length > 0;
    if (this.editing && (this.session.running || pending)) this.editing = false;
    const key = JSON.stringify([text, this.session.running, pending, this.editing]);
    if (key === this.renderedKey) return;
    this.renderedKey = key;
    this.root.setAttribute("aria-busy", String(this.session.running));
    this.root.classList.toggle("proposed", pending);
    this.editButton.textContent = this.editing ? "Save" : "Edit";
    this.editButton.disabled = this.session.running || pending;
    this.article.hidden = this.editing;
    this.editor.hidden = this.editorLabel.hidden = !this.editing;
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
