package dev.aguistate.http;

import dev.aguistate.protocol.AgUiJson;
import io.vertx.core.http.HttpServerResponse;
import jakarta.ws.rs.core.Response;

/**
 * The JSON body of every 4xx/5xx answered before a stream opens: {@code {"status","code","message"}}.
 * The message names the problem; it never carries a stack trace. A 503 says when to try again ({@code Retry-After}).
 */
public record ErrorBody(int status, String code, String message) {

    static final String CONTENT_TYPE = "application/json";

    /**
     * Seconds a client should wait after a 503: the default {@code agui.store.timeout}, by which a stalled store's
     * connections are being replaced.
     */
    static final String RETRY_AFTER_SECONDS = "5";

    static final ErrorBody STORE_UNAVAILABLE = new ErrorBody(503, "store_unavailable",
            "the thread store cannot be reached; try again");

    /** The same error as a JAX-RS response, for the resources. */
    Response toResponse() {
        Response.ResponseBuilder response = Response.status(status).type(CONTENT_TYPE).entity(AgUiJson.write(this));
        if (status == 503) {
            response.header("Retry-After", RETRY_AFTER_SECONDS);
        }
        return response.build();
    }

    void send(HttpServerResponse response) {
        if (response.headWritten()) {
            response.close();
            return;
        }
        if (status == 503) {
            response.putHeader("Retry-After", RETRY_AFTER_SECONDS);
        }
        response.setStatusCode(status)
                .putHeader("Content-Type", CONTENT_TYPE)
                .putHeader("Cache-Control", "no-store")
                .end(AgUiJson.write(this));
    }
}
