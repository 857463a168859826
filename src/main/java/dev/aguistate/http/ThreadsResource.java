package dev.aguistate.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.protocol.Interrupt;
import dev.aguistate.protocol.Message;
import dev.aguistate.session.Caller;
import dev.aguistate.session.ThreadAccess;
import dev.aguistate.store.ConversationSummary;
import dev.aguistate.store.RunRecord;
import dev.aguistate.store.StoreUnavailable;
import dev.aguistate.store.StoredThread;
import dev.aguistate.store.ThreadSummary;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import org.eclipse.microprofile.openapi.annotations.Operation;

/**
 * The caller's threads: list, read, change (name, archived, metadata), delete. Another user's thread answers 404, exactly like a missing one, so
 * thread ids leak nothing. Bodies use the AG-UI JSON rules, so messages can go straight back into a client.
 */
@Path("/threads")
@Produces(MediaType.APPLICATION_JSON)
public class ThreadsResource {

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

    private static final int MAX_PAGE = 100;
    private static final int DEFAULT_PAGE = 20;

    private final ThreadAccess access;
    private final ThreadApi api;
    private final UserResolver users;

    ThreadsResource(ThreadAccess access, ThreadApi api, UserResolver users) {
        this.access = access;
        this.api = api;
        this.users = users;
    }

    @GET
    @Operation(summary = "The caller's threads, most recently updated first, without messages",
            description = "Archived threads are left out unless `archived=true` (only them) or `archived=all`. "
                    + "Filters: `agent`, `metadata.<key>=<value>` (each), `q` (text in the name, any case). "
                    + "`limit` threads (1 to 100, default 20) from `cursor` (the `nextCursor` of the page before).")
    public Uni<Response> list(@HeaderParam("Authorization") String authorization, @Context UriInfo uri) {
        ThreadApi.ListQuery query;
        try {
            query = ThreadApi.ListQuery.of(uri.getQueryParameters(), DEFAULT_PAGE);
        } catch (ThreadApi.InvalidQuery invalid) {
            return Uni.createFrom().item(invalid.error().toResponse());
        }
        return asUser(authorization, caller -> api.list(caller, query, ThreadItem::of)
                .map(page -> json(new ThreadList(page.threads(), page.nextCursor()))));
    }

    @PATCH
    @Path("/{threadId}")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Rename, archive or unarchive a thread, or change its metadata",
            description = "`{\"name\", \"archived\", \"metadata\"}`, each optional: `name: null` removes the name, "
                    + "`metadata` is merged key by key (a key set to null is removed). A run in progress on the "
                    + "thread is not disturbed.")
    public Uni<Response> update(@HeaderParam("Authorization") String authorization, @PathParam("threadId") String id,
                                byte[] body) {
        return asUser(authorization, id, caller -> api.update(caller, id, body, ThreadsResource::view)
                .map(ThreadsResource::answer));
    }

    @GET
    @Path("/{threadId}")
    @Operation(summary = "A thread's state and complete message history")
    public Uni<Response> get(@HeaderParam("Authorization") String authorization, @PathParam("threadId") String id) {
        return asUser(authorization, id, caller -> access.load(id, caller).onItem().transform(thread -> thread
                .map(t -> json(view(t)))
                .orElseGet(() -> ErrorBody.threadNotFound(id).toResponse())));
    }

    @GET
    @Path("/{threadId}/messages")
    @Operation(summary = "A page of a thread's messages, newest first",
            description = "For long threads: `limit` messages (1 to 100, default 20) older than the message `before` "
                    + "(absent: the newest). The answer's `nextBefore` is the `before` of the next page; it is absent "
                    + "on the last one.")
    public Uni<Response> messages(@HeaderParam("Authorization") String authorization, @PathParam("threadId") String id,
                                  @QueryParam("before") String before,
                                  @QueryParam("limit") @DefaultValue("20") String limitParam) {
        int limit = wholeNumber(limitParam);
        if (limit < 1 || limit > MAX_PAGE) {
            return Uni.createFrom().item(new ErrorBody(400, "invalid_page",
                    "limit must be a whole number between 1 and " + MAX_PAGE).toResponse());
        }
        return asUser(authorization, id, caller -> access.load(id, caller).onItem().transform(thread -> thread
                .map(t -> page(t.messages(), before, limit))
                .orElseGet(() -> ErrorBody.threadNotFound(id).toResponse())));
    }

    private static Response page(List<Message> messages, String before, int limit) {
        int end = messages.size();
        if (before != null) {
            end = 0;
            while (end < messages.size() && !messages.get(end).id().equals(before)) {
                end++;
            }
            if (end == messages.size()) {
                return new ErrorBody(400, "invalid_cursor", "'before' names no message of this thread").toResponse();
            }
        }
        int start = Math.max(0, end - limit);
        List<Message> page = new ArrayList<>(messages.subList(start, end));
        Collections.reverse(page);
        return json(new MessagePage(page, start > 0 ? messages.get(start).id() : null));
    }

    @DELETE
    @Path("/{threadId}")
    @Operation(summary = "Delete a thread and its history")
    public Uni<Response> delete(@HeaderParam("Authorization") String authorization, @PathParam("threadId") String id) {
        return asUser(authorization, id, caller -> access.delete(id, caller).onItem().transform(deleted -> deleted
                ? Response.noContent().build()
                : ErrorBody.threadNotFound(id).toResponse()));
    }

    /** The parameter's value, or -1 when it is not a whole number. */
    private static int wholeNumber(String parameter) {
        try {
            return Integer.parseInt(parameter);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** As {@link #asUser(String, Function)}, for a thread whose id must first keep the id rules (else 422). */
    private Uni<Response> asUser(String authorization, String threadId, Function<Caller, Uni<Response>> action) {
        return asUser(authorization, caller -> ErrorBody.invalidThreadId(threadId)
                .map(invalid -> Uni.createFrom().item(invalid.toResponse()))
                .orElseGet(() -> action.apply(caller)));
    }

    private Uni<Response> asUser(String authorization, Function<Caller, Uni<Response>> action) {
        return users.resolve(authorization).chain(caller -> caller
                .map(action.andThen(answer -> answer.onFailure(StoreUnavailable.class)
                        .recoverWithItem(() -> ErrorBody.STORE_UNAVAILABLE.toResponse())))
                .orElseGet(() -> Uni.createFrom().item(UserResolver.unauthorized().toResponse())));
    }

    /** A body, or an {@link ErrorBody} as its error response. */
    private static Response answer(Object body) {
        return body instanceof ErrorBody error ? error.toResponse() : json(body);
    }

    private static ThreadView view(StoredThread thread) {
        return new ThreadView(thread.threadId(), thread.agent(), thread.info().name(), thread.info().archived(),
                thread.info().metadata(), thread.version(), thread.createdAt(),
                thread.updatedAt(), thread.state(), thread.messages(), thread.meta().openInterrupts(),
                RunView.of(thread.meta().activeRun()), RunView.of(thread.meta().lastRun()),
                thread.conversationSummary());
    }

    private static Response json(Object body) {
        return Response.ok(AgUiJson.write(body), MediaType.APPLICATION_JSON).build();
    }
}
