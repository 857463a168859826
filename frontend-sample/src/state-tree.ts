import { fill, h } from "./dom";
import type { Session } from "./session";

/**
 * Any agent's state, for agents without a card of their own (a declarative agent, the chat agent, yours): a tree of
 * its keys and values that follows the state live, so a value appears while the agent writes it. Members that
 * changed in the latest update are marked; branches the user folded stay folded.
 */
export class StateTreeView {
  readonly root: HTMLElement;
  private readonly tree: HTMLElement;
  private readonly folded = new Set<string>();
  private previous = new Map<string, string>();
  private renderedKey = "";

  constructor(private readonly session: Session) {
    this.tree = h("div", { class: "state-tree", attrs: { "aria-label": "State" } });
    this.root = h(
      "section",
      { id: "state-view", class: "panel card", attrs: { "aria-labelledby": "state-heading" } },
      h("h2", { id: "state-heading" }, "State"),
      this.tree,
    );
  }

  render(): void {
    const state = this.session.state;
    const key = JSON.stringify([state, this.session.running]);
    if (key === this.renderedKey) return;
    this.renderedKey = key;
    this.root.setAttribute("aria-busy", String(this.session.running));
    const leaves = new Map<string, string>();
    const entries = Object.entries(state ?? {});
    fill(
      this.tree,
      entries.length === 0
        ? h("p", { class: "empty" }, "No state yet. What the agent writes to its state shows here as it writes it.")
        : h("ul", { class: "tree-root" }, ...entries.map(([name, value]) => this.node(name, value, `/${name}`, leaves))),
    );
    this.previous = leaves;
  }

  /** One member: a leaf (name: value) or a branch that can be folded, with its size. */
  private node(name: string, value: unknown, path: string, leaves: Map<string, string>): HTMLElement {
    const label = h("span", { class: "tree-key" }, name);
    if (value !== null && typeof value === "object") {
      const children = Array.isArray(value)
        ? value.map((item, i) => this.node(String(i), item, `${path}/${i}`, leaves))
        : Object.entries(value).map(([k, v]) => this.node(k, v, `${path}/${k}`, leaves));
      const size = Array.isArray(value) ? `[${value.length}]` : `{${children.length}}`;
      const branch = h(
        "details",
        { open: !this.folded.has(path), on: { toggle: () => this.toggled(path, branch) } },
        h("summary", {}, label, h("span", { class: "tree-size" }, ` ${size}`)),
        children.length > 0 ? h("ul", {}, ...children) : h("span", { class: "tree-size" }, " empty"),
      );
      return h("li", { attrs: { "data-path": path } }, branch);
    }
    const text = JSON.stringify(value);
    leaves.set(path, text);
    const changed = this.previous.size > 0 && this.previous.get(path) !== text;
    return h(
      "li",
      { class: changed ? "changed" : "", attrs: { "data-path": path } },
      label,
      ": ",
      h("span", { class: `tree-value ${value === null ? "null" : typeof value}` }, text),
    );
  }

  private toggled(path: string, branch: HTMLDetailsElement): void {
    if (branch.open) this.folded.delete(path);
    else this.folded.add(path);
  }
}
