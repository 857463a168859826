package dev.aguistate.sse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.langchain4j.http.client.sse.ServerSentEvent;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Execution(ExecutionMode.CONCURRENT)
class SseDecoderTest {

    private static final String STREAM = """
            : OPENROUTER PROCESSING

            data: {"delta":"Grüße 🌍"}

            event: error
            data: {"error":
            data:  {"message":"two lines"}}

            id: 7
            retry: 1000
            data:no space

            data: [DONE]

            """;

    private static final List<ServerSentEvent> EVENTS = List.of(
            new ServerSentEvent(null, "{\"delta\":\"Grüße 🌍\"}"),
            new ServerSentEvent("error", "{\"error\":\n {\"message\":\"two lines\"}}"),
            new ServerSentEvent(null, "no space"),
            new ServerSentEvent(null, "[DONE]"));

    @Test
    void decodesDataEventNamesMultiLineDataAndSkipsCommentsAndOtherFields() {
        assertEquals(EVENTS, decodeInOneChunk(STREAM));
    }

    @ParameterizedTest
    @ValueSource(strings = {"\r\n", "\r"})
    void acceptsCrlfAndCrLineEndings(String lineEnding) {
        assertEquals(EVENTS, decodeInOneChunk(STREAM.replace("\n", lineEnding)));
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void chunkBoundariesAnywhereIncludingInsideUtf8AndCrlf(long seed) {
        assertEquals(EVENTS, decodeCrlfStreamInPieces(seed, SseDecoderTest::drain));
    }

    /** The CRLF stream, fed to a decoder in random pieces, each followed by {@code drain}: the events it drained. */
    private static List<ServerSentEvent> decodeCrlfStreamInPieces(
            long seed, BiConsumer<SseDecoder, List<ServerSentEvent>> drain) {
        byte[] body = STREAM.replace("\n", "\r\n").getBytes(StandardCharsets.UTF_8);
        SseDecoder decoder = new SseDecoder();
        List<ServerSentEvent> events = new ArrayList<>();
        feedInPieces(decoder, body, new Random(seed), 5, () -> drain.accept(decoder, events));
        return events;
    }

    @Test
    void eachByteAloneStillDecodes() {
        byte[] body = STREAM.getBytes(StandardCharsets.UTF_8);
        SseDecoder decoder = new SseDecoder();
        List<ServerSentEvent> events = new ArrayList<>();
        for (byte b : body) {
            decoder.feed(Buffer.buffer(new byte[] {b}));
            drain(decoder, events);
        }
        assertEquals(EVENTS, events);
    }

    @Test
    void anEventIsDeliveredOnlyOnceItsBlankLineArrives() {
        SseDecoder decoder = new SseDecoder();
        decoder.feed(Buffer.buffer("data: a\n".getBytes(StandardCharsets.UTF_8)));
        assertEquals(null, decoder.poll());
        assertEquals(0, decoder.backlog());
        decoder.feed(Buffer.buffer("\n".getBytes(StandardCharsets.UTF_8)));
        assertEquals(1, decoder.backlog());
        assertEquals(new ServerSentEvent(null, "a"), decoder.poll());
        assertEquals(0, decoder.backlog());
    }

    @Test
    void atTheEndACompleteEventWithoutBlankLineCountsButAnUnterminatedLineDoesNot() {
        SseDecoder complete = new SseDecoder();
        complete.feed(Buffer.buffer("data: [DONE]\n".getBytes(StandardCharsets.UTF_8)));
        complete.endOfStream();
        assertEquals(new ServerSentEvent(null, "[DONE]"), complete.poll());

        SseDecoder cut = new SseDecoder();
        cut.feed(Buffer.buffer("data: {\"choices\":[{\"de".getBytes(StandardCharsets.UTF_8)));
        cut.endOfStream();
        assertEquals(null, cut.poll());
    }

    @Test
    void eventsWithoutDataAndALeadingByteOrderMarkAreIgnored() {
        assertEquals(List.of(new ServerSentEvent(null, "x")), decodeInOneChunk("\uFEFFevent: ping\n\ndata:\n\ndata: x\n\n"));
    }

    @Test
    void aBodyThatIsNotAnEventStreamYieldsNoEvents() {
        assertEquals(List.of(), decodeInOneChunk("<!DOCTYPE html>\n<html><body>Bad gateway</body></html>\n"));
        assertEquals(List.of(), decodeInOneChunk("{\"error\":{\"message\":\"overloaded\"}}"));
    }

    @Test
    void aLineWithoutEndIsBoundedInSize() {
        SseDecoder decoder = new SseDecoder();
        byte[] megabyte = new byte[1024 * 1024];
        Arrays.fill(megabyte, (byte) 'x');
        assertThrows(SseDecoder.EventTooLarge.class, () -> {
            for (int i = 0; i <= SseDecoder.MAX_EVENT_BYTES / megabyte.length; i++) {
                decoder.feed(Buffer.buffer(megabyte));
            }
        });
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void unnamedOneLineAsciiEventsCanBeReadInPlaceAndTheOthersAsText(long seed) {
        List<String> inPlace = new ArrayList<>();
        assertEquals(EVENTS, decodeCrlfStreamInPieces(seed,
                (decoder, events) -> drainInPlaceFirst(decoder, events, inPlace)));
        assertEquals(List.of("no space", "[DONE]"), inPlace);
    }

    /** Events left queued while more arrive, a line split from its blank line, drained now and then, in order. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void queuedEventsKeepTheirOrderAndDataWhateverIsReadInPlaceBetweenFeeds(long seed) {
        Random random = new Random(seed);
        StringBuilder body = new StringBuilder();
        List<ServerSentEvent> expected = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            String data = random.nextInt(10) == 0 ? "é" + i : "{\"n\":" + i + ",\"pad\":\"" + "x".repeat(random.nextInt(40)) + "\"}";
            body.append("data: ").append(data).append('\n').append('\n');
            expected.add(new ServerSentEvent(null, data));
        }
        byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
        SseDecoder decoder = new SseDecoder();
        List<ServerSentEvent> events = new ArrayList<>();
        feedInPieces(decoder, bytes, random, 200, () -> {
            if (random.nextInt(4) == 0) {
                drainInPlaceFirst(decoder, events, new ArrayList<>());
                assertEquals(0, decoder.backlog());
            }
        });
        drainInPlaceFirst(decoder, events, new ArrayList<>());
        assertEquals(expected, events);
    }

    /** Feeds the body in pieces of 1 to {@code longest} bytes, then ends it, calling {@code afterEach} after each. */
    private static void feedInPieces(SseDecoder decoder, byte[] body, Random random, int longest, Runnable afterEach) {
        for (int offset = 0; offset < body.length; ) {
            int end = Math.min(body.length, offset + 1 + random.nextInt(longest));
            decoder.feed(Buffer.buffer(Arrays.copyOfRange(body, offset, end)));
            afterEach.run();
            offset = end;
        }
        decoder.endOfStream();
        afterEach.run();
    }

    private static void drainInPlaceFirst(SseDecoder decoder, List<ServerSentEvent> into, List<String> inPlace) {
        while (true) {
            boolean read = decoder.pollAscii((bytes, start, length) -> {
                String data = new String(bytes, start, length, StandardCharsets.US_ASCII);
                into.add(new ServerSentEvent(null, data));
                inPlace.add(data);
            });
            if (!read) {
                ServerSentEvent event = decoder.poll();
                if (event == null) {
                    return;
                }
                into.add(event);
            }
        }
    }

    private static List<ServerSentEvent> decodeInOneChunk(String body) {
        SseDecoder decoder = new SseDecoder();
        decoder.feed(Buffer.buffer(body.getBytes(StandardCharsets.UTF_8)));
        decoder.endOfStream();
        List<ServerSentEvent> events = new ArrayList<>();
        drain(decoder, events);
        return events;
    }

    private static void drain(SseDecoder decoder, List<ServerSentEvent> into) {
        for (ServerSentEvent event = decoder.poll(); event != null; event = decoder.poll()) {
            into.add(event);
        }
    }
}
