package dev.aguistate.copilotkit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.http.RunEndpoints;
import dev.aguistate.protocol.InvalidRunInput;
import dev.aguistate.protocol.RunAgentInputReader;

/**
 * One request of CopilotKit's single-endpoint transport: {@code {"method", "params", "body"}} posted to the base
 * path. The methods its client sends: {@code info}, {@code agent/run}, {@code agent/connect}, {@code agent/stop}, and
 * {@code resource/request} for the thread endpoints.
 */
sealed interface SingleRouteCall {

    record Info() implements SingleRouteCall {}

    /** {@code agent/run} or {@code agent/connect}: {@code input} is the envelope's {@code body}, a RunAgentInput. */
    record Stream(RunEndpoints.Stream kind, String agentId, JsonNode input) implements SingleRouteCall {}

    record Stop(String agentId, String threadId, JsonNode body) implements SingleRouteCall {}

    /** A thread endpoint: {@code path} from {@code /threads} on, with its query string; {@code body} null for none. */
    record Resource(String httpMethod, String path, JsonNode body) implements SingleRouteCall {}

    /**
     * Reads the envelope by the run input's rules ({@link RunAgentInputReader#readTree}): the input it carries is a
     * run request's body, and is held to them whichever route brought it.
     *
     * @throws InvalidRunInput when the envelope is not JSON by those rules, or holds a value they refuse
     * @throws IllegalArgumentException naming what is wrong with the envelope's shape
     */
    static SingleRouteCall parse(byte[] envelope) {
        JsonNode call = RunAgentInputReader.readTree(envelope);
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
            case "resource/request" -> new Resource(params.path("httpMethod").asText("GET"), text(params, "path"),
                    call.get("body"));
            default -> throw new IllegalArgumentException("unsupported method '" + method.textValue()
                    + "'; this server answers info, agent/run, agent/connect, agent/stop and resource/request");
        };
    }

    private static String text(JsonNode params, String key) {
        JsonNode value = params.get(key);
        if (value == null || !value.isTextual() || value.textValue().isBlank()) {
            throw new IllegalArgumentException("missing or invalid parameter '" + key + "'");
        }
        return value.textValue();
    }

    private static JsonNode body(JsonNode call) {
        JsonNode body = call.get("body");
        if (body == null || body.isNull()) {
            throw new IllegalArgumentException("missing body: the RunAgentInput of the run");
        }
        return body;
    }
}
