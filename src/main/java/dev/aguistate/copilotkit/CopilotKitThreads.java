package dev.aguistate.copilotkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.http.ErrorBody;
import dev.aguistate.http.RequestGate;
import dev.aguistate.http.ThreadApi;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.protocol.Message;
import dev.aguistate.session.Caller;
import dev.aguistate.session.ThreadAccess;
import dev.aguistate.session.ThreadUpdate;
import dev.aguistate.store.StoreUnavailable;
import dev.aguistate.store.StoredThread;
import dev.aguistate.store.ThreadSummary;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * CopilotKit's thread endpoints over our thread store, for the caller's threads only (another user's thread answers
 * 404, like a missing one): {@code GET /threads} (optionally {@code ?agentId=}, {@code includeArchived=true}, and
 * this server's filters, paged by an opaque {@code cursor}), {@code GET /threads/{id}/messages},
 * {@code GET /threads/{id}/state}, {@code PATCH /threads/{id}} (rename, unarchive, metadata),
 * {@code POST /threads/{id}/archive}, {@code DELETE /threads/{id}}: the requests of CopilotKit's thread store
 * ({@code useThreads}, the threads drawer). What needs CopilotKit's Intelligence platform (realtime subscriptions, a
 * thread's raw events, clearing every thread) answers {@code 422 not_supported}, as CopilotKit's own runtime does
 * without that platform.
 */
@ApplicationScoped
@Startup
class CopilotKitThreads {

    /**
     * A thread as CopilotKit lists it ({@code name} null when it has none); {@code metadata} is this server's,
     * beside CopilotKit's fields. {@code lastRunAt} is when its latest run ended.
     */
    record ThreadRecord(String id, String name, String agentId, String createdById, boolean archived,
                        Instant createdAt, Instant updatedAt, Instant lastRunAt, JsonNode metadata) {

        static ThreadRecord of(ThreadSummary thread, String user) {
            return new ThreadRecord(thread.threadId(), thread.info().name(), thread.agent(), user,
                    thread.info().archived(), thread.createdAt(), thread.updatedAt(),
                    thread.lastRun() == null ? null : thread.lastRun().endedAt(), thread.info().metadata());
        }

        static ThreadRecord of(StoredThread thread, String user) {
            return of(thread.summary(), user);
        }
    }

    record ThreadList(List<ThreadRecord> threads, String nextCursor) {}

    private static final int DEFAULT_PAGE = 50;

    private final ThreadAccess access;
    private final ThreadApi api;
    private final Vertx vertx;

    CopilotKitThreads(ThreadAccess access, ThreadApi api, Vertx vertx) {
        this.access = access;
        this.api = api;
        this.vertx = vertx;
    }

    /**
     * Answers one thread request.
     *
     * @param resource the path from {@code /threads} on, with its query string, e.g. {@code /threads?agentId=chat}
     * @param body     the request's JSON body, null when it has none
     */
    void handle(RoutingContext ctx, Caller caller, String httpMethod, String resource, JsonNode body) {
        QueryStringDecoder uri;
        List<String> segments;
        try {
            uri = new QueryStringDecoder(resource);
            segments = Arrays.stream(uri.rawPath().split("/")).filter(s -> !s.isEmpty())
                    .map(s -> URLDecoder.decode(s, StandardCharsets.UTF_8)).toList();
            uri.parameters(); // decoded here, so that a bad escape in the query is refused as well

        } catch (IllegalArgumentException malformed) {
            RequestGate.reject(ctx, new ErrorBody(400, "invalid_path", "the resource path has a malformed "
                    + "percent-escape (%XX, two hexadecimal digits)"));
            return;
        }
        if (segments.isEmpty() || !segments.get(0).equals("threads") || segments.size() > 3) {
            RequestGate.reject(ctx, new ErrorBody(404, "not_found", "there is no thread endpoint at " + uri.rawPath()));
            return;
        }
        String method = httpMethod.toUpperCase(java.util.Locale.ROOT);
        List<String> rest = segments.subList(1, segments.size());
        Optional<ErrorBody> invalidId = rest.isEmpty() ? Optional.empty() : ErrorBody.invalidThreadId(rest.get(0));
        if (invalidId.isPresent()) {
            RequestGate.reject(ctx, invalidId.get());
            return;
        }
        if (rest.isEmpty()) {
            if (allowed(ctx, method, "GET")) {
                list(ctx, caller, uri);
            }
        } else if (rest.size() == 1 && (rest.get(0).equals("subscribe") || rest.get(0).equals("clear"))) {
            notSupported(ctx, "/threads/" + rest.get(0));
        } else if (rest.size() == 1) {
            if (method.equals("PATCH")) {
                answer(ctx, api.update(caller, rest.get(0), body, thread -> ThreadRecord.of(thread, caller.user())));
            } else if (allowed(ctx, method, "PATCH, DELETE")) {
                answer(ctx, access.delete(rest.get(0), caller).map(deleted -> deleted
                        ? (Object) new Deleted(rest.get(0), true) : ErrorBody.threadNotFound(rest.get(0))));
            }
        } else {
            String threadId = rest.get(0);
            switch (rest.get(1)) {
                case "messages" -> {
                    if (allowed(ctx, method, "GET")) {
                        answer(ctx, inspect(threadId, caller, thread -> new Messages(thread.messages().stream()
                                .map(CopilotKitThreads::copilotKitMessage).toList())));
                    }
                }
                case "state" -> {
                    if (allowed(ctx, method, "GET")) {
                        answer(ctx, inspect(threadId, caller, thread -> new ThreadState(thread.state())));
                    }
                }
                case "archive" -> {
                    if (allowed(ctx, method, "POST")) {
                        answer(ctx, api.update(caller, threadId, ThreadUpdate.archiving(true),
                                thread -> ThreadRecord.of(thread, caller.user())));
                    }
                }
                case "events" -> notSupported(ctx, "/threads/{threadId}/" + rest.get(1));
                default -> RequestGate.reject(ctx, new ErrorBody(404, "not_found",
                        "there is no thread endpoint at " + uri.rawPath()));
            }
        }
    }

    record Deleted(String threadId, boolean deleted) {}

    record Messages(List<JsonNode> messages) {}

    record ThreadState(JsonNode state) {}

    private Uni<Object> inspect(String threadId, Caller caller, Function<StoredThread, Object> view) {
        return access.load(threadId, caller).map(thread -> thread.<Object>map(view)
                .orElseGet(() -> ErrorBody.threadNotFound(threadId)));
    }

    private void list(RoutingContext ctx, Caller caller, QueryStringDecoder uri) {
        ThreadApi.ListQuery query;
        try {
            query = ThreadApi.ListQuery.of(uri.parameters(), DEFAULT_PAGE);
        } catch (ThreadApi.InvalidQuery invalid) {
            RequestGate.reject(ctx, invalid.error());
            return;
        }
        answer(ctx, api.list(caller, query, thread -> ThreadRecord.of(thread, caller.user()))
                .map(page -> (Object) new ThreadList(page.threads(), page.nextCursor())));
    }

    /**
     * A message as CopilotKit's runtime lists it: id, role, content; an assistant's tool calls as
     * {@code {id, name, args}}; a tool result's {@code toolCallId}.
     */
    static JsonNode copilotKitMessage(Message message) {
        JsonNode full = AgUiJson.mapper().valueToTree(message);
        ObjectNode listed = AgUiJson.mapper().createObjectNode();
        listed.set("id", full.get("id"));
        listed.set("role", full.get("role"));
        if (full.hasNonNull("content")) {
            listed.set("content", full.get("content"));
        }
        if (full.hasNonNull("toolCallId")) {
            listed.set("toolCallId", full.get("toolCallId"));
        }
        if (full.path("toolCalls").size() > 0) {
            ArrayNode calls = listed.putArray("toolCalls");
            for (JsonNode call : full.get("toolCalls")) {
                calls.addObject().put("id", call.path("id").asText())
                        .put("name", call.path("function").path("name").asText())
                        .put("args", call.path("function").path("arguments").asText());
            }
        }
        return listed;
    }

    private static boolean allowed(RoutingContext ctx, String method, String allow) {
        if (Arrays.stream(allow.split(", ")).anyMatch(method::equals)) {
            return true;
        }
        ctx.response().putHeader("Allow", allow);
        RequestGate.reject(ctx, new ErrorBody(405, "method_not_allowed",
                method + " is not allowed on this thread endpoint; allowed: " + allow));
        return false;
    }

    private static void notSupported(RoutingContext ctx, String what) {
        RequestGate.reject(ctx, new ErrorBody(422, "not_supported", what + " needs CopilotKit's Intelligence platform; "
                + "this server lists, reads, renames, archives and deletes threads (docs/copilotkit.md)"));
    }

    /** Writes the answer (a body, or an {@link ErrorBody}); a store that did not answer is a 503. */
    private void answer(RoutingContext ctx, Uni<Object> answer) {
        Context context = vertx.getOrCreateContext();
        answer.subscribe().with(body -> context.runOnContext(v -> {
            if (body instanceof ErrorBody error) {
                RequestGate.reject(ctx, error);
            } else {
                CopilotKitRoute.json(ctx, body);
            }
        }), failure -> context.runOnContext(v -> {
            if (failure instanceof StoreUnavailable) {
                RequestGate.reject(ctx, ErrorBody.STORE_UNAVAILABLE);
            } else {
                ctx.fail(failure);
            }
        }));
    }
}
