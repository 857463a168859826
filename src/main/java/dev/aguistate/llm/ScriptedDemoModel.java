package dev.aguistate.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A deterministic stand-in for an LLM so that a newcomer without an API key sees every feature: streamed
 * text, backend tools, frontend tools. It is a development aid, chosen only when no endpoint is configured.
 *
 * <p>Rules, applied to the conversation's last message:
 * <ul>
 *   <li>a tool result: a one-sentence summary of it;</li>
 *   <li>a user message that names a tool (e.g. "weather" for {@code get_weather}, "background" for
 *       {@code change_background}): a call of that tool, its arguments taken from the schema's
 *       {@code examples} where it has them, else generated from its types with the phrase after
 *       "in"/"to"/"for"/"about" as the string value (so "weather in Paris" gives {@code {"location":"Paris"}});</li>
 *   <li>a user message containing "long" or "story": a long text, to show streaming and cancellation;</li>
 *   <li>anything else: a greeting that explains the above.</li>
 * </ul>
 */
final class ScriptedDemoModel implements StreamingModel {

    /** Verbs that say nothing about which tool is meant. */
    private static final Set<String> GENERIC_WORDS = Set.of("get", "set", "change", "update", "generate", "create",
            "write", "make", "do", "run", "show", "the", "a", "to");

    private static final Pattern TOPIC = Pattern.compile("\\b(?:in|to|for|about|at|of)\\s+([^?.!,;:]+)",
            Pattern.CASE_INSENSITIVE);

    private static final int ARGUMENT_FRAGMENT = 6;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Duration chunkDelay;
    private final ModelDescription description = new ModelDescription(ModelDescription.SCRIPTED_DEMO, "scripted", "scripted-demo", null);

    ScriptedDemoModel(Duration chunkDelay) {
        this.chunkDelay = chunkDelay;
    }

    @Override
    public ModelDescription description() {
        return description;
    }

    @Override
    public Multi<ModelEvent> stream(ChatRequest request) {
        List<ModelEvent> events = structuredOutputSchema(request)
                .map(schema -> text(example(schema, "demo", null).toString(), ARGUMENT_FRAGMENT))
                .orElseGet(() -> respond(request.messages(), request.toolSpecifications()));
        Multi<ModelEvent> items = Multi.createFrom().iterable(events);
        if (chunkDelay.isZero()) {
            return items;
        }
        return items.onItem().call(e -> Uni.createFrom().voidItem().onItem().delayIt().by(chunkDelay));
    }

    private List<ModelEvent> respond(List<ChatMessage> messages, List<ToolSpecification> tools) {
        ChatMessage last = messages.get(messages.size() - 1);
        if (last instanceof ToolExecutionResultMessage result) {
            return text("Done: " + result.toolName() + " returned " + summarize(result.text()) + ".");
        }
        String said = last instanceof UserMessage user ? userText(user) : "";
        Optional<ToolSpecification> tool = toolNamedIn(said, tools);
        if (tool.isPresent()) {
            return toolCall(tool.get(), said);
        }
        String lower = said.toLowerCase(Locale.ROOT);
        if (lower.contains("long") || lower.contains("story")) {
            return text(LONG_STORY);
        }
        return text(greeting(said, tools));
    }

