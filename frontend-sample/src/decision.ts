import { fill, h } from "./dom";
import type { Session } from "./session";

/**
 * The agent's open interrupts (RUN_FINISHED with outcome "interrupt"): its question and Approve / Reject, which
 * resume the thread. Also the notice of what the last decision did.
 */
export class DecisionPanel {
  readonly root: HTMLElement;
  private renderedKey = "";

  constructor(private readonly session: Session) {
    this.root = h("section", { class: "decision", attrs: { "aria-label": "Your decision", "aria-live": "polite" } });
  }

  render(): void {
    const { session } = this;
    const interrupts = session.running ? [] : session.pendingInterrupts;
    const key = JSON.stringify([interrupts, session.notice]);
    if (key === this.renderedKey) return;
    this.renderedKey = key;
    fill(
      this.root,
      interrupts.length > 0 &&
        h(
          "div",
          { class: "confirm", attrs: { role: "group", "aria-labelledby": "confirm-question" } },
          h(
            "p",
            { id: "confirm-question" },
            interrupts.map((i) => i.message ?? "The agent asks you to confirm its change.").join(" "),
          ),
          h(
            "div",
            { class: "confirm-actions" },
            h("button", { type: "button", class: "primary", on: { click: () => void session.decide(true) } }, "Approve"),
            h("button", { type: "button", class: "danger", on: { click: () => void session.decide(false) } }, "Reject"),
          ),
        ),
      session.notice && h("p", { class: "notice", attrs: { role: "status" } }, session.notice),
    );
    this.root.hidden = interrupts.length === 0 && session.notice === undefined;
  }
}
