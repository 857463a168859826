import { EventType, type AgentSubscriber, type Interrupt, type Message, type ResumeEntry, type State, type SubagentStartedEvent } from "@ag-ui/client";
import { authHeaders } from "./auth";
import { newId } from "./dom";
import { ReconnectingAgent } from "./reconnecting-agent";
import { addEvent, type EventLine } from "./run-events";

/** What GET /threads/{id} answers: the stored thread, ready to go back into a client. */
interface ThreadView {
  agent?: string;
  state?: State;
  messages?: Message[];
  pendingInterrupts?: Interrupt[];
}

/**
 * One conversation with one agent: the {@link ReconnectingAgent} that holds its messages and state, plus what the
 * page shows around it (running, the last error, a notice after a decision, a stopped run). Views read it and
 * re-render on every change; they never parse the stream themselves.
 */
export class Session {
  readonly agent: ReconnectingAgent;
  running = false;
  /** Runs that have ended, however they ended, joined ones too (the page shows it as data-runs, for tests). */
  finishedRuns = 0;
  error: string | undefined;
  notice: string | undefined;
  /** The last run ended because someone pressed Stop (here or on another page of the thread). */
  stopped = false;
  /** A stop request is on its way. */
  stopping = false;
  /** The events of the latest run (started or joined), as the page was told them. */
  readonly events: EventLine[] = [];
  /** Whether the thread may have a run going on that this page did not start (see {@link open}). */
  readonly mayBeLive: boolean;
  /** The sub-agents the page saw start (SUBAGENT_STARTED): subagentRunId → the sub-agent's name. */
  private readonly subagents = new Map<string, string>();
  private readonly rejected: Set<string>;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly agentName: string,
    threadId: string,
    stored: ThreadView = {},
    mayBeLive = false,
  ) {
    this.agent = new ReconnectingAgent({
      url: `agui/${encodeURIComponent(agentName)}`, // relative: the page is served at agui.http.root
      headers: authHeaders(),
      threadId,
      initialMessages: stored.messages ?? [],
      initialState: stored.state ?? {},
    });
    this.agent.pendingInterrupts = stored.pendingInterrupts ?? [];
    this.mayBeLive = mayBeLive;
    this.rejected = new Set(JSON.parse(sessionStorage.getItem(rejectedKey(threadId)) ?? "[]") as string[]);
    this.agent.subscribe({
      onMessagesChanged: () => this.changed(),
      onStateChanged: () => this.changed(),
      onEvent: ({ event }) => {
        if (event.type === EventType.SUBAGENT_STARTED) {
          const started = event as SubagentStartedEvent;
          this.subagents.set(started.subagentRunId, started.name);
        }
        addEvent(this.events, event);
        this.changed();
      },
    });
  }

  /**
   * The session of a thread the server may already know (a reload, a shared link): its agent, messages and state
   * come from GET /threads/{id}; an unknown thread starts empty with the agent asked for. The thread may have a
   * run going on (the page was reloaded mid-run, or another page started one; a first run may not have stored
   * the thread yet) unless it waits for the user's decision: then {@link join} follows it.
   */
  static async open(threadId: string, agentName: string): Promise<Session> {
    const response = await fetch(`threads/${encodeURIComponent(threadId)}`, { headers: { ...authHeaders(), Accept: "application/json" } });
    if (response.status === 404) return new Session(agentName, threadId, {}, true);
    if (!response.ok) throw new Error(`GET /threads/${threadId}: HTTP ${response.status} ${await response.text()}`);
    const stored = (await response.json()) as ThreadView;
    const waiting = (stored.pendingInterrupts ?? []).length > 0;
    return new Session(stored.agent ?? agentName, threadId, stored, !waiting);
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

  /** Whether the user rejected (or declined, by writing on) the proposal that this tool call made. */
  /**
   * Who wrote a sub-agent's message: its name when this page saw it start, else just "Sub-agent" (a reload: the
   * thread keeps a message's subagentRunId, not the sub-agent's name).
   */
  subagentName(subagentRunId: string): string {
    return this.subagents.get(subagentRunId) ?? "Sub-agent";
  }

  isRejected(toolCallId: string): boolean {
    return this.rejected.has(toolCallId);
  }

  /**
   * Sends a user message. Open interrupts must be answered by every run (the client refuses otherwise), so a new
   * message declines them ("cancelled"): the user moved on instead of deciding.
   */
  async send(text: string): Promise<void> {
    if (this.running || text.trim() === "") return;
    this.agent.addMessage({ id: newId(), role: "user", content: text.trim() });
    const resume = this.pendingInterrupts.map((i): ResumeEntry => ({ interruptId: i.id, status: "cancelled" }));
    this.remember(false);
    await this.follow(() => this.agent.runAgent(resume.length > 0 ? { resume } : {}, this.outcomes()));
  }

  /** Answers the open interrupts: approve or reject what the agent proposed. */
  async decide(approved: boolean): Promise<void> {
    if (this.running || this.pendingInterrupts.length === 0) return;
    const resume = this.pendingInterrupts.map(
      (i): ResumeEntry => ({ interruptId: i.id, status: "resolved", payload: { approved } }),
    );
    this.remember(approved);
    await this.follow(
      () => this.agent.runAgent({ resume }, this.outcomes()),
      approved ? "You approved the change." : "You rejected the change: the previous version is back.",
    );
  }

  /**
   * Follows the thread's live run, if any, from where it is (the server restates the thread when none is live).
   * What happened before the page loaded comes from the server's join prelude; nothing is sent but the thread id.
   */
  async join(): Promise<void> {
    if (this.running) return;
    await this.follow(() => this.agent.connectAgent({}, this.outcomes()));
  }

  /** The Stop button: the server ends the run, and the stream this page follows ends "cancelled". */
  async stop(): Promise<void> {
    if (!this.running || this.stopping) return;
    this.stopping = true;
    this.changed();
    try {
      await this.agent.stop();
    } catch (error) {
      this.error = `Could not stop the run: ${describe(error)}`;
    } finally {
      this.stopping = false;
      this.changed();
    }
  }

  /** Leaves the thread (another thread is shown): this page stops following; the run, if any, goes on. */
  detach(): void {
    if (this.running) this.agent.abortRun();
  }

  /** What the page shows of how a run ended. */
  private outcomes(): AgentSubscriber {
    return {
      onRunFinishedEvent: ({ outcome }) => {
        this.stopped = outcome === "cancelled";
      },
      onRunErrorEvent: ({ event }) => {
        this.error = `${event.message}${event.code ? ` (${event.code})` : ""}`;
      },
      onRunFailed: ({ error }) => {
        this.error = describe(error);
      },
    };
  }

  /** The calls the open interrupts ask about, once rejected, stay marked so in this tab (a reload too). */
  private remember(approved: boolean): void {
    if (approved || this.pendingInterrupts.length === 0) return;
    for (const interrupt of this.pendingInterrupts) {
      if (interrupt.toolCallId) this.rejected.add(interrupt.toolCallId);
    }
    sessionStorage.setItem(rejectedKey(this.threadId), JSON.stringify([...this.rejected]));
  }

  /** One run, started or joined; `outcome` is the notice shown when it succeeds. */
  private async follow(start: () => Promise<unknown>, outcome?: string): Promise<void> {
    this.running = true;
    this.error = undefined;
    this.notice = undefined;
    this.stopped = false;
    this.events.length = 0;
    this.changed();
    try {
      await start();
    } catch (error) {
      this.error ??= describe(error);
    } finally {
      this.running = false;
      if (this.error === undefined && !this.stopped) this.notice = outcome;
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

function rejectedKey(threadId: string): string {
  return `agui-rejected:${threadId}`;
}
