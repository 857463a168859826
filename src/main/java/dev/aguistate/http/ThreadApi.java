package dev.aguistate.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.protocol.InvalidRunInput;
import dev.aguistate.protocol.RunAgentInputReader;
import dev.aguistate.session.Caller;
import dev.aguistate.session.ThreadAccess;
import dev.aguistate.session.ThreadFilter;
import dev.aguistate.session.ThreadUpdate;
import dev.aguistate.store.StoredThread;
import dev.aguistate.store.ThreadSummary;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The thread API's listing and changes, apart from how a route receives them: the thread API ({@code /threads})
 * and CopilotKit's thread endpoints both answer through it. An answer is a body or an {@link ErrorBody}.
 */
@ApplicationScoped
@Startup
public class ThreadApi {

    /**
     * A listing's parameters as read from a query string.
     *
     * @param from where the page starts in the caller's threads (a cursor)
     */
    public record ListQuery(ThreadFilter filter, int from, int limit) {

        public static final int MAX_PAGE = 100;
        private static final String METADATA = "metadata.";

        /**
         * Reads {@code agent} (or {@code agentId}), {@code archived} ({@code false}, the default, {@code true} or
         * {@code all}; {@code includeArchived=true} is {@code all}), {@code metadata.<key>=<value>}, {@code q},
         * {@code cursor} (or {@code offset}) and {@code limit}.
         *
         * @throws InvalidQuery naming the parameter that is wrong
         */
        public static ListQuery of(Map<String, List<String>> parameters, int defaultLimit) {
            Map<String, String> metadata = new LinkedHashMap<>();
            parameters.forEach((name, values) -> {
                if (name.startsWith(METADATA) && name.length() > METADATA.length() && !values.isEmpty()) {
                    metadata.put(name.substring(METADATA.length()), values.get(0));
                }
            });
            ThreadFilter.Archived archived = switch (first(parameters, "archived").orElse(
                    first(parameters, "includeArchived").filter("true"::equals).map(all -> "all").orElse("false"))) {
                case "false" -> ThreadFilter.Archived.HIDDEN;
                case "true" -> ThreadFilter.Archived.ONLY;
                case "all" -> ThreadFilter.Archived.INCLUDED;
                default -> throw new InvalidQuery(new ErrorBody(400, "invalid_filter",
                        "archived is false (the default), true or all"));
            };
            int from = wholeNumber(first(parameters, "cursor").or(() -> first(parameters, "offset")).orElse("0"));
            int limit = wholeNumber(first(parameters, "limit").orElse(String.valueOf(defaultLimit)));
            if (from < 0 || limit < 1 || limit > MAX_PAGE) {
                throw new InvalidQuery(new ErrorBody(400, "invalid_page", "limit must be a whole number between 1 "
                        + "and " + MAX_PAGE + ", cursor one a listing returned (offset a whole number >= 0)"));
            }
            return new ListQuery(new ThreadFilter(first(parameters, "agent").or(() -> first(parameters, "agentId")),
                    archived, metadata, first(parameters, "q").filter(q -> !q.isEmpty())), from, limit);
        }

        private static Optional<String> first(Map<String, List<String>> parameters, String name) {
            List<String> values = parameters.get(name);
            return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
        }

        /** The parameter's value, or -1 when it is not a whole number (of at most nine digits). */
        static int wholeNumber(String parameter) {
            return parameter.matches("[0-9]{1,9}") ? Integer.parseInt(parameter) : -1;
        }
    }

    /** A query string that names no listing: the error to answer with. */
    public static final class InvalidQuery extends RuntimeException {

        private final ErrorBody error;

        InvalidQuery(ErrorBody error) {
            super(error.message(), null, false, false);
            this.error = error;
        }

        public ErrorBody error() {
            return error;
        }
    }

    private final ThreadAccess access;

    ThreadApi(ThreadAccess access) {
        this.access = access;
    }

    /** A page of the caller's threads, each as {@code view} shows it, and the cursor of the next page. */
    public <T> Uni<Page<T>> list(Caller caller, ListQuery query,
                                 Function<ThreadSummary, T> view) {
        return access.list(caller, query.filter(), query.from(), query.limit()).map(page -> new Page<>(
                page.threads().stream().map(view).toList(),
                page.next().isPresent() ? String.valueOf(page.next().getAsInt()) : null));
    }

    /** @param nextCursor null on the last page */
    public record Page<T>(List<T> threads, String nextCursor) {}

    /**
     * Changes the caller's thread by a {@code PATCH} body ({@link ThreadUpdate#of}); answers the thread as
     * {@code view} shows it, or an error: 400 for a body that is not such a change, 404 for no such thread of
     * theirs, 413 for metadata past {@code agui.threads.max-metadata-bytes}.
     */
    public Uni<Object> update(Caller caller, String threadId, byte[] body, Function<StoredThread, Object> view) {
        JsonNode json;
        try {
            json = body.length == 0 ? null : RunAgentInputReader.readTree(body);
        } catch (InvalidRunInput invalid) {
            return Uni.createFrom().item(new ErrorBody(400, "invalid_request", invalid.getMessage()));
        }
        return update(caller, threadId, json, view);
    }

    /** As {@link #update(Caller, String, byte[], Function)}, for a body already read as JSON (null: none). */
    public Uni<Object> update(Caller caller, String threadId, JsonNode body, Function<StoredThread, Object> view) {
        ThreadUpdate update;
        try {
            update = ThreadUpdate.of(body);
        } catch (IllegalArgumentException invalid) {
            return Uni.createFrom().item(new ErrorBody(400, "invalid_request", invalid.getMessage()));
        }
        return update(caller, threadId, update, view);
    }

    /** As {@link #update(Caller, String, byte[], Function)}, for a change already read. */
    public Uni<Object> update(Caller caller, String threadId, ThreadUpdate update,
                              Function<StoredThread, Object> view) {
        return access.update(threadId, caller, update)
                .map(changed -> changed.map(view).orElseGet(() -> ErrorBody.threadNotFound(threadId)))
                .onFailure(ThreadAccess.MetadataTooLarge.class).recoverWithItem(tooLarge ->
                        new ErrorBody(413, "metadata_too_large", tooLarge.getMessage()));
    }
}
