import { HttpAgent, type Interrupt, type Message, type ResumeEntry, type State } from "@ag-ui/client";
import { newId } from "./dom";

/** What GET /threads/{id} answers: the stored thread, ready to go back into a client. */
interface ThreadView {
  agent?: string;
  state?: State;
  messages?: Message[];
  pendingInterrupts?: Interrupt[];
}

/**
 * One conversation with one agent: the @ag-ui/client HttpAgent that holds its messages and state, plus what the
 * page shows around it (running, the last error, a notice after a decision). Views read it and re-render on
 * every change; they never parse the stream themselves.
 */
export class Session {
  readonly agent: HttpAgent;
  running = false;
  /** Runs that have ended, however they ended (the page shows it as data-runs, for tests and tools). */
  finishedRuns = 0;
  error: string | undefined;
  notice: string | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly agentName: string,
    threadId: string,
    stored: ThreadView = {},
  ) {
    this.agent = new HttpAgent({
      url: `/agui/${encodeURIComponent(agentName)}`,
      threadId,
      initialMessages: stored.messages ?? [],
      initialState: stored.state ?? {},
    });
    this.agent.pendingInterrupts = stored.pendingInterrupts ?? [];
    this.agent.subscribe({
      onMessagesChanged: () => this.changed(),
      onStateChanged: () => this.changed(),
    });
  }

  /**
   * The session of a thread the server may already know (a reload, a shared link): its agent, messages and state
   * come from GET /threads/{id}; an unknown thread starts empty with the agent asked for.
   */
  static async open(threadId: string, agentName: string): Promise<Session> {
    const response = await fetch(`/threads/${encodeURIComponent(threadId)}`, { headers: { Accept: "application/json" } });
    if (response.status === 404) return new Session(agentName, threadId);
    if (!response.ok) throw new Error(`GET /threads/${threadId}: HTTP ${response.status} ${await response.text()}`);
    const stored = (await response.json()) as ThreadView;
    return new Session(stored.agent ?? agentName, threadId, stored);
  }

  get threadId(): string {
    return this.agent.threadId;
  }

  get state(): State {
    return this.agent.state ?? {};
  }

  get messages(): Message[] {
    return this.agent.messages;
  }

  get pendingInterrupts(): Interrupt[] {
    return this.agent.pendingInterrupts;
  }

  onChange(listener: () => void): void {
    this.listeners.add(listener);
  }

  /** A user edit of the shared state; the next run sends it. Edits wait while a run is applying its own. */
  setState(state: State): void {
    if (this.running) return;
    this.agent.setState(state);
  }

  /**
   * Sends a user message. Open interrupts must be answered by every run (the client refuses otherwise), so a new
   * message declines them ("cancelled"): the user moved on instead of deciding.
   */
  async send(text: string): Promise<void> {
    if (this.running || text.trim() === "") return;
    this.agent.addMessage({ id: newId(), role: "user", content: text.trim() });
    const resume = this.pendingInterrupts.map((i): ResumeEntry => ({ interruptId: i.id, status: "cancelled" }));
    await this.run(resume);
  }

  /** Answers the open interrupts: approve or reject what the agent proposed. */
  async decide(approved: boolean): Promise<void> {
    if (this.running || this.pendingInterrupts.length === 0) return;
    const resume = this.pendingInterrupts.map(
      (i): ResumeEntry => ({ interruptId: i.id, status: "resolved", payload: { approved } }),
    );
    await this.run(resume, approved ? "You approved the change." : "You rejected the change: the previous version is back.");
  }

  stop(): void {
    if (this.running) this.agent.abortRun();
  }

  /** One run; `outcome` is the notice shown when it succeeds. */
  private async run(resume: ResumeEntry[], outcome?: string): Promise<void> {
    this.running = true;
    this.error = undefined;
    this.notice = undefined;
    this.changed();
    try {
      await this.agent.runAgent(resume.length > 0 ? { resume } : {}, {
        onRunErrorEvent: ({ event }) => {
          this.error = event.code === "abort" ? "Stopped." : `${event.message}${event.code ? ` (${event.code})` : ""}`;
        },
        onRunFailed: ({ error }) => {
          this.error = describe(error);
        },
      });
    } catch (error) {
      this.error ??= describe(error);
    } finally {
      this.running = false;
      if (this.error === undefined) this.notice = outcome;
      this.finishedRuns++;
      this.changed();
    }
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

/** "HTTP 409: {json}" from the client becomes the server's own message. */
function describe(error: unknown): string {
  if (error instanceof Error) {
    const payload = (error as Error & { payload?: unknown }).payload;
    if (payload && typeof payload === "object" && "message" in payload) {
      const { message, code } = payload as { message: unknown; code?: unknown };
      return `${String(message)}${code ? ` (${String(code)})` : ""}`;
    }
    return error.message;
  }
  return String(error);
}
