package dev.aguistate.protocol;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidTypeIdException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Turns request bytes into a validated {@link RunAgentInput}, or an {@link InvalidRunInput} whose message
 * names the field at fault ("messages[2].toolCallId is required") in the protocol's terms, not Java's.
 */
public final class RunAgentInputReader {

    private RunAgentInputReader() {}

    public static RunAgentInput read(byte[] body) {
        // Two steps, so that "not JSON at all" (including trailing garbage) and "JSON of the wrong shape"
        // are told apart reliably.
        JsonNode tree;
        try {
            tree = AgUiJson.mapper().readTree(body);
        } catch (MismatchedInputException e) {
            // readTree only reports a mismatch for content after the document (FAIL_ON_TRAILING_TOKENS)
            throw InvalidRunInput.malformedJson("malformed JSON: unexpected content after the JSON object at line "
                    + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr());
        } catch (JsonProcessingException e) {
            throw InvalidRunInput.malformedJson("malformed JSON at line " + e.getLocation().getLineNr()
                    + ", column " + e.getLocation().getColumnNr() + ": " + e.getOriginalMessage());
        } catch (IOException e) {
            throw InvalidRunInput.malformedJson("unreadable request body");
        }
        if (tree == null || tree.isMissingNode()) {
            throw InvalidRunInput.malformedJson("the request body is empty");
        }
        if (!tree.isObject()) {
            throw InvalidRunInput.invalid("the request body must be a JSON object (RunAgentInput), not "
                    + tree.getNodeType().name().toLowerCase(Locale.ROOT));
        }
        dropNullMetadata(tree);
        RunAgentInput input;
        try {
            input = AgUiJson.mapper().treeToValue(tree, RunAgentInput.class);
        } catch (InvalidTypeIdException e) {
            String at = path(e);
            throw InvalidRunInput.invalid(e.getTypeId() == null
                    ? at + " has no '" + discriminator(e) + "' field"
                    : at + ": unknown " + discriminator(e) + " '" + e.getTypeId() + "'");
        } catch (MismatchedInputException e) {
            throw InvalidRunInput.invalid(path(e) + " has the wrong type"
                    + (e.getTargetType() == null ? "" : ": expected " + describe(e.getTargetType())));
        } catch (JsonProcessingException e) {
            throw InvalidRunInput.invalid((e instanceof JsonMappingException m ? path(m) : "the request body")
                    + " is invalid");
        }
        validate(input);
        return input;
    }

    /**
     * {@code "metadata": null} means "no metadata" to lenient producers, but the official client rejects it, and
     * stored messages go back to clients (MESSAGES_SNAPSHOT, the thread API): so it is dropped on the way in.
     */
    private static void dropNullMetadata(JsonNode body) {
        for (String list : List.of("messages", "tools", "resume")) {
            for (JsonNode item : body.path(list)) {
                removeNullMetadata(item);
                item.path("toolCalls").forEach(RunAgentInputReader::removeNullMetadata);
                if (item.path("content").isArray()) {
                    item.get("content").forEach(RunAgentInputReader::removeNullMetadata);
                }
            }
        }
    }

    private static void removeNullMetadata(JsonNode node) {
        if (node instanceof ObjectNode object && object.path("metadata").isNull()) {
            object.remove("metadata");
        }
    }

    private static void validate(RunAgentInput input) {
        require(input.threadId(), "threadId");
        require(input.runId(), "runId");
        if (input.messages() == null) {
            throw InvalidRunInput.invalid("messages is required (an array, possibly empty)");
        }
        Set<String> ids = new HashSet<>();
        List<Message> messages = input.messages();
        for (int i = 0; i < messages.size(); i++) {
            Message m = messages.get(i);
            String at = "messages[" + i + "]";
            if (m == null) {
                throw InvalidRunInput.invalid(at + " must be a message object");
            }
            require(m.id(), at + ".id");
            if (!ids.add(m.id())) {
                throw InvalidRunInput.invalid(at + ".id '" + m.id() + "' is used by an earlier message");
            }
            if (m instanceof Message.Tool t) {
                require(t.toolCallId(), at + ".toolCallId");
                requirePresent(t.content(), at + ".content");
            } else if (m instanceof Message.User u) {
                requirePresent(u.content(), at + ".content");
            } else if (m instanceof Message.System s) {
                requirePresent(s.content(), at + ".content");
            } else if (m instanceof Message.Developer d) {
                requirePresent(d.content(), at + ".content");
            } else if (m instanceof Message.Assistant a) {
                validateToolCalls(a.toolCalls(), at);
            }
        }
        for (int i = 0; i < input.tools().size(); i++) {
            Tool tool = input.tools().get(i);
            require(tool == null ? null : tool.name(), "tools[" + i + "].name");
            if (tool.parameters() != null && !tool.parameters().isObject() && !tool.parameters().isNull()) {
                throw InvalidRunInput.invalid("tools[" + i + "].parameters must be a JSON Schema object");
            }
        }
        for (int i = 0; i < input.resume().size(); i++) {
            ResumeEntry entry = input.resume().get(i);
            require(entry == null ? null : entry.interruptId(), "resume[" + i + "].interruptId");
            if (!"resolved".equals(entry.status()) && !"cancelled".equals(entry.status())) {
                throw InvalidRunInput.invalid("resume[" + i + "].status must be 'resolved' or 'cancelled'");
            }
        }
    }

    private static void validateToolCalls(List<ToolCall> toolCalls, String at) {
        if (toolCalls == null) {
            return;
        }
        for (int j = 0; j < toolCalls.size(); j++) {
            ToolCall call = toolCalls.get(j);
            String callAt = at + ".toolCalls[" + j + "]";
            require(call == null ? null : call.id(), callAt + ".id");
            if (call.function() == null) {
                throw InvalidRunInput.invalid(callAt + ".function is required");
            }
            require(call.function().name(), callAt + ".function.name");
        }
    }

    private static void require(String value, String field) {
        if (value == null || value.isBlank()) {
            throw InvalidRunInput.invalid(field + " is required (a non-empty string)");
        }
    }

    private static void requirePresent(Object value, String field) {
        if (value == null) {
            throw InvalidRunInput.invalid(field + " is required");
        }
    }

    private static String discriminator(InvalidTypeIdException e) {
        return e.getBaseType() != null && e.getBaseType().getRawClass() == Message.class ? "role" : "type";
    }

    private static String path(JsonMappingException e) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getIndex() >= 0) {
                sb.append('[').append(ref.getIndex()).append(']');
            } else if (ref.getFieldName() != null) {
                if (!sb.isEmpty()) {
                    sb.append('.');
                }
                sb.append(ref.getFieldName());
            }
        }
        return sb.isEmpty() ? "the request body" : sb.toString();
    }

    private static String describe(Class<?> type) {
        if (UserContent.class.isAssignableFrom(type)) {
            return "a string or an array of content parts";
        }
        if (type == String.class) {
            return "a string";
        }
        if (List.class.isAssignableFrom(type)) {
            return "an array";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "a boolean";
        }
        if (Number.class.isAssignableFrom(type) || type.isPrimitive()) {
            return "a number";
        }
        return "an object";
    }
}
