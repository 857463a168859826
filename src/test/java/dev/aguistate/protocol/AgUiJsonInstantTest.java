package dev.aguistate.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** Instants are written as Jackson's own serializer wrote them: stored threads and the thread API keep their text. */
@Execution(ExecutionMode.CONCURRENT)
class AgUiJsonInstantTest {

    /** Jackson's serializer of instants, as the wire mapper had it. */
    private static final ObjectMapper JACKSONS = JsonMapper.builder().addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS).build();

    @Test
    void everyInstantIsWrittenAsJacksonWroteItAndReadsBackTheSame() throws Exception {
        List<Instant> instants = new ArrayList<>(List.of(Instant.EPOCH, Instant.MIN, Instant.MAX,
                Instant.parse("0000-01-01T00:00:00Z"), Instant.parse("9999-12-31T23:59:59.999999999Z"),
                Instant.parse("+10000-01-01T00:00:00Z"), Instant.parse("-0001-12-31T23:59:59Z"),
                Instant.parse("1969-12-31T23:59:59.5Z"), Instant.parse("2026-11-27T22:49:00Z"),
                Instant.parse("2024-02-29T12:00:00.000001Z"), Instant.parse("2026-11-27T22:49:22.100000000Z")));
        Random random = new Random(31);
        long first = Instant.parse("0000-01-01T00:00:00Z").getEpochSecond();
        long last = Instant.parse("9999-12-31T23:59:59Z").getEpochSecond();
        for (int i = 0; i < 20_000; i++) {
            long second = first + (long) (random.nextDouble() * (last - first));
            int nano = switch (i % 4) { // whole seconds, milli-, micro- and nanoseconds
                case 0 -> 0;
                case 1 -> random.nextInt(1000) * 1_000_000;
                case 2 -> random.nextInt(1_000_000) * 1000;
                default -> random.nextInt(1_000_000_000);
            };
            instants.add(Instant.ofEpochSecond(i % 8 == 7 ? second - second % 60 : second, nano));
        }
        for (Instant instant : instants) {
            String written = AgUiJson.write(instant);
            assertEquals(JACKSONS.writeValueAsString(instant), written, instant::toString);
            assertEquals(instant, AgUiJson.read(written, Instant.class));
        }
    }

    @Test
    void instantsInsideRecordsAndMapsAreWrittenTheSameWay() throws Exception {
        record Stamped(Instant at, Map<String, Instant> times) {}
        Stamped stamped = new Stamped(Instant.parse("2026-11-27T22:49:22.123Z"),
                Map.of("m1", Instant.parse("2026-11-27T22:49:23Z")));

        assertEquals(JACKSONS.writeValueAsString(stamped), AgUiJson.write(stamped));
    }
}
