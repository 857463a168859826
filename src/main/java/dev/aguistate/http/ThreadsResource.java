package dev.aguistate.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.protocol.Interrupt;
import dev.aguistate.protocol.Message;
import dev.aguistate.threads.StoreUnavailable;
import dev.aguistate.threads.StoredThread;
import dev.aguistate.threads.ThreadStore;
import dev.aguistate.threads.ThreadSummary;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import org.eclipse.microprofile.openapi.annotations.Operation;

/**
 * The caller's threads: list, read, delete. Another user's thread answers 404, exactly like a missing one, so
 * thread ids leak nothing. Bodies use the AG-UI JSON rules, so messages can go straight back into a client.
 */
@Path("/threads")
@Produces(MediaType.APPLICATION_JSON)
public class ThreadsResource {

    /** A page of the caller's threads, most recently updated first. */
    public record ThreadList(List<ThreadSummary> threads, int offset, int limit) {}

    /** A thread with its state and complete history. */
    public record ThreadView(String threadId, String agent, long version, Instant createdAt, Instant updatedAt,
                             JsonNode state, List<Message> messages, List<Interrupt> pendingInterrupts) {}

    private static final int MAX_PAGE = 100;

    private final ThreadStore store;
    private final UserResolver users;

    ThreadsResource(ThreadStore store, UserResolver users) {
        this.store = store;
        this.users = users;
    }

    @GET
    @Operation(summary = "The caller's threads, most recently updated first, without messages")
    public Uni<Response> list(@HeaderParam("Authorization") String authorization,
                              @QueryParam("offset") @DefaultValue("0") int offset,
                              @QueryParam("limit") @DefaultValue("20") int limit) {
        if (offset < 0 || limit < 1 || limit > MAX_PAGE) {
            return Uni.createFrom().item(new ErrorBody(400, "invalid_page",
                    "offset must be >= 0 and limit between 1 and " + MAX_PAGE).toResponse());
        }
        return asUser(authorization, user -> store.list(user, offset, limit)
                .onItem().transform(threads -> json(new ThreadList(threads, offset, limit))));
    }

    @GET
    @Path("/{threadId}")
    @Operation(summary = "A thread's state and complete message history")
    public Uni<Response> get(@HeaderParam("Authorization") String authorization, @PathParam("threadId") String id) {
        return asUser(authorization, user -> store.load(id).onItem().transform(thread -> thread
                .filter(t -> t.owner().equals(user))
                .map(t -> json(view(t)))
                .orElseGet(() -> ThreadRuns.threadNotFound(id).toResponse())));
    }

    @DELETE
    @Path("/{threadId}")
    @Operation(summary = "Delete a thread and its history")
    public Uni<Response> delete(@HeaderParam("Authorization") String authorization, @PathParam("threadId") String id) {
        return asUser(authorization, user -> store.load(id).onItem().transformToUni(thread -> {
            if (thread.isEmpty() || !thread.get().owner().equals(user)) {
                return Uni.createFrom().item(ThreadRuns.threadNotFound(id).toResponse());
            }
            return store.delete(id).onItem().transform(deleted -> Response.noContent().build());
        }));
    }

    private Uni<Response> asUser(String authorization, Function<String, Uni<Response>> action) {
        return users.resolve(authorization)
                .map(action.andThen(answer -> answer.onFailure(StoreUnavailable.class)
                        .recoverWithItem(() -> ErrorBody.STORE_UNAVAILABLE.toResponse())))
                .orElseGet(() -> Uni.createFrom().item(UserResolver.unauthorized().toResponse()));
    }

    private static ThreadView view(StoredThread thread) {
        return new ThreadView(thread.threadId(), thread.agent(), thread.version(), thread.createdAt(),
                thread.updatedAt(), thread.state(), thread.messages(), thread.meta().openInterrupts());
    }

    private static Response json(Object body) {
        return Response.ok(AgUiJson.write(body), MediaType.APPLICATION_JSON).build();
    }
}
