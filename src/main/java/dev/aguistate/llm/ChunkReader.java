package dev.aguistate.llm;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.async.ByteArrayFeeder;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads one {@code chat.completion.chunk} of an OpenAI-wire stream with Jackson's streaming parser, keeping only
 * what {@link StreamRelay} uses and skipping every other field unread.
 *
 * <p>langchain4j databinds each chunk into its response classes by reflection, a tree of objects per chunk that was
 * the largest cost of reading an upstream (docs/benchmarks.md, "The read path of a streamed completion"); langchain4j
 * still builds the requests. What is read, and how odd values are taken, follows langchain4j 1.19's reading, so
 * that the runs see what they saw before:
 *
 * <ul>
 *   <li>{@code model} and {@code usage} of the chunk; from the first of {@code choices} only, {@code finish_reason}
 *       and {@code delta}'s {@code content}, {@code reasoning_content} (or {@code reasoning}, whichever comes last),
 *       {@code refusal} and {@code tool_calls} ({@code index}, {@code id}, {@code function.name},
 *       {@code function.arguments});</li>
 *   <li>a top-level {@code error} (an object or a string) makes the chunk an error, its {@code code} read as an
 *       HTTP status when it is one;</li>
 *   <li>a text field may hold a number or a boolean (taken as its text, as databinding coerces it), a count may be a
 *       numeric string; a value of another shape where a text, a count, an object or an array belongs is a malformed
 *       chunk ({@link JsonParseException}, a {@code llm_bad_response}), as is JSON that is not complete;</li>
 *   <li>{@code null} as the whole chunk is an empty chunk; whatever follows the chunk's object is ignored.</li>
 * </ul>
 */
final class ChunkReader {

    private static final JsonFactory JSON = new JsonFactory();

    private ChunkReader() {}

    /** A fragment of a tool call; {@code index} is null when the upstream omits it (some servers do). */
    record ToolCallFragment(Integer index, String id, String name, String arguments) {}

    /**
     * What a chunk says; a field is null when the chunk does not carry it. {@code usage} has no model name yet: the
     * response's is the last one any chunk named. {@code error} is what an error chunk means for the run.
     */
    record Chunk(String model, String content, String reasoning, String refusal, List<ToolCallFragment> toolCalls,
                 String finishReason, ModelUsage usage, ModelFailure.Kind error) {}

    private static final Chunk EMPTY = new Chunk(null, null, null, null, null, null, null, null);

    /** @throws IOException when the data is not a chunk (not JSON, incomplete, or a value of the wrong shape) */
    static Chunk read(String data) throws IOException {
        try (JsonParser parser = JSON.createParser(data)) {
            JsonToken first = parser.nextToken();
            if (first == JsonToken.VALUE_NULL) {
                return EMPTY;
            }
            expect(parser, first, JsonToken.START_OBJECT);
            return object(parser, new Fields());
        }
    }

