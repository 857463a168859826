package dev.aguistate.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** Builds run request bodies (RunAgentInput JSON) for tests. */
public final class RunRequests {

    public static final ObjectMapper JSON = new ObjectMapper();

    private final ObjectNode body = JSON.createObjectNode();

    /** A 1.0 client's request: it states its protocol version, as @ag-ui/client 1.0 does. */
    private RunRequests(String threadId, String runId) {
        body.put("threadId", threadId).put("runId", runId).put("protocolVersion", "1.0");
        body.putArray("messages");
        body.putArray("tools");
        body.putArray("context");
    }

    /** A request with fresh random ids. */
    public static RunRequests fresh() {
        return new RunRequests("thread-" + UUID.randomUUID(), "run-" + UUID.randomUUID());
    }

    public static RunRequests of(String threadId, String runId) {
        return new RunRequests(threadId, runId);
    }

    public String threadId() {
        return body.get("threadId").asText();
    }

    public String runId() {
        return body.get("runId").asText();
    }

    /** The request as a client before AG-UI 1.0 sends it: without a protocol version. */
    public RunRequests beforeOneZero() {
        body.remove("protocolVersion");
        return this;
    }

    /** {@code forwardedProps.multitask}: what the request does when its thread is busy. */
    public RunRequests multitask(String strategy) {
        JsonNode props = body.get("forwardedProps");
        (props instanceof ObjectNode object ? object : body.putObject("forwardedProps")).put("multitask", strategy);
        return this;
    }

    public RunRequests user(String text) {
        messages().addObject().put("id", "msg-" + UUID.randomUUID()).put("role", "user").put("content", text);
        return this;
    }

    public RunRequests message(ObjectNode message) {
        messages().add(message);
        return this;
    }

    public RunRequests tool(String name, String description, String parametersJson) {
        ObjectNode tool = ((ArrayNode) body.get("tools")).addObject().put("name", name).put("description", description);
        if (parametersJson != null) {
            tool.set("parameters", parse(parametersJson));
        }
        return this;
    }

    public RunRequests context(String description, String value) {
        ((ArrayNode) body.get("context")).addObject().put("description", description).put("value", value);
        return this;
    }

    public ArrayNode messages() {
        return (ArrayNode) body.get("messages");
    }

    public ObjectNode body() {
        return body;
    }

    public String json() {
        return body.toString();
    }

    /** The text of each message of {@code role} in a request, a thread or an LLM request ({@code messages}), in order. */
    public static List<String> contents(JsonNode withMessages, String role) {
        List<String> contents = new ArrayList<>();
        withMessages.path("messages").forEach(message -> {
            if (message.path("role").asText().equals(role)) {
                contents.add(message.path("content").asText());
            }
        });
        return contents;
    }

    public static ObjectNode parse(String json) {
        try {
            return (ObjectNode) JSON.readTree(json);
        } catch (Exception e) {
            throw new IllegalArgumentException(json, e);
        }
    }
}
