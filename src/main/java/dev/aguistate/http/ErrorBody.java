package dev.aguistate.http;

import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.protocol.IdRules;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerResponse;
import jakarta.ws.rs.core.Response;
import java.util.Optional;

/**
 * The JSON body of every 4xx/5xx answered before a stream opens: {@code {"status","code","message"}}.
 * The message names the problem; it never carries a stack trace. A 503 or 429 says when to try again
 * ({@code Retry-After}).
 */
public record ErrorBody(int status, String code, String message) {

    static final String CONTENT_TYPE = "application/json";

    /** The answer for a missing thread and for another user's, alike, so that ids leak nothing. */
    public static ErrorBody threadNotFound(String threadId) {
        return new ErrorBody(404, "thread_not_found", "there is no thread '" + threadId + "'");
    }

    /**
     * The answer for a thread id that breaks the id rules ({@link IdRules}), given at the door as for a run's, so that
     * no store is asked about an id it cannot hold (PostgreSQL's {@code text} cannot hold NUL, and answered 503).
     */
    public static Optional<ErrorBody> invalidThreadId(String threadId) {
        return IdRules.violation(threadId).map(violation ->
                new ErrorBody(422, "invalid_thread_id", "threadId " + violation));
    }

    /**
     * {@code POST /agui} on a server with several agents and no {@code agui.agents.default}. The paths it names are
     * under {@code root} ({@code agui.http.root}), as the routes are.
     */
    public static ErrorBody noDefaultAgent(BasePath root) {
        return new ErrorBody(404, "unknown_agent", "there is no default agent: name one in the path (POST "
                + root.path("/agui/{agent}") + "; " + agentsListed(root) + ") or set agui.agents.default");
    }

    public static ErrorBody unknownAgent(BasePath root, String name) {
        return new ErrorBody(404, "unknown_agent", "there is no agent named '" + name + "'; " + agentsListed(root));
    }

    private static String agentsListed(BasePath root) {
        return "GET " + root.path("/agui/agents") + " lists them";
    }

    /**
     * The error for a bare HTTP status that the frameworks produce (no such path, a method the path does not take,
     * a request they refuse), with a code a client can match like ours.
     */
    static ErrorBody ofStatus(int status) {
        return ofStatus(status, "the request was refused (HTTP " + status + ")");
    }

    static ErrorBody ofStatus(int status, String message) {
        String code = switch (status) {
            case 404 -> "not_found";
            case 405 -> "method_not_allowed";
            case 406 -> "not_acceptable";
            case 413 -> "request_too_large";
            case 415 -> "unsupported_media_type";
            default -> status >= 500 ? "internal_error" : "bad_request";
        };
        return new ErrorBody(status, code, message);
    }

    /**
     * Seconds a client should wait after a 503 or 429: the default {@code agui.store.timeout}, by which a stalled
     * store's connections are being replaced; unfinished bodies that fill the server are finished, closed or timed out
     * at a similar pace.
     */
    static final String RETRY_AFTER_SECONDS = "5";

    public static final ErrorBody STORE_UNAVAILABLE = new ErrorBody(503, "store_unavailable",
            "the thread store cannot be reached; try again");

    /** The same error as a JAX-RS response, for the resources. */
    Response toResponse() {
        Response.ResponseBuilder response = Response.status(status).type(CONTENT_TYPE).entity(AgUiJson.write(this));
        if (saysWhenToRetry()) {
            response.header("Retry-After", RETRY_AFTER_SECONDS);
        }
        return response.build();
    }

    private boolean saysWhenToRetry() {
        return status == 503 || status == 429;
    }

    /** Completes once the answer is written (or, after the headers went out, the connection closed). */
    Future<Void> send(HttpServerResponse response) {
        if (response.headWritten()) {
            response.close();
            return Future.succeededFuture();
        }
        if (saysWhenToRetry() && !response.headers().contains("Retry-After")) {
            response.putHeader("Retry-After", RETRY_AFTER_SECONDS);
        }
        return response.setStatusCode(status)
                .putHeader("Content-Type", CONTENT_TYPE)
                .putHeader("Cache-Control", "no-store")
                .end(AgUiJson.write(this));
    }
}
