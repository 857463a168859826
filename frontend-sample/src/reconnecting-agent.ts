import {
  type BaseEvent,
  EventType,
  HttpAgent,
  type HttpAgentConfig,
  type HttpAgentFetchFn,
  type RunAgentInput,
  type RunAgentParameters,
  type AgentSubscriber,
  type RunAgentResult,
  enforceOutgoingInput,
  runHttpRequest,
  transformHttpEventStream,
} from "@ag-ui/client";
import { EMPTY, Observable, catchError, concat, defer, of, switchMap, tap, throwError, timer } from "rxjs";

/** How often a cut stream is resumed in a row before the run is reported failed; the waits between tries. */
const RESUME_DELAYS_MS = [250, 1000, 3000];

const TERMINAL = new Set<string>([EventType.RUN_FINISHED, EventType.RUN_ERROR]);

/**
 * An `HttpAgent` for runs that outlive their connection (docs/reconnect.md); the recipe for any frontend on
 * `@ag-ui/client`. The agent's `url` must name the agent (`/agui/recipe`, not `/agui`): the other endpoints hang
 * off it.
 *
 * - Its runs ask to go on without their connection (`forwardedProps.onDisconnect: "continue"`), so closing the
 *   page or losing the network no longer stops them; {@link stop} does.
 * - It remembers the `id:` of the last SSE frame it read ({@link lastEventId}, `<run>.<seq>`). The client's own
 *   SSE parser drops `id:`, so the agent reads it off the bytes on their way to the parser (its `fetch` passes
 *   every event stream through {@link wholeFrames}).
 * - A stream cut mid-run (a network error, or the end of the body before `RUN_FINISHED`/`RUN_ERROR`) is resumed
 *   in place: `POST {url}/connect` with `Last-Event-ID` answers exactly the events after it, so the client's
 *   pipeline sees one unbroken run. It tries {@link RESUME_DELAYS_MS} times in a row before giving up.
 * - `connectAgent()` joins the thread's live run without a cursor (a page that was reloaded holds only the stored
 *   thread, not the events before any cursor): the server answers a join prelude, then the live events; or, when
 *   nothing runs, the thread restated in a complete run.
 */
export class ReconnectingAgent extends HttpAgent {
  /** The `id:` of the last frame read on this agent's current stream, the cursor a resume sends. */
  lastEventId: string | undefined;

  constructor(config: HttpAgentConfig) {
    super(config);
    this.fetch = trackingIds(this.fetch, (id) => (this.lastEventId = id));
  }

  run(input: RunAgentInput): Observable<BaseEvent> {
    const continuing = { ...input, forwardedProps: { ...input.forwardedProps, onDisconnect: "continue" } };
    const started = defer(() => {
      this.lastEventId = undefined;
      return super.run(continuing);
    });
    return this.resuming(started, input, 0);
  }

  /** Joins the thread's live run (or has the thread restated when none is live). */
  async connectAgent(parameters?: RunAgentParameters, subscriber?: AgentSubscriber): Promise<RunAgentResult> {
    // HttpAgent gives runAgent a fresh AbortController, not connectAgent: one that abortRun() used must not stay.
    this.abortController = new AbortController();
    return super.connectAgent(parameters, subscriber);
  }

  /** A thread the server does not know (yet: its first run may not have stored it) has nothing to follow. */
  protected connect(input: RunAgentInput): Observable<BaseEvent> {
    return this.resuming(this.post("connect", input), input, 0).pipe(
      catchError((error: unknown) => (isThreadNotFound(error) ? EMPTY : throwError(() => error))),
    );
  }

