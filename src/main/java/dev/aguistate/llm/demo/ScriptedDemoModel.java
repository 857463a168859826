package dev.aguistate.llm.demo;

import dev.aguistate.llm.FinishReason;
import dev.aguistate.llm.ModelDescription;
import dev.aguistate.llm.ModelEvent;
import dev.aguistate.llm.ModelUsage;
import dev.aguistate.llm.StreamingModel;
import dev.aguistate.llm.ToolSchemas;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.json.JsonRawSchema;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A deterministic stand-in for an LLM so that a newcomer without an API key sees every feature: streamed
 * text, backend tools, frontend tools, shared state the user and the "model" both edit. It is a development aid,
 * chosen only when no endpoint is configured, and it says what it is.
 *
 * <p>It reads what a real model reads and nothing else: the user's last message, the tools offered, and the shared
 * state the run loop shows it ({@link PromptedState}: the {@code <state>} block of the state message). Its knowledge
 * of the sample agents comes from there alone: a tool's parameter named like a state key carries that key's value
 * ({@code update_recipe}'s {@code recipe}), and a schema's {@code examples} entry is what it writes when asked for
 * something new. What it can do to a value is a small set of named edits that work on any JSON
 * ({@link DemoEdit}: a diet, "shorter", "add …").
 *
 * <p>Rules, applied to the conversation's last message:
 * <ul>
 *   <li>a tool result: a one-sentence summary of it;</li>
 *   <li>a user message that names a tool (e.g. "weather" for {@code get_weather}), or asks for an edit it knows
 *       ("make it vegan", "make it shorter", "add a conclusion": the tool whose parameter is named like a key of
 *       the state, or the agent's only tool): a call of that tool. Its arguments start from the current state for
 *       each parameter named like a state key that has a value; from the schema's example where there is none or
 *       the message asks for something new ("write …", "plan …", "make me a …", "new"), with the phrase after
 *       "in"/"to"/"for"/"about" as the strings an example lacks ("weather in Paris" gives
 *       {@code {"location":"Paris"}}). Then the edits are applied. A request on the current state that asks for
 *       no edit it knows, or whose edits change nothing, gets an answer in words instead: no request throws away
 *       what the user has;</li>
 *   <li>a user message containing "long" or "story": a long text, to show streaming and cancellation;</li>
 *   <li>anything else: a greeting that names the tools offered and the edits it knows.</li>
 * </ul>
 * Structured output (a response format with a JSON schema) is built the same way: the schema's example, the
 * current state over it, the edits applied.
 */
public final class ScriptedDemoModel implements StreamingModel {

    /** Verbs that say nothing about which tool is meant. */
    private static final Set<String> GENERIC_WORDS = Set.of("get", "set", "change", "update", "generate", "create",
            "write", "make", "do", "run", "show", "the", "a", "to");

    private static final Pattern TOPIC = Pattern.compile("\\b(?:in|to|for|about|at|of)\\s+([^?.!,;:]+)",
            Pattern.CASE_INSENSITIVE);

    /** A request for something new rather than a change of what is there. */
    private static final Pattern NEW = Pattern.compile("^\\W*(?:(?:please|can you|could you|now)\\s+)*"
            + "(?:write|create|plan|draft|generate|make\\s+me\\s+an?)\\b|\\b(?:new|another)\\b",
            Pattern.CASE_INSENSITIVE);

    private static final int ARGUMENT_FRAGMENT = 6;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Duration chunkDelay;
    private final ModelDescription description = new ModelDescription(ModelDescription.SCRIPTED_DEMO, "scripted", "scripted-demo", null);

    public ScriptedDemoModel(Duration chunkDelay) {
        this.chunkDelay = chunkDelay;
    }

    @Override
    public ModelDescription description() {
        return description;
    }

    @Override
    public Multi<ModelEvent> stream(ChatRequest request) {
        List<ChatMessage> messages = request.messages();
        Optional<ObjectNode> state = PromptedState.in(messages);
        List<ModelEvent> events = structuredOutputSchema(request)
                .map(schema -> {
                    String said = lastUserText(messages);
                    return text(draft(schema, said, DemoEdit.requestedIn(said), state).value().toString(),
                            ARGUMENT_FRAGMENT);
                })
                .orElseGet(() -> respond(messages, request.toolSpecifications(), state));
        if (chunkDelay.isZero()) {
            return Multi.createFrom().iterable(events);
        }
        return paced(events);
    }

    /**
     * One event every {@code chunk-delay} at a fixed rate, as a model streaming at a steady speed: the k-th comes
     * k delays after the start however long the run took over the earlier ones (a delay after each event would
     * add the run's own time to the model's, and make a loaded server look slower than it is).
     */
    private Multi<ModelEvent> paced(List<ModelEvent> events) {
        return Multi.createFrom().emitter(emitter -> {
            Iterator<ModelEvent> next = events.iterator();
            long delayNanos = chunkDelay.toNanos();
            ScheduledFuture<?> ticks = Infrastructure.getDefaultWorkerPool().scheduleAtFixedRate(() -> {
                if (next.hasNext()) {
                    emitter.emit(next.next());
                }
                if (!next.hasNext()) {
                    emitter.complete();
                }
            }, delayNanos, delayNanos, TimeUnit.NANOSECONDS);
            emitter.onTermination(() -> ticks.cancel(false));
        });
    }

    private List<ModelEvent> respond(List<ChatMessage> messages, List<ToolSpecification> tools,
                                     Optional<ObjectNode> state) {
        ChatMessage last = messages.get(messages.size() - 1);
        if (last instanceof ToolExecutionResultMessage result) {
            return text("Done: " + result.toolName() + " returned " + summarize(result.text()) + ".");
        }
        String said = last instanceof UserMessage user ? userText(user) : "";
        List<DemoEdit> edits = DemoEdit.requestedIn(said);
        Optional<ToolSpecification> tool = toolNamedIn(said, tools)
                .or(() -> edits.isEmpty() ? Optional.empty() : toolForState(tools, state));
        if (tool.isPresent()) {
            return answerWith(tool.get(), said, edits, state);
        }
        String lower = said.toLowerCase(Locale.ROOT);
        if (lower.contains("long") || lower.contains("story")) {
            return text(LONG_STORY);
        }
        return text(greeting(tools, state.isPresent()));
    }

    /** A call of the tool with arguments from the current state and the edits, or words when that would be wrong. */
    private List<ModelEvent> answerWith(ToolSpecification tool, String said, List<DemoEdit> edits,
                                        Optional<ObjectNode> state) {
        Draft draft = draft(ToolSchemas.parameters(tool), said, edits, state);
        if (!draft.fromState().isEmpty()) {
            String what = "the " + String.join(" and the ", draft.fromState());
            if (edits.isEmpty()) {
                return text("I am the scripted demo model and cannot do that to " + what + ". I can " + DemoEdit.HELP
                        + ", or put my example in its place (\"write new " + draft.fromState().get(0) + "\").");
            }
            if (draft.value().equals(draft.unedited())) {
                return text("Nothing to change: " + DemoEdit.describe(edits) + " leaves " + what + " as it is.");
            }
        }
        return toolCall(tool, draft.value().toString());
    }

    /**
     * Tool arguments or structured output: {@code unedited} before the edits, {@code value} after;
     * {@code fromState} names its top-level fields that are the current state's.
     */
    private record Draft(JsonNode unedited, JsonNode value, List<String> fromState) {}

    private static Draft draft(JsonNode schema, String said, List<DemoEdit> edits, Optional<ObjectNode> state) {
        JsonNode start = SchemaExample.of(schema, topic(said));
        List<String> fromState = new ArrayList<>();
        if (start instanceof ObjectNode object && state.isPresent() && !NEW.matcher(said).find()) {
            schema.path("properties").fieldNames().forEachRemaining(name -> {
                if (hasContent(state.get().get(name))) {
                    object.set(name, state.get().get(name).deepCopy());
                    fromState.add(name);
                }
            });
        }
        JsonNode value = start;
        for (DemoEdit edit : edits) {
            value = edit.apply(value, schema);
        }
        return new Draft(start, value, fromState);
    }

    /** The tool an edit that names none is for: the one whose parameter holds state, else the agent's only one. */
    private static Optional<ToolSpecification> toolForState(List<ToolSpecification> tools, Optional<ObjectNode> state) {
        if (state.isEmpty()) {
            return Optional.empty();
        }
        return tools.stream()
                .filter(t -> t.parameters() != null
                        && t.parameters().properties().keySet().stream().anyMatch(k -> hasContent(state.get().get(k))))
                .findFirst()
                .or(() -> tools.size() == 1 ? Optional.of(tools.get(0)) : Optional.empty());
    }

    /** A value worth working on: not missing, null, empty or blank. */
    private static boolean hasContent(JsonNode value) {
        return value != null && !value.isNull() && !(value.isContainerNode() && value.isEmpty())
                && !(value.isTextual() && value.asText().isBlank());
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

    /** The text of the conversation's last user message ("" if there is none). */
    private static String lastUserText(List<ChatMessage> messages) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i) instanceof UserMessage user) {
                return userText(user);
            }
        }
        return "";
    }

    private static String userText(UserMessage user) {
        return user.hasSingleText() ? user.singleText() : user.contents().toString();
    }

    private static Optional<ToolSpecification> toolNamedIn(String said, List<ToolSpecification> tools) {
        Set<String> words = new HashSet<>(Arrays.asList(said.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")));
        return tools.stream()
                .filter(t -> matchingWords(t, words) > 0)
                .max(Comparator.comparingInt(t -> matchingWords(t, words)));
    }

    private static int matchingWords(ToolSpecification tool, Set<String> words) {
        return (int) cues(tool).stream().filter(words::contains).count();
    }

    /** The words of a tool's name that say which tool is meant: "weather" of get_weather. */
    private static List<String> cues(ToolSpecification tool) {
        return Arrays.stream(tool.name().toLowerCase(Locale.ROOT).split("[_\\-]+"))
                .filter(w -> !GENERIC_WORDS.contains(w)).toList();
    }

    private List<ModelEvent> toolCall(ToolSpecification tool, String arguments) {
        String id = "call_" + UUID.randomUUID().toString().replace("-", "").substring(0, 24);
        List<ModelEvent> events = new ArrayList<>();
        for (String fragment : pieces(arguments, ARGUMENT_FRAGMENT)) {
            events.add(new ModelEvent.ToolCallDelta(0, id, tool.name(), fragment));
        }
        events.add(new ModelEvent.ToolCallCompleted(0, id, tool.name(), arguments));
        events.add(completed(events.size(), FinishReason.TOOL_CALLS));
        return events;
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

    /** Names only what this request offers: its tools, and the edits when there is state to work on. */
    private static String greeting(List<ToolSpecification> tools, boolean stateShown) {
        StringBuilder text = new StringBuilder("Hi! I am the scripted demo model: no LLM is configured, so my "
                + "answers are canned.");
        if (!tools.isEmpty()) {
            text.append(" Name a tool and I call it: ").append(tools.stream()
                    .map(t -> "\"" + cue(t) + "\" for " + t.name()).collect(Collectors.joining(", "))).append('.');
            if (stateShown) {
                text.append(" I work on what you have: I can ").append(DemoEdit.HELP).append('.');
            }
        }
        return text.append(" Ask for a long story to see a long text stream in.").toString();
    }

    /** The word that calls a tool, as the greeting suggests it: the last of its cues, usually the noun. */
    private static String cue(ToolSpecification tool) {
        List<String> cues = cues(tool);
        return cues.isEmpty() ? tool.name() : cues.get(cues.size() - 1);
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
