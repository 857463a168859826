package dev.aguistate.http;

import dev.aguistate.protocol.AgUiJson;
import io.vertx.core.http.HttpServerResponse;
import jakarta.ws.rs.core.Response;

/**
 * The JSON body of every 4xx/5xx answered before a stream opens: {@code {"status","code","message"}}.
 * The message names the problem; it never carries a stack trace.
 */
public record ErrorBody(int status, String code, String message) {

    static final String CONTENT_TYPE = "application/json";

    /** The answer for a missing thread and for another user's, alike, so that ids leak nothing. */
    static ErrorBody threadNotFound(String threadId) {
        return new ErrorBody(404, "thread_not_found", "there is no thread '" + threadId + "'");
    }

    /** The same error as a JAX-RS response, for the resources. */
    Response toResponse() {
        return Response.status(status).type(CONTENT_TYPE).entity(AgUiJson.write(this)).build();
    }

    void send(HttpServerResponse response) {
        if (response.headWritten()) {
            response.close();
            return;
        }
        response.setStatusCode(status)
                .putHeader("Content-Type", CONTENT_TYPE)
                .putHeader("Cache-Control", "no-store")
                .end(AgUiJson.write(this));
    }
}