    /** The JSON Schema the request asks the answer to follow, if any. */
    private static Optional<JsonNode> structuredOutputSchema(ChatRequest request) {
        if (request.responseFormat() == null || request.responseFormat().jsonSchema() == null
                || !(request.responseFormat().jsonSchema().rootElement() instanceof JsonRawSchema raw)) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readTree(raw.schema()));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("response format schema is not JSON", e);
        }
    }

    private static String userText(UserMessage user) {
        return user.hasSingleText() ? user.singleText() : user.contents().toString();
    }

    private static Optional<ToolSpecification> toolNamedIn(String said, List<ToolSpecification> tools) {
        Set<String> words = Set.of(said.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+"));
        return tools.stream()
                .filter(t -> matchingWords(t, words) > 0)
                .max(Comparator.comparingInt(t -> matchingWords(t, words)));
    }

    private static int matchingWords(ToolSpecification tool, Set<String> words) {
        int matches = 0;
        for (String word : tool.name().toLowerCase(Locale.ROOT).split("[_\\-]+")) {
            if (!GENERIC_WORDS.contains(word) && words.contains(word)) {
                matches++;
            }
        }
        return matches;
    }

    private List<ModelEvent> toolCall(ToolSpecification tool, String said) {
        String id = "call_" + UUID.randomUUID().toString().replace("-", "").substring(0, 24);
        String arguments = example(ToolSchemas.parameters(tool), topic(said), null).toString();
        List<ModelEvent> events = new ArrayList<>();
        for (String fragment : pieces(arguments, ARGUMENT_FRAGMENT)) {
            events.add(new ModelEvent.ToolCallDelta(0, id, tool.name(), fragment));
        }
        events.add(new ModelEvent.ToolCallCompleted(0, id, tool.name(), arguments));
        events.add(completed(events.size(), FinishReason.TOOL_CALLS));
        return events;
    }

    /** An example value for a schema: its first {@code examples} entry, else one built from its types. */
    private static JsonNode example(JsonNode schema, String topic, Integer position) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        if (schema.path("examples").isArray() && !schema.get("examples").isEmpty()) {
            return schema.get("examples").get(0);
        }
        if (schema.has("const")) {
            return schema.get("const");
        }
        if (schema.path("enum").isArray() && !schema.get("enum").isEmpty()) {
            return schema.get("enum").get(0);
        }
        String type = schema.path("type").isArray() ? schema.get("type").get(0).asText() : schema.path("type").asText();
        switch (type) {
            case "object" -> {
                ObjectNode object = json.objectNode();
                schema.path("properties").fields()
                        .forEachRemaining(p -> object.set(p.getKey(), example(p.getValue(), topic, position)));
                return object;
            }
            case "array" -> {
                ArrayNode array = json.arrayNode();
                for (int i = 0; i < 3; i++) {
                    array.add(example(schema.path("items"), topic, i + 1));
                }
                return array;
            }
            case "integer", "number" -> {
                return json.numberNode(position == null ? 1 : position);
            }
            case "boolean" -> {
                return json.booleanNode(true);
            }
            default -> {
                return json.textNode(position == null ? topic : "Step " + position + ": " + topic);
            }
        }
    }

    private static String topic(String said) {
        Matcher m = TOPIC.matcher(said);
        String topic = null;
        while (m.find()) {
            topic = m.group(1).trim();
        }
        if (topic == null || topic.isEmpty()) {
            topic = said.trim().isEmpty() ? "demo" : said.trim();
        }
        return topic.length() > 60 ? topic.substring(0, 60) : topic;
    }

    private static String summarize(String toolResult) {
        try {
            JsonNode node = JSON.readTree(toolResult);
            if (node != null && node.isObject()) {
                List<String> fields = new ArrayList<>();
                node.fields().forEachRemaining(f -> {
                    if (f.getValue().isValueNode()) {
                        fields.add(f.getKey() + " " + f.getValue().asText());
                    }
                });
                return String.join(", ", fields);
            }
        } catch (Exception notJson) {
            // plain text results are quoted as they are
        }
        String text = toolResult.strip();
        return "\"" + (text.length() > 200 ? text.substring(0, 200) + "…" : text) + "\"";
    }

    private static String greeting(String said, List<ToolSpecification> tools) {
        StringBuilder text = new StringBuilder("Hi! I am the scripted demo model: no LLM is configured, so my "
                + "answers are canned. You said: \"" + said.strip() + "\". Try \"What's the weather in Paris?\" "
                + "or \"Tell me a long story\".");
        if (!tools.isEmpty()) {
            text.append(" I can call these tools when you name them: ");
            text.append(String.join(", ", tools.stream().map(ToolSpecification::name).toList())).append('.');
        }
        return text.toString();
    }

    /** Text streamed word by word. */
    private static List<ModelEvent> text(String text) {
        List<ModelEvent> events = new ArrayList<>();
        Matcher word = Pattern.compile("\\S+\\s*").matcher(text);
        while (word.find()) {
            events.add(new ModelEvent.TextDelta(word.group()));
        }
        events.add(completed(events.size(), FinishReason.STOP));
        return events;
    }

    /** Text streamed in fixed-size pieces, as JSON output is. */
    private static List<ModelEvent> text(String text, int pieceLength) {
        List<ModelEvent> events = new ArrayList<>();
        for (String piece : pieces(text, pieceLength)) {
            events.add(new ModelEvent.TextDelta(piece));
        }
        events.add(completed(events.size(), FinishReason.STOP));
        return events;
    }

    private static List<String> pieces(String text, int length) {
        List<String> pieces = new ArrayList<>();
        for (int i = 0; i < text.length(); i += length) {
            pieces.add(text.substring(i, Math.min(text.length(), i + length)));
        }
        return pieces;
    }

    private static ModelEvent completed(int outputTokens, FinishReason reason) {
        return new ModelEvent.Completed(new ModelUsage("scripted-demo", 0, outputTokens, outputTokens), reason);
    }

    private static final String LONG_STORY = ("Once upon a time, a stream of tokens set out across the network. "
            + "Each token carried a small piece of a larger story, and each one arrived in order, framed as a "
            + "server-sent event, flushed the moment it was written. The reader on the other side could stop "
            + "listening at any time, and when it did, the server noticed, cancelled the work upstream, and "
            + "freed everything the run had held. ").repeat(6).strip();
}
