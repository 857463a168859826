package dev.aguistate.protocol;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidTypeIdException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Turns request bytes into a validated {@link RunAgentInput}, or an {@link InvalidRunInput} whose message
 * names the field at fault ("messages[2].toolCallId is required") in the protocol's terms, not Java's.
 */
public final class RunAgentInputReader {

    private static final char BYTE_ORDER_MARK = '\uFEFF';
    /** Jackson names the Java setting behind a limit ("..., from `StreamReadConstraints.getMaxNestingDepth()`"). */
    private static final Pattern API_REFERENCE = Pattern.compile(", from `[^`]*`");

    private RunAgentInputReader() {}

    public static RunAgentInput read(byte[] body) {
        return read(readTree(body));
    }

    /**
     * The JSON document the bytes hold, read by this reader's rules (strict UTF-8, RFC 8259, the parser's limits, no
     * number a double changes, no lone surrogate): for a request that carries a run input inside a document of its
     * own, so that the envelope and the input in it are held to the same rules as a run request's body, and the
     * input reaches {@link #read(JsonNode)} as it was sent, never re-encoded.
     *
     * @throws InvalidRunInput naming what is wrong, {@linkplain InvalidRunInput#malformedJson() malformed} or not
     */
    public static JsonNode readTree(byte[] body) {
        return parse(decodeUtf8(body));
    }

    /** The run input a document {@link #readTree} read holds (it may be part of a larger document). */
    public static RunAgentInput read(JsonNode tree) {
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
     * Strict UTF-8 (RFC 3629): an overlong form ({@code C0 AF} for {@code /}), an encoded surrogate or a truncated
     * sequence is malformed, not read as some character; Jackson's own decoder is lenient about those. A leading
     * byte order mark is ignored, as RFC 8259 allows.
     */
    private static String decodeUtf8(byte[] body) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(body);
        CharBuffer out = CharBuffer.allocate(body.length);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            throw InvalidRunInput.malformedJson("the request body is not valid UTF-8 (at byte " + in.position() + ")");
        }
        out.flip();
        if (out.hasRemaining() && out.get(0) == BYTE_ORDER_MARK) {
            out.position(1);
        }
        return out.toString();
    }

    /**
     * Two steps, so that "not JSON at all" and "JSON of the wrong shape" are told apart reliably: the scan reports
     * syntax, limits and values that cannot be kept; the tree is then built from text known to be good.
     */
    private static JsonNode parse(String json) {
        try {
            JsonInputScan.check(json);
            return AgUiJson.mapper().readTree(json);
        } catch (StreamConstraintsException e) {
            // e.g. nesting deeper than 1000, a number of more than 1000 digits, a member name over 50,000 characters
            throw InvalidRunInput.malformedJson("the JSON exceeds a limit of this server: "
                    + API_REFERENCE.matcher(e.getOriginalMessage()).replaceAll(""));
        } catch (JsonProcessingException e) {
            JsonLocation at = e.getLocation();
            throw InvalidRunInput.malformedJson("malformed JSON"
                    + (at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr())
                    + ": " + e.getOriginalMessage());
        } catch (IOException e) {
            throw InvalidRunInput.malformedJson("unreadable request body");
        }
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
        requireId(input.threadId(), "threadId");
        requireId(input.runId(), "runId");
        if (input.parentRunId() != null) {
            requireId(input.parentRunId(), "parentRunId");
        }
        if (input.protocolVersion() != null && !ClientProtocol.isVersion(input.protocolVersion())) {
            throw InvalidRunInput.invalid("protocolVersion must be a version such as \"1.0\"");
        }
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
            requireId(m.id(), at + ".id");
            if (!ids.add(m.id())) {
                throw InvalidRunInput.invalid(at + ".id '" + m.id() + "' is used by an earlier message");
            }
            if (m instanceof Message.Tool t) {
                requireId(t.toolCallId(), at + ".toolCallId");
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
            requireId(tool == null ? null : tool.name(), "tools[" + i + "].name");
            if (tool.parameters() != null && !tool.parameters().isObject() && !tool.parameters().isNull()) {
                throw InvalidRunInput.invalid("tools[" + i + "].parameters must be a JSON Schema object");
            }
        }
        for (int i = 0; i < input.context().size(); i++) {
            Context context = input.context().get(i);
            if (context == null) {
                throw InvalidRunInput.invalid("context[" + i + "] must be an object with a description and a value");
            }
            requirePresent(context.description(), "context[" + i + "].description");
            requirePresent(context.value(), "context[" + i + "].value");
        }
        for (int i = 0; i < input.resume().size(); i++) {
            ResumeEntry entry = input.resume().get(i);
            requireId(entry == null ? null : entry.interruptId(), "resume[" + i + "].interruptId");
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
            requireId(call == null ? null : call.id(), callAt + ".id");
            if (call.function() == null) {
                throw InvalidRunInput.invalid(callAt + ".function is required");
            }
            requireId(call.function().name(), callAt + ".function.name");
        }
    }

    private static void requireId(String value, String field) {
        IdRules.violation(value).ifPresent(violation -> {
            throw InvalidRunInput.invalid(field + " " + violation);
        });
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
        if (MessageContent.class.isAssignableFrom(type)) {
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
