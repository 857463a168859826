package dev.aguistate.copilotkit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.http.RunEndpoints;
import dev.aguistate.protocol.AgUiJson;
import java.io.IOException;

/**
 * One request of CopilotKit's single-endpoint transport: {@code {"method", "params", "body"}} posted to the base
 * path. The methods its client sends: {@code info}, {@code agent/run}, {@code agent/connect}, {@code agent/stop}, and
 * {@code resource/request} for the thread endpoints.
 */
sealed interface SingleRouteCall {

    record Info() implements SingleRouteCall {}

    /** {@code agent/run} or {@code agent/connect}: {@code input} is the envelope's {@code body}, a RunAgentInput. */
    record Stream(RunEndpoints.Stream kind, String agentId, byte[] input) implements SingleRouteCall {}

    record Stop(String agentId, String threadId, JsonNode body) implements SingleRouteCall {}

    /** A thread endpoint: {@code path} from {@code /threads} on, with its query string. */
    record Resource(String httpMethod, String path) implements SingleRouteCall {}

    /** @throws IllegalArgumentException naming what is wrong with the envelope */
    static SingleRouteCall parse(byte[] envelope) {
        JsonNode call = json(envelope);
        if (!call.isObject()) {
            throw new IllegalArgumentException("the single route takes {\"method\", \"params\", \"body\"}");
        }
        JsonNode params = call.path("params");
        JsonNode method = call.get("method");
        if (method == null || !method.isTextual()) {
            throw new IllegalArgumentException("missing method field");
        }
        return switch (method.textValue()) {
            case "info" -> new Info();
            case "agent/run" -> new Stream(RunEndpoints.Stream.RUN, text(params, "agentId"), body(call));
            case "agent/connect" -> new Stream(RunEndpoints.Stream.CONNECT, text(params, "agentId"), body(call));
            case "agent/stop" -> new Stop(text(params, "agentId"), text(params, "threadId"), call.get("body"));
            case "resource/request" -> new Resource(params.path("httpMethod").asText("GET"), text(params, "path"));
            default -> throw new IllegalArgumentException("unsupported method '" + method.textValue()
                    + "'; this server answers info, agent/run, agent/connect, agent/stop and resource/request");
        };
    }

    /** @throws IllegalArgumentException when the bytes are not JSON */
    static JsonNode json(byte[] bytes) {
        try {
            return AgUiJson.mapper().readTree(bytes);
        } catch (IOException e) {
            throw new IllegalArgumentException("the body is not valid JSON");
        }
    }

    private static String text(JsonNode params, String key) {
        JsonNode value = params.get(key);
        if (value == null || !value.isTextual() || value.textValue().isBlank()) {
            throw new IllegalArgumentException("missing or invalid parameter '" + key + "'");
        }
        return value.textValue();
    }

    private static byte[] body(JsonNode call) {
        JsonNode body = call.get("body");
        if (body == null || body.isNull()) {
            throw new IllegalArgumentException("missing body: the RunAgentInput of the run");
        }
        return body.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
