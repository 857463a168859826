package dev.aguistate.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.http.JsonEndpoints.Answer;
import dev.aguistate.protocol.Interrupt;
import dev.aguistate.protocol.Message;
import dev.aguistate.session.Caller;
import dev.aguistate.session.ThreadAccess;
import dev.aguistate.store.ConversationSummary;
import dev.aguistate.store.RunRecord;
import dev.aguistate.store.StoredThread;
import dev.aguistate.store.ThreadSummary;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The caller's threads: list, read, change (name, archived, metadata), delete. Another user's thread answers 404, exactly like a missing one, so
 * thread ids leak nothing. Bodies use the AG-UI JSON rules, so messages can go straight back into a client.
 */
@ApplicationScoped
public class ThreadsRoute {

    /**
     * A page of the caller's threads, most recently updated first; {@code nextCursor} is the {@code cursor} of the next
     * page, absent on the last one.
     */
    public record ThreadList(List<ThreadItem> threads, String nextCursor) {}

    /** A thread in a listing: everything but its state and messages. */
    public record ThreadItem(String threadId, String agent, String name, boolean archived, JsonNode metadata,
                             long version, int messageCount, Instant createdAt, Instant updatedAt, RunView lastRun) {

        static ThreadItem of(ThreadSummary thread) {
            return new ThreadItem(thread.threadId(), thread.agent(), thread.info().name(), thread.info().archived(),
                    thread.info().metadata(), thread.version(), thread.messageCount(), thread.createdAt(),
                    thread.updatedAt(), RunView.of(thread.lastRun()));
        }
    }

    /**
     * A thread with its state and complete history; {@code activeRun} is the run that has kept progress and not yet
     * ended (live, or lost with its server), {@code lastRun} the latest that ended and how. {@code summary}, when
     * the thread was compacted, is what the LLM gets in place of the messages up to {@code summary.throughMessageId}
     * ({@code summary.coveredMessages} of them); {@code messages} stays the whole history.
     */
    public record ThreadView(String threadId, String agent, String name, boolean archived, JsonNode metadata,
                             long version, Instant createdAt, Instant updatedAt, JsonNode state,
                             List<Message> messages, List<Interrupt> pendingInterrupts, RunView activeRun,
                             RunView lastRun, ConversationSummary summary) {}

    /** A run as its thread remembers it: {@code outcome} is success, interrupt, cancelled or an error code. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record RunView(String runId, Instant startedAt, Instant endedAt, String outcome) {

        static RunView of(RunRecord run) {
            return run == null ? null : new RunView(run.runId(), run.startedAt(), run.endedAt(), run.outcome());
        }
    }

    /**
     * A page of a thread's messages, newest first; {@code nextBefore} is the cursor for the next (older) page, absent
     * on the last one.
     */
    public record MessagePage(List<Message> messages, String nextBefore) {}

    private static final int DEFAULT_PAGE = 20;

    private final ThreadAccess access;
    private final ThreadApi api;
    private final RequestGate gate;
    private final JsonEndpoints endpoints;
    private final BasePath root;

    ThreadsRoute(ThreadAccess access, ThreadApi api, RequestGate gate, JsonEndpoints endpoints, HttpConfig config) {
        this.access = access;
        this.api = api;
        this.gate = gate;
        this.endpoints = endpoints;
        this.root = BasePath.root(config);
    }

    void register(@Observes Router router) {
        String threads = root.path("/threads");
        endpoints.serve(router, threads, Map.of(HttpMethod.GET, this::list));
        endpoints.serve(router, threads + "/:threadId", Map.of(HttpMethod.GET, this::get,
                HttpMethod.PATCH, this::update, HttpMethod.DELETE, this::delete));
        endpoints.serve(router, threads + "/:threadId/messages", Map.of(HttpMethod.GET, this::messages));
    }

    /**
     * {@code GET /threads?agent=&archived=&metadata.<key>=&q=&cursor=&limit=}: the caller's threads, most recently
     * updated first, without messages; archived ones only when asked for ({@link ThreadApi.ListQuery#of}).
     */
    private Uni<Answer> list(RoutingContext ctx, Caller caller) {
        ThreadApi.ListQuery query;
        try {
            Map<String, List<String>> parameters = new HashMap<>();
            ctx.queryParams().names().forEach(name -> parameters.put(name, ctx.queryParams().getAll(name)));
            query = ThreadApi.ListQuery.of(parameters, DEFAULT_PAGE);
        } catch (ThreadApi.InvalidQuery invalid) {
            return refused(invalid.error());
        }
        return api.list(caller, query, ThreadItem::of)
                .map(page -> new Answer.Ok(new ThreadList(page.threads(), page.nextCursor())));
    }

