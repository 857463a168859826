import { fill, h } from "./dom";
import type { Session } from "./session";

interface Step {
  description?: string;
  status?: string;
}

/** The plan in state.steps: it streams in as the agent writes it, then each step flips to completed as it is done. */
export class TasksView {
  readonly root: HTMLElement;
  private readonly progress: HTMLProgressElement;
  private readonly summary: HTMLElement;
  private readonly list: HTMLOListElement;
  private renderedKey = "";

  constructor(private readonly session: Session) {
    this.progress = h("progress", { id: "tasks-progress", max: 1, value: 0 });
    this.summary = h("p", { class: "tasks-summary", attrs: { "aria-live": "polite" } });
    this.list = h("ol", { class: "steps", attrs: { "aria-label": "Steps" } });
    this.root = h(
      "section",
      { id: "tasks-view", class: "panel card tasks", attrs: { "aria-labelledby": "tasks-heading" } },
      h("h2", { id: "tasks-heading" }, "Steps"),
      h("label", { htmlFor: "tasks-progress", class: "visually-hidden" }, "Progress"),
      this.progress,
      this.summary,
      this.list,
    );
  }

  render(): void {
    const raw = this.session.state.steps;
    const steps: Step[] = Array.isArray(raw) ? raw : [];
    const key = JSON.stringify([steps, this.session.running]);
    if (key === this.renderedKey) return;
    this.renderedKey = key;
    const done = steps.filter((s) => s.status === "completed").length;
    this.root.setAttribute("aria-busy", String(this.session.running));
    this.progress.max = Math.max(steps.length, 1);
    this.progress.value = done;
    this.summary.textContent = steps.length === 0 ? "" : `${done} of ${steps.length} steps completed`;
    fill(
      this.list,
      ...steps.map((step) => {
        const completed = step.status === "completed";
        return h(
          "li",
          { class: completed ? "completed" : "pending", attrs: { "data-status": step.status ?? "pending" } },
          h("span", { class: "step-mark", attrs: { "aria-hidden": "true" } }, completed ? "✓" : "○"),
          h("span", {}, step.description ?? ""),
          h("span", { class: "visually-hidden" }, completed ? " (completed)" : " (pending)"),
        );
      }),
    );
    if (steps.length === 0) this.list.append(h("li", { class: "empty" }, "Give the agent a task and watch it plan and work."));
  }
}
