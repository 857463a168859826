package dev.aguistate.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.langchain4j.model.openai.internal.chat.ChatCompletionChoice;
import dev.langchain4j.model.openai.internal.chat.ChatCompletionResponse;
import dev.langchain4j.model.openai.internal.chat.Delta;
import dev.langchain4j.model.openai.internal.chat.ToolCall;
import dev.langchain4j.model.openai.internal.shared.Usage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link ChunkReader} against langchain4j 1.19's own reading of the same chunks (its databinding into
 * {@code ChatCompletionResponse}, configured as langchain4j configures it), on random chunks of every shape the
 * OpenAI wire allows, and on the edges: escapes, unknown fields, error objects, malformed data.
 */
@Execution(ExecutionMode.CONCURRENT)
class ChunkReaderTest {

    /** As {@code dev.langchain4j.model.openai.internal.Json} reads chunks. */
    private static final ObjectMapper LANGCHAIN4J = JsonMapper.builder()
            .disable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_IGNORED_PROPERTIES).build();
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Writes every non-ASCII character as a \\u escape, as some servers do. */
    private static final ObjectMapper ESCAPING = JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void randomChunksReadAsLangchain4jReadsThem(long seed) throws IOException {
        Random random = new Random(seed);
        for (int i = 0; i < 200; i++) {
            ObjectNode chunk = randomChunk(random);
            String data = (random.nextBoolean() ? ESCAPING : JSON).writeValueAsString(chunk);

            ChunkReader.Chunk read = ChunkReader.read(data);
            ChatCompletionResponse expected = LANGCHAIN4J.readValue(data, ChatCompletionResponse.class);

            assertSameAs(expected, chunk, read, data);
        }
    }

    @Test
    void escapedStringsAreTheirCharacters() throws IOException {
        String data = "{\"choices\":[{\"delta\":{\"content\":\"\\\"quoted\\\" \\\\ back\\/slash\\n\\t\\u00e9 "
                + "\\ud83c\\udf0d \\u4e16\"}}]}";

        assertEquals("\"quoted\" \\ back/slash\n\té 🌍 世", ChunkReader.read(data).content());
    }

    @Test
    void unknownFieldsOfAnyShapeAreSkipped() throws IOException {
        String data = "{\"id\":\"x\",\"extra\":{\"choices\":[{\"delta\":{\"content\":\"not this\"}}],\"n\":[1,[2]]},"
                + "\"choices\":[{\"index\":0,\"logprobs\":{\"content\":[{\"token\":\"a\",\"top_logprobs\":[]}]},"
                + "\"delta\":{\"role\":\"assistant\",\"audio\":{\"data\":\"...\"},\"content\":\"this\","
                + "\"tool_calls\":[{\"index\":0,\"type\":\"function\",\"extra\":[{}],"
                + "\"function\":{\"name\":\"f\",\"strict\":true,\"arguments\":\"{}\"}}]},"
                + "\"content_filter_results\":{\"hate\":{\"filtered\":false}},\"finish_reason\":null},"
                + "{\"index\":1,\"delta\":{\"content\":\"nor this\"},\"finish_reason\":\"stop\"}],"
                + "\"usage\":null,\"model\":\"m\"} trailing";

        ChunkReader.Chunk chunk = ChunkReader.read(data);

        assertEquals(new ChunkReader.Chunk("m", "this", null, null,
                List.of(new ChunkReader.ToolCallFragment(0, null, "f", "{}")), null, null, null), chunk);
    }

    @Test
    void errorObjectsSayWhatTheirCodeMeans() throws IOException {
        assertEquals(ModelFailure.Kind.RATE_LIMITED, ChunkReader.read("{\"error\":{\"code\":429}}").error());
        assertEquals(ModelFailure.Kind.REQUEST_REJECTED,
                ChunkReader.read("{\"error\":{\"message\":\"too long\",\"code\":\"400\",\"param\":null}}").error());
        assertEquals(ModelFailure.Kind.UNAVAILABLE,
                ChunkReader.read("{\"error\":{\"message\":\"x\",\"code\":\"server_error\"}}").error());
        assertEquals(ModelFailure.Kind.UNAVAILABLE,
                ChunkReader.read("{\"choices\":[],\"error\":{\"code\":200,\"details\":[{}]}}").error());
        assertEquals(ModelFailure.Kind.UNAVAILABLE, ChunkReader.read("{\"error\":\"Provider disconnected\"}").error());
        assertNull(ChunkReader.read("{\"error\":null,\"choices\":[]}").error(), "a null error is no error");
    }

    @Test
    void valuesAreCoercedAsDatabindingCoercesThem() throws IOException {
        ChunkReader.Chunk chunk = ChunkReader.read("{\"choices\":[{\"delta\":{\"content\":5,\"tool_calls\":"
                + "[{\"index\":\"2\",\"id\":true}]}}],\"usage\":{\"prompt_tokens\":\"7\",\"total_tokens\":\"\"}}");

        assertEquals("5", chunk.content());
        assertEquals(List.of(new ChunkReader.ToolCallFragment(2, "true", null, null)), chunk.toolCalls());
        assertEquals(new ModelUsage(null, 7, null, null), chunk.usage());
        assertEquals(new ChunkReader.Chunk(null, null, null, null, null, null, null, null), ChunkReader.read("null"));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "",
        "{\"choices\":[{\"delta\":{\"content\":\"cut",
        "{\"choices\":[{\"delta\":{\"content\":\"a\"}}]",
        "not json",
        "[1]",
        "\"a string\"",
        "{\"choices\":{\"delta\":{}}}",
        "{\"choices\":[5]}",
        "{\"choices\":[{\"delta\":\"text\"}]}",
        "{\"choices\":[{\"delta\":{\"content\":{\"a\":1}}}]}",
        "{\"choices\":[{\"delta\":{\"tool_calls\":{}}}]}",
        "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":\"first\"}]}}]}",
        "{\"usage\":{\"prompt_tokens\":[1]}}",
        "{\"model\":[\"m\"]}",
    })
    void malformedChunksAreRefused(String data) {
        assertThrows(IOException.class, () -> ChunkReader.read(data));
        assertThrows(Exception.class, () -> LANGCHAIN4J.readValue(data, ChatCompletionResponse.class),
                "langchain4j refused it too");
    }

    /** One stream's in-place reader, fed every chunk in turn, reads each as the text reader reads it. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4})
    void inPlaceTheChunksOfAStreamReadAsTheirTextReads(long seed) throws IOException {
        Random random = new Random(seed);
        try (ChunkReader.InPlace inPlace = new ChunkReader.InPlace()) {
            for (int i = 0; i < 400; i++) {
                String data = (random.nextBoolean() ? ESCAPING : JSON).writeValueAsString(randomChunk(random))
                        + " ".repeat(random.nextInt(2));
                byte[] padded = ("xx" + data + "yy").getBytes(StandardCharsets.UTF_8);

                ChunkReader.Chunk read = inPlace.read(padded, 2, padded.length - 4);

                assertEquals(ChunkReader.read(data), read, data);
            }
        }
    }

    /**
     * What the in-place reader does not read as the text reader would, it leaves to it (null), and the next chunk
     * is read as before; what follows a chunk's object is ignored, as by the text reader.
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "",
        "null",
        "5",
        "{\"choices\":[{\"delta\":{\"content\":\"cut",
        "{\"choices\":[{\"delta\":{\"content\":\"a\"}}]",
        "{\"choices\":[1,{\"delta\":{}}",
        "not json",
        "[1]",
        "{\"choices\":[{\"delta\":{\"content\":{\"a\":1}}}]}",
        "{\"usage\":{\"prompt_tokens\":[1]}}",
        "{\"choices\":[{\"delta\":{\"content\":\"a\"}}]} trailing",
        "{\"choices\":[{\"delta\":{\"content\":\"a\"}}]} {\"choices\":[{\"delta\":{\"content\":\"b\"}}]}",
    })
    void inPlaceLeavesToTheTextReaderWhatIsNotOneObject(String odd) throws IOException {
        byte[] before = "{\"model\":\"m\"}".getBytes(StandardCharsets.US_ASCII);
        byte[] bytes = odd.getBytes(StandardCharsets.US_ASCII);
        byte[] after = "{\"choices\":[{\"delta\":{\"content\":\"next\"}}]}".getBytes(StandardCharsets.US_ASCII);
        try (ChunkReader.InPlace inPlace = new ChunkReader.InPlace()) {
            assertEquals("m", inPlace.read(before, 0, before.length).model());

            ChunkReader.Chunk read = inPlace.read(bytes, 0, bytes.length);
            if (odd.startsWith("{\"choices\":[{\"delta\":{\"content\":\"a\"}}]} ")) {
                assertEquals(ChunkReader.read(odd), read);
            } else {
                assertNull(read, odd);
            }

            assertEquals("next", inPlace.read(after, 0, after.length).content());
        }
    }

    /** The reader's chunk holds what langchain4j's holds, and the refusal the chunk's JSON holds. */
    private static void assertSameAs(ChatCompletionResponse expected, ObjectNode json, ChunkReader.Chunk read,
                                     String data) {
        assertEquals(expected.model(), read.model(), data);
        Usage usage = expected.usage();
        ModelUsage expectedUsage = usage == null ? null : new ModelUsage(null, usage.promptTokens(),
                usage.completionTokens(), usage.totalTokens(),
                usage.promptTokensDetails() == null ? null : usage.promptTokensDetails().cachedTokens(),
                usage.completionTokensDetails() == null ? null : usage.completionTokensDetails().reasoningTokens());
        assertEquals(expectedUsage, read.usage(), data);
        List<ChatCompletionChoice> choices = expected.choices();
        ChatCompletionChoice choice = choices == null || choices.isEmpty() ? null : choices.get(0);
        assertEquals(choice == null ? null : choice.finishReason(), read.finishReason(), data);
        Delta delta = choice == null ? null : choice.delta();
        assertEquals(delta == null ? null : delta.content(), read.content(), data);
        assertEquals(delta == null ? null : delta.reasoningContent(), read.reasoning(), data);
        List<ChunkReader.ToolCallFragment> calls = null;
        if (delta != null && delta.toolCalls() != null) {
            calls = new ArrayList<>();
            for (ToolCall call : delta.toolCalls()) {
                calls.add(new ChunkReader.ToolCallFragment(call.index(), call.id(),
                        call.function() == null ? null : call.function().name(),
                        call.function() == null ? null : call.function().arguments()));
            }
        }
        assertEquals(calls, read.toolCalls(), data);
        JsonNode refusal = json.path("choices").path(0).path("delta").path("refusal");
        assertEquals(refusal.isTextual() ? refusal.asText() : null, read.refusal(), data);
        assertNull(read.error(), data);
    }

    // A random chat.completion.chunk: every field the reader knows, each present or absent or null, in a random
    // order, among fields it does not know.

    private static ObjectNode randomChunk(Random random) {
        List<Runnable> fields = new ArrayList<>();
        ObjectNode chunk = JSON.createObjectNode();
        fields.add(() -> chunk.put("id", "chatcmpl-" + random.nextInt(1000)));
        fields.add(() -> chunk.put("object", "chat.completion.chunk"));
        fields.add(() -> chunk.put("created", 1_700_000_000L + random.nextInt(1000)));
        // mostly one of a few names, as a stream repeats its model's (a reader reuses the last one's text)
        fields.add(() -> maybe(random, chunk, "model", () -> chunk.put("model", random.nextInt(4) == 0
                ? randomText(random) : List.of("gpt-4o", "gpt-4p", "gpt-4o-mini").get(random.nextInt(3)))));
        fields.add(() -> maybe(random, chunk, "system_fingerprint", () -> chunk.put("system_fingerprint", "fp_1")));
        fields.add(() -> maybe(random, chunk, "usage", () -> chunk.set("usage", randomUsage(random))));
        fields.add(() -> maybe(random, chunk, "choices", () -> chunk.set("choices", randomChoices(random))));
        fields.add(() -> maybe(random, chunk, "x_unknown", () -> chunk.set("x_unknown", randomUnknown(random))));
        Collections.shuffle(fields, random);
        fields.forEach(Runnable::run);
        return chunk;
    }

    private static ArrayNode randomChoices(Random random) {
        ArrayNode choices = JSON.createArrayNode();
        int count = random.nextInt(3);
        for (int i = 0; i < count; i++) {
            ObjectNode choice = choices.addObject();
            List<Runnable> fields = new ArrayList<>();
            fields.add(() -> choice.put("index", choices.size() - 1));
            fields.add(() -> maybe(random, choice, "delta", () -> choice.set("delta", randomDelta(random))));
            fields.add(() -> maybe(random, choice, "finish_reason", () -> choice.put("finish_reason",
                    List.of("stop", "length", "tool_calls", "content_filter", "function_call", "eos")
                            .get(random.nextInt(6)))));
            fields.add(() -> maybe(random, choice, "logprobs", () -> choice.putObject("logprobs").putArray("content")
                    .addObject().put("token", randomText(random)).put("logprob", -0.5).putArray("top_logprobs")));
            Collections.shuffle(fields, random);
            fields.forEach(Runnable::run);
        }
        return choices;
    }

    private static ObjectNode randomDelta(Random random) {
        ObjectNode delta = JSON.createObjectNode();
        List<Runnable> fields = new ArrayList<>();
        fields.add(() -> maybe(random, delta, "role", () -> delta.put("role", "assistant")));
        for (String text : List.of("content", "reasoning_content", "reasoning", "refusal")) {
            fields.add(() -> maybe(random, delta, text, () -> delta.put(text, randomText(random))));
        }
        fields.add(() -> maybe(random, delta, "tool_calls", () -> {
            ArrayNode calls = delta.putArray("tool_calls");
            int count = random.nextInt(3);
            for (int i = 0; i < count; i++) {
                ObjectNode call = calls.addObject();
                maybe(random, call, "index", () -> call.put("index", random.nextInt(4)));
                maybe(random, call, "id", () -> call.put("id", "call_" + random.nextInt(100)));
                maybe(random, call, "type", () -> call.put("type", "function"));
                maybe(random, call, "function", () -> {
                    ObjectNode function = call.putObject("function");
                    maybe(random, function, "name", () -> function.put("name", randomText(random)));
                    maybe(random, function, "arguments", () -> function.put("arguments", randomText(random)));
                });
            }
        }));
        fields.add(() -> maybe(random, delta, "audio", () -> delta.set("audio", randomUnknown(random))));
        Collections.shuffle(fields, random);
        fields.forEach(Runnable::run);
        return delta;
    }

    private static ObjectNode randomUsage(Random random) {
        ObjectNode usage = JSON.createObjectNode();
        maybe(random, usage, "prompt_tokens", () -> usage.put("prompt_tokens", random.nextInt(5000)));
        maybe(random, usage, "completion_tokens", () -> usage.put("completion_tokens", random.nextInt(5000)));
        maybe(random, usage, "total_tokens", () -> usage.put("total_tokens", random.nextInt(10000)));
        maybe(random, usage, "prompt_tokens_details", () -> usage.putObject("prompt_tokens_details")
                .put("cached_tokens", random.nextInt(100)).put("audio_tokens", 0));
        maybe(random, usage, "completion_tokens_details", () -> usage.putObject("completion_tokens_details")
                .put("reasoning_tokens", random.nextInt(100)).put("accepted_prediction_tokens", 0));
        return usage;
    }

    /** A value of a field the reader does not know: nested objects and arrays, with look-alike field names. */
    private static JsonNode randomUnknown(Random random) {
        ObjectNode unknown = JSON.createObjectNode();
        unknown.putArray("content").addObject().put("token", randomText(random)).putArray("top_logprobs").add(1.5);
        unknown.putObject("delta").put("content", "not the content").putNull("tool_calls");
        return random.nextBoolean() ? unknown : JSON.createArrayNode().add(unknown).add("x").addNull();
    }

    /** Absent, null, or set by {@code put}, a third of the time each. */
    private static void maybe(Random random, ObjectNode node, String field, Runnable put) {
        switch (random.nextInt(3)) {
            case 0 -> put.run();
            case 1 -> node.putNull(field);
            default -> { }
        }
    }

    /** Text with what a JSON writer must escape, non-ASCII characters and characters beyond the BMP. */
    private static String randomText(Random random) {
        String[] pieces = {"a", "word", " ", "\"", "\\", "/", "\n", "\t", "\u0001", "é", "Grüße", "世界", "🌍", "🚀",
            "{\"k\":", "}", "\u2028", ""};
        StringBuilder text = new StringBuilder();
        int length = random.nextInt(6);
        for (int i = 0; i < length; i++) {
            text.append(pieces[random.nextInt(pieces.length)]);
        }
        return text.toString();
    }
}