  /**
   * Asks the server to end the thread's live run, wherever it runs: every stream on it, this one too, then ends
   * with `RUN_FINISHED` and `outcome: {type: "cancelled"}`. False when no run was live.
   */
  async stop(threadId = this.threadId): Promise<boolean> {
    const response = await this.fetch(`${this.url}/stop/${encodeURIComponent(threadId)}`, {
      method: "POST",
      headers: { ...this.headers, "Content-Type": "application/json", Accept: "application/json" },
      body: "{}",
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
    return ((await response.json()) as { stopped: boolean }).stopped;
  }

  /** A stream on `{url}/{endpoint}`; the thread is all connect needs, so messages and state stay home. */
  private post(endpoint: string, input: RunAgentInput, cursor?: string): Observable<BaseEvent> {
    return defer(() => {
      this.lastEventId = cursor;
      const init = this.requestInit(enforceOutgoingInput({ ...input, messages: [], state: {} }));
      if (cursor !== undefined) init.headers = { ...(init.headers as Record<string, string>), "Last-Event-ID": cursor };
      return transformHttpEventStream(runHttpRequest(() => this.fetch(`${this.url}/${endpoint}`, init)), this.debugLogger);
    });
  }

  /**
   * The events of `events$`; when it is cut before the run's terminal event, the events after the last frame read,
   * from `{url}/connect` with that cursor. `failures` counts the tries in a row that brought nothing.
   */
  private resuming(events$: Observable<BaseEvent>, input: RunAgentInput, failures: number): Observable<BaseEvent> {
    let ended = false;
    let progressed = false;
    const followed = events$.pipe(
      tap((event) => {
        progressed = true;
        if (TERMINAL.has(event.type)) ended = true;
      }),
    );
    const cutUnlessEnded = defer(() => (ended ? EMPTY : throwError(() => new Error("The stream ended before the run did."))));
    return concat(followed, cutUnlessEnded).pipe(
      catchError((error: unknown) => {
        const tries = progressed ? 0 : failures;
        const cursor = this.lastEventId;
        if (!this.isCut(error) || cursor === undefined || tries >= RESUME_DELAYS_MS.length) return throwError(() => error);
        return timer(RESUME_DELAYS_MS[tries]).pipe(
          switchMap(() => this.resuming(this.post("connect", input, cursor).pipe(mustContinue(cursor)), input, tries + 1)),
        );
      }),
    );
  }

  /** A lost connection, as opposed to the user's abort, an HTTP error answer (which has a status) or a lost log. */
  private isCut(error: unknown): boolean {
    const answered = error instanceof ResumeLost || (error instanceof Error && "status" in error);
    return !this.abortController.signal.aborted && !answered;
  }
}

function isThreadNotFound(error: unknown): boolean {
  const { status, payload } = error as { status?: number; payload?: { code?: string } };
  return status === 404 && payload?.code === "thread_not_found";
}

/** The server could not resume a cut stream. */
export class ResumeLost extends Error {}

/**
 * A resumed stream must go on from the cursor. When the server no longer has the events after it (the log expired),
 * it answers a fresh start instead, which cannot be spliced into the run the client is reading: that is reported.
 */
function mustContinue(cursor: string) {
  return (events$: Observable<BaseEvent>) => {
    let first = true;
    return events$.pipe(
      switchMap((event) => {
        const restarted = first && event.type === EventType.RUN_STARTED;
        first = false;
        return restarted
          ? throwError(() => new ResumeLost(`The server no longer has the events after ${cursor}: reload to see the thread.`))
          : of(event);
      }),
    );
  };
}

/** A fetch whose event-stream responses go through {@link wholeFrames}. */
function trackingIds(fetch: HttpAgentFetchFn, seen: (id: string) => void): HttpAgentFetchFn {
  return async (url, init) => {
    const response = await fetch(url, init);
    if (!response.body || !response.headers.get("content-type")?.includes("text/event-stream")) return response;
    const { status, statusText, headers } = response;
    return new Response(wholeFrames(response.body, seen), { status, statusText, headers });
  };
}

/**
 * The body's bytes, unchanged, in whole SSE frames; `seen` gets each frame's `id:` as the frame is passed on. When
 * the connection is lost the body ends after the last whole frame: the client never reads half an event (which it
 * would parse, or fail on, when the body ends), and the cursor is exactly the last event it read. The run's
 * missing terminal event then tells the agent to resume. An abort stays an abort.
 */
export function wholeFrames(body: ReadableStream<Uint8Array>, seen: (id: string) => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = "";
  return new ReadableStream({
    async pull(controller) {
      for (;;) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (error) {
          if ((error as Error)?.name === "AbortError") controller.error(error);
          else controller.close();
          return;
        }
        if (chunk.done) {
          pending += decoder.decode();
          if (pending !== "") controller.enqueue(encoder.encode(pending));
          controller.close();
          return;
        }
        pending += decoder.decode(chunk.value, { stream: true });
        const end = pending.lastIndexOf("\n\n");
        if (end < 0) continue;
        const frames = pending.slice(0, end + 2);
        pending = pending.slice(end + 2);
        for (const frame of frames.split("\n\n")) {
          const id = frame.split("\n").find((line) => line.startsWith("id:"));
          if (id !== undefined) seen(id.slice(3).trim());
        }
        controller.enqueue(encoder.encode(frames));
        return;
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