    /**
     * {@code PATCH /threads/{threadId}} with {@code {"name", "archived", "metadata"}}, each optional: {@code name: null}
     * removes the name, {@code metadata} is merged key by key (a key set to null is removed). A run in progress on
     * the thread is not disturbed. The body is read within the run requests' limits.
     */
    private Uni<Answer> update(RoutingContext ctx, Caller caller) {
        return validThreadId(ctx, id -> Uni.createFrom().<byte[]>emitter(body -> gate.readJsonBody(ctx, body::complete))
                .chain(body -> api.update(caller, id, body, ThreadsRoute::view))
                .map(answer -> answer instanceof ErrorBody error ? new Answer.Refused(error) : new Answer.Ok(answer)));
    }

    /** {@code GET /threads/{threadId}}: a thread's state and complete message history. */
    private Uni<Answer> get(RoutingContext ctx, Caller caller) {
        return withThread(ctx, caller, thread -> new Answer.Ok(view(thread)));
    }

    /**
     * {@code GET /threads/{threadId}/messages?before=&limit=}: for long threads, {@code limit} messages (1 to 100,
     * default 20) older than the message {@code before} (absent: the newest), newest first.
     */
    private Uni<Answer> messages(RoutingContext ctx, Caller caller) {
        int limit = ThreadApi.ListQuery.wholeNumber(parameter(ctx, "limit", String.valueOf(DEFAULT_PAGE)));
        if (limit < 1 || limit > ThreadApi.ListQuery.MAX_PAGE) {
            return refused(new ErrorBody(400, "invalid_page",
                    "limit must be a whole number between 1 and " + ThreadApi.ListQuery.MAX_PAGE));
        }
        String before = ctx.queryParams().get("before");
        return withThread(ctx, caller, thread -> page(thread.messages(), before, limit));
    }

    /** {@code DELETE /threads/{threadId}}: the thread and its history deleted. */
    private Uni<Answer> delete(RoutingContext ctx, Caller caller) {
        return validThreadId(ctx, id -> access.delete(id, caller).map(deleted -> deleted
                ? new Answer.NoContent()
                : new Answer.Refused(ErrorBody.threadNotFound(id))));
    }

    /** The caller's thread the path names answered by {@code answer}, or 404. */
    private Uni<Answer> withThread(RoutingContext ctx, Caller caller,
                                   Function<StoredThread, Answer> answer) {
        return validThreadId(ctx, id -> access.load(id, caller).map(thread -> thread
                .map(answer)
                .orElseGet(() -> new Answer.Refused(ErrorBody.threadNotFound(id)))));
    }

    /** The thread id of the path, which must keep the id rules (else 422), handed to {@code action}. */
    private static Uni<Answer> validThreadId(RoutingContext ctx, Function<String, Uni<Answer>> action) {
        String id = ctx.pathParam("threadId");
        Optional<ErrorBody> invalid = ErrorBody.invalidThreadId(id);
        return invalid.isPresent() ? refused(invalid.get()) : action.apply(id);
    }

    private static String parameter(RoutingContext ctx, String name, String defaultValue) {
        String value = ctx.queryParams().get(name);
        return value == null ? defaultValue : value;
    }

    private static Uni<Answer> refused(ErrorBody error) {
        return Uni.createFrom().item(new Answer.Refused(error));
    }

    private static Answer page(List<Message> messages, String before, int limit) {
        int end = messages.size();
        if (before != null) {
            end = 0;
            while (end < messages.size() && !messages.get(end).id().equals(before)) {
                end++;
            }
            if (end == messages.size()) {
                return new Answer.Refused(new ErrorBody(400, "invalid_cursor",
                        "'before' names no message of this thread"));
            }
        }
        int start = Math.max(0, end - limit);
        List<Message> page = new ArrayList<>(messages.subList(start, end));
        Collections.reverse(page);
        return new Answer.Ok(new MessagePage(page, start > 0 ? messages.get(start).id() : null));
    }

    private static ThreadView view(StoredThread thread) {
        return new ThreadView(thread.threadId(), thread.agent(), thread.info().name(), thread.info().archived(),
                thread.info().metadata(), thread.version(), thread.createdAt(), thread.updatedAt(), thread.state(),
                thread.messages(), thread.meta().openInterrupts(), RunView.of(thread.meta().activeRun()),
                RunView.of(thread.meta().lastRun()), thread.conversationSummary());
    }
}
