package dev.aguistate.state;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** Every prefix the parser shows, under any fragmentation, only ever needs extending to become the full parse. */
@Execution(ExecutionMode.CONCURRENT)
class PartialJsonParserPropertyTest {

    private static final ObjectMapper JACKSON = new ObjectMapper();

    @TestFactory
    List<DynamicTest> everyPredictionIsConsistentWithTheFinalParse() {
        return JsonCorpus.documents().entrySet().stream()
                .map(document -> DynamicTest.dynamicTest(document.getKey(), () -> streamAllChunkings(document)))
                .toList();
    }

    private static void streamAllChunkings(Map.Entry<String, String> document) throws Exception {
        JsonNode expected = JACKSON.readTree(document.getValue());
        for (int number = 0; number < Fragmentation.chunkings(document.getValue()); number++) {
            PartialJsonParser parser = new PartialJsonParser();
            List<String> chunks = Fragmentation.chunking(document.getValue(), number);
            for (int i = 0; i < chunks.size(); i++) {
                parser.feed(chunks.get(i));
                if (parser.root() != null) {
                    JsonConsistency.assertConsistent(parser.root().toJson(), expected,
                            document.getKey() + " chunking " + number + " after fragment " + i + " ");
                }
            }
            assertEquals(expected, parser.root().toJson(), document.getKey() + " chunking " + number + ": final");
        }
    }
}