    /**
     * The chunk's object, from after its {@code START_OBJECT} to its {@code END_OBJECT}, read into {@code fields}
     * (cleared first).
     */
    private static Chunk object(JsonParser parser, Fields fields) throws IOException {
        fields.clear();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            switch (name) {
                case "model" -> fields.model = fields.model(parser);
                case "choices" -> choices(parser, value, fields);
                case "usage" -> fields.usage = usage(parser, value);
                case "error" -> fields.error = error(parser, value);
                default -> parser.skipChildren();
            }
        }
        return new Chunk(fields.model, fields.content, fields.reasoning, fields.refusal, fields.toolCalls,
                fields.finishReason, fields.usage, fields.error);
    }

    /**
     * Reads the chunks of one stream from their bytes with one parser for the whole stream: Jackson's non-blocking
     * parser, fed each chunk in turn, since a parser made per chunk (its context, buffers and symbol table) was most
     * of what reading a chunk allocated. It answers only for a chunk that is one complete JSON object, read as
     * {@link ChunkReader#read(String)} reads it; for anything else (not an object, incomplete, malformed, a value
     * of the wrong shape) it answers null and {@link ChunkReader#read(String)} reads the chunk's text, which also
     * gives the same error for it as before. After such a chunk, or one followed by more than whitespace (ignored, as
     * there), the next chunk gets a new parser. Not thread-safe: one per stream.
     */
    static final class InPlace implements AutoCloseable {

        /** Where the parser's unread bytes are released to: nowhere, only their count matters. */
        private static final OutputStream UNREAD = OutputStream.nullOutputStream();

        private JsonParser async;
        private ByteArrayFeeder feeder;
        private JsonParser parser;
        /** One for the stream's chunks, read one after another. */
        private final Fields fields = new Fields();

        private static boolean whitespace(byte[] bytes, int from, int to) {
            for (int i = from; i < to; i++) {
                byte b = bytes[i];
                if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
                    return false;
                }
            }
            return true;
        }

        /** The chunk in {@code bytes[start, start + length)}, or null if the text reader must read it. */
        Chunk read(byte[] bytes, int start, int length) {
            try {
                if (async == null) {
                    async = JSON.createNonBlockingByteArrayParser();
                    feeder = (ByteArrayFeeder) async.getNonBlockingInputFeeder();
                    parser = new Complete(async);
                }
                feeder.feedInput(bytes, start, start + length);
                if (parser.nextToken() != JsonToken.START_OBJECT) {
                    close();
                    return null;
                }
                Chunk chunk = object(parser, fields);
                // what the parser has not read of the chunk: counted, not copied (its location would be an object)
                int after = start + length - async.releaseBuffered(UNREAD);
                if (whitespace(bytes, after, start + length)) {
                    async.nextToken(); // takes the whitespace, so that the parser wants the next chunk
                } else {
                    close(); // what follows the object is ignored, and the parser is left inside it
                }
                return chunk;
            } catch (IOException | RuntimeException unread) {
                close();
                return null;
            }
        }

        @Override
        public void close() {
            if (async != null) {
                try {
                    async.close(); // its buffers go back to Jackson's pool
                } catch (IOException inMemory) {
                    // nothing to release beyond the buffers
                }
                async = null;
                feeder = null;
                parser = null;
            }
        }
    }

    /** The non-blocking parser, but running out of input inside the chunk is an error, as at a text's end. */
    private static final class Complete extends JsonParserDelegate {

        Complete(JsonParser async) {
            super(async);
        }

        @Override
        public JsonToken nextToken() throws IOException {
            JsonToken token = delegate.nextToken();
            if (token == JsonToken.NOT_AVAILABLE) {
                throw new JsonParseException(this, "the chunk ends inside its JSON");
            }
            return token;
        }
    }

    /**
     * The chunk's fields while it is read; a stream's reader reuses them, chunk after chunk. Every chunk names the
     * model, nearly always the same: the name of the last one is reused when the text is the same, not made again.
     */
    private static final class Fields {
        String model;
        String content;
        String reasoning;
        String refusal;
        List<ToolCallFragment> toolCalls;
        String finishReason;
        ModelUsage usage;
        ModelFailure.Kind error;
        private String lastModel;

        void clear() {
            model = null;
            content = null;
            reasoning = null;
            refusal = null;
            toolCalls = null;
            finishReason = null;
            usage = null;
            error = null;
        }

        String model(JsonParser parser) throws IOException {
            if (lastModel == null || parser.currentToken() != JsonToken.VALUE_STRING || !isLastModel(parser)) {
                lastModel = text(parser);
            }
            return lastModel;
        }

        private boolean isLastModel(JsonParser parser) throws IOException {
            int length = parser.getTextLength();
            if (length != lastModel.length()) {
                return false;
            }
            char[] text = parser.getTextCharacters();
            int offset = parser.getTextOffset();
            for (int i = 0; i < length; i++) {
                if (text[offset + i] != lastModel.charAt(i)) {
                    return false;
                }
            }
            return true;
        }
    }

    private static void choices(JsonParser parser, JsonToken value, Fields fields) throws IOException {
        if (value == JsonToken.VALUE_NULL) {
            return;
        }
        expect(parser, value, JsonToken.START_ARRAY);
        boolean first = true;
        for (JsonToken choice = parser.nextToken(); choice != JsonToken.END_ARRAY; choice = parser.nextToken()) {
            if (first && choice != JsonToken.VALUE_NULL) {
                expect(parser, choice, JsonToken.START_OBJECT);
                choice(parser, fields);
            } else {
                parser.skipChildren(); // only the first choice is read, as langchain4j reads it
            }
            first = false;
        }
    }

    private static void choice(JsonParser parser, Fields fields) throws IOException {
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            switch (name) {
                case "finish_reason" -> fields.finishReason = text(parser);
                case "delta" -> {
                    if (value != JsonToken.VALUE_NULL) {
                        expect(parser, value, JsonToken.START_OBJECT);
                        delta(parser, fields);
                    }
                }
                default -> parser.skipChildren();
            }
        }
    }

    private static void delta(JsonParser parser, Fields fields) throws IOException {
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            switch (name) {
                case "content" -> fields.content = text(parser);
                case "reasoning_content", "reasoning" -> fields.reasoning = text(parser);
                case "refusal" -> fields.refusal = value == JsonToken.VALUE_STRING ? parser.getText() : skip(parser);
                case "tool_calls" -> fields.toolCalls = toolCalls(parser, value);
                default -> parser.skipChildren();
            }
        }
    }

    private static List<ToolCallFragment> toolCalls(JsonParser parser, JsonToken value) throws IOException {
        if (value == JsonToken.VALUE_NULL) {
            return null;
        }
        expect(parser, value, JsonToken.START_ARRAY);
        List<ToolCallFragment> fragments = new ArrayList<>(1);
        for (JsonToken call = parser.nextToken(); call != JsonToken.END_ARRAY; call = parser.nextToken()) {
            if (call != JsonToken.VALUE_NULL) {
                expect(parser, call, JsonToken.START_OBJECT);
                fragments.add(toolCall(parser));
            }
        }
        return fragments;
    }

    private static ToolCallFragment toolCall(JsonParser parser) throws IOException {
        Integer index = null;
        String id = null;
        String name = null;
        String arguments = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken value = parser.nextToken();
            if (field.equals("index")) {
                index = count(parser);
            } else if (field.equals("id")) {
                id = text(parser);
            } else if (field.equals("function") && value != JsonToken.VALUE_NULL) {
                expect(parser, value, JsonToken.START_OBJECT);
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String part = parser.currentName();
                    parser.nextToken();
                    switch (part) {
                        case "name" -> name = text(parser);
                        case "arguments" -> arguments = text(parser);
                        default -> parser.skipChildren();
                    }
                }
            } else {
                parser.skipChildren();
            }
        }
        return new ToolCallFragment(index, id, name, arguments);
    }

    /**
     * The counts of {@code usage}, with {@code prompt_tokens_details.cached_tokens} and
     * {@code completion_tokens_details.reasoning_tokens} when the upstream reports them.
     */
    private static ModelUsage usage(JsonParser parser, JsonToken value) throws IOException {
        if (value == JsonToken.VALUE_NULL) {
            return null;
        }
        expect(parser, value, JsonToken.START_OBJECT);
        Integer input = null;
        Integer output = null;
        Integer total = null;
        Integer cached = null;
        Integer reasoning = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken field = parser.nextToken();
            switch (name) {
                case "prompt_tokens" -> input = count(parser);
                case "completion_tokens" -> output = count(parser);
                case "total_tokens" -> total = count(parser);
                case "prompt_tokens_details" -> cached = detail(parser, field, "cached_tokens");
                case "completion_tokens_details" -> reasoning = detail(parser, field, "reasoning_tokens");
                default -> parser.skipChildren();
            }
        }
        return new ModelUsage(null, input, output, total, cached, reasoning);
    }

    /** One count of a details object such as {@code prompt_tokens_details}. */
    private static Integer detail(JsonParser parser, JsonToken value, String wanted) throws IOException {
        if (value == JsonToken.VALUE_NULL) {
            return null;
        }
        expect(parser, value, JsonToken.START_OBJECT);
        Integer count = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            parser.nextToken();
            if (name.equals(wanted)) {
                count = count(parser);
            } else {
                parser.skipChildren();
            }
        }
        return count;
    }

    /**
     * What an error chunk means: an inline error whose {@code code} is an HTTP status (vLLM, OpenRouter) means what
     * that status means, any other is the upstream failing. A {@code null} error is no error.
     */
    private static ModelFailure.Kind error(JsonParser parser, JsonToken value) throws IOException {
        if (value == JsonToken.VALUE_STRING) {
            return ModelFailure.Kind.UNAVAILABLE;
        }
        if (value != JsonToken.START_OBJECT) {
            parser.skipChildren();
            return null;
        }
        int status = 0;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken field = parser.nextToken();
            if (name.equals("code") && (field.isNumeric() || field == JsonToken.VALUE_STRING)) {
                status = parser.getValueAsInt(0);
            } else {
                parser.skipChildren();
            }
        }
        return status >= 400 && status <= 599 ? ModelFailures.byStatus(status) : ModelFailure.Kind.UNAVAILABLE;
    }

    /** A text value; a number or a boolean as its text. */
    private static String text(JsonParser parser) throws IOException {
        JsonToken token = parser.currentToken();
        if (token == JsonToken.VALUE_NULL) {
            return null;
        }
        if (token.isScalarValue()) {
            return parser.getText();
        }
        throw new JsonParseException(parser, "a text value expected, found " + token);
    }

    /** A count: a whole number, or a numeric string; an empty string is no count. */
    private static Integer count(JsonParser parser) throws IOException {
        JsonToken token = parser.currentToken();
        if (token == JsonToken.VALUE_NULL) {
            return null;
        }
        if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) {
            return parser.getValueAsInt();
        }
        if (token == JsonToken.VALUE_STRING) {
            String text = parser.getText().trim();
            if (text.isEmpty()) {
                return null;
            }
            try {
                return Integer.valueOf(text);
            } catch (NumberFormatException notACount) {
                throw new JsonParseException(parser, "a count expected, found \"" + text + '"');
            }
        }
        throw new JsonParseException(parser, "a count expected, found " + token);
    }

    private static String skip(JsonParser parser) throws IOException {
        parser.skipChildren();
        return null;
    }

    private static void expect(JsonParser parser, JsonToken found, JsonToken expected) throws JsonParseException {
        if (found != expected) {
            throw new JsonParseException(parser, expected + " expected, found " + found);
        }
    }
}
