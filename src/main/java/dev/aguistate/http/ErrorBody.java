package dev.aguistate.http;

import dev.aguistate.protocol.AgUiJson;
import io.vertx.core.http.HttpServerResponse;

/**
 * The JSON body of every 4xx/5xx answered before a stream opens: {@code {"status","code","message"}}.
 * The message names the problem; it never carries a stack trace.
 */
public record ErrorBody(int status, String code, String message) {

    static final String CONTENT_TYPE = "application/json";

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
