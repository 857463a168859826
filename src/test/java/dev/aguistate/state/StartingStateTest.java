package dev.aguistate.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

@Execution(ExecutionMode.CONCURRENT)
class StartingStateTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final StateSchema SCHEMA = StateSchema.builder()
            .key("title", "", JsonType.STRING)
            .key("plan", "", JsonType.STRING)
            .key("user:name", "", JsonType.STRING)
            .key("app:motd", "", JsonType.STRING)
            .key("temp:scratch", "", JsonType.STRING)
            .build();

    private static ObjectNode json(String text) {
        try {
            return (ObjectNode) JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    private static final StateLayers STORED = new StateLayers(json("{\"title\":\"stored\",\"plan\":\"p1\"}"),
            json("{\"user:name\":\"Ada\"}"), json("{\"app:motd\":\"hello\"}"));

    private static StartingState start(StateLayers stored, JsonNode client, StateSchema schema, Set<String> owned,
                                       Set<String> proposed) {
        return StartingState.of(stored, client, schema, owned, proposed);
    }

    @Test
    void theClientsKeysWinOverTheStoredOnesAndKeysItDidNotSendAreKept() {
        StartingState start = start(STORED, json("{\"title\":\"edited\",\"user:name\":\"Grace\"}"), SCHEMA,
                Set.of(), Set.of());

        assertEquals(json("{\"title\":\"edited\",\"plan\":\"p1\",\"user:name\":\"Grace\",\"app:motd\":\"hello\"}"),
                start.state().toJson());
        assertEquals(List.of(), start.ignoredKeys());
    }

    @Test
    void serverOwnedAppAndTempKeysIgnoreTheClientAndSayWhenItTried() {
        StartingState start = start(STORED, json("{\"plan\":\"hijack\",\"app:motd\":\"spam\",\"temp:scratch\":\"x\","
                + "\"title\":\"stored\"}"), SCHEMA, Set.of("plan"), Set.of());

        assertEquals(json("{\"title\":\"stored\",\"plan\":\"p1\",\"user:name\":\"Ada\",\"app:motd\":\"hello\"}"),
                start.state().toJson());
        assertEquals(Set.of("plan", "app:motd", "temp:scratch"), Set.copyOf(start.ignoredKeys()));
    }

    @Test
    void aKeyWithAProposalAwaitingAnAnswerKeepsWhatWasThereBefore() {
        StartingState start = start(STORED, json("{\"title\":\"the proposal\"}"), SCHEMA, Set.of(), Set.of("title"));

        assertEquals("stored", start.state().get("title").asText());
        assertEquals(List.of(), start.ignoredKeys());
    }

    @Test
    void storedKeysOfOtherAgentsSchemasAreLeftOutButFreeFormTakesThemAll() {
        StateLayers stored = new StateLayers(json("{\"title\":\"t\",\"cart\":[1]}"), json("{}"), json("{}"));

        assertEquals(json("{\"title\":\"t\"}"), start(stored, null, SCHEMA, Set.of(), Set.of()).state().toJson());
        assertEquals(json("{\"title\":\"t\",\"cart\":[1]}"),
                start(stored, null, StateSchema.FREE_FORM, Set.of(), Set.of()).state().toJson());
    }

    @Test
    void aClientStateThatIsNotAnObjectIsRefusedWhetherOrNotTheThreadIsKnown() {
        for (StateLayers stored : List.of(StateLayers.empty(), STORED)) {
            assertThrows(StateWriteException.class, () -> start(stored, JSON.getNodeFactory().textNode("x"), SCHEMA,
                    Set.of(), Set.of()));
            assertThrows(StateWriteException.class, () -> start(stored, json("{\"a\":[1]}").get("a"), SCHEMA,
                    Set.of(), Set.of()));
        }
    }

    @Test
    void aValueThatBreaksTheSchemaIsRefused() {
        assertThrows(StateWriteException.class, () -> start(STORED, json("{\"title\":7}"), SCHEMA, Set.of(), Set.of()));
    }

    @Test
    void theFinalStateSplitsBackIntoItsLayersDroppingTempKeysAndKeepingOtherAgentsKeys() {
        StateLayers stored = new StateLayers(json("{\"title\":\"t\",\"cart\":[1]}"), json("{\"user:name\":\"Ada\"}"),
                json("{\"app:motd\":\"hi\",\"app:other\":1}"));

        StateLayers after = stored.absorb(json("{\"title\":\"new\",\"user:name\":\"Grace\",\"app:motd\":\"hi\","
                + "\"temp:scratch\":\"gone\"}"));

        assertEquals(json("{\"title\":\"new\",\"cart\":[1]}"), after.thread());
        assertEquals(json("{\"user:name\":\"Grace\"}"), after.user());
        assertEquals(json("{\"app:motd\":\"hi\",\"app:other\":1}"), after.app());
        assertEquals(stored.app(), after.app());
    }
}
