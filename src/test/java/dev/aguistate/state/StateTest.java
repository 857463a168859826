package dev.aguistate.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

@Execution(ExecutionMode.CONCURRENT)
class StateTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final StateSchema RECIPE = StateSchema.builder()
            .key("title", "The recipe's name", JsonType.STRING)
            .key("steps", "What to do, in order", JsonType.ARRAY)
            .key("servings", "How many people", JsonType.INTEGER, JsonType.NULL)
            .key(new StateKey("tags", EnumSet.of(JsonType.ARRAY), "Labels", json("[\"new\"]"), MergeHandlers.REPLACE))
            .key(new StateKey("counter", EnumSet.of(JsonType.INTEGER), "A running total", json("0"),
                    (current, written) -> IntNode.valueOf(current.asInt() + written.asInt())))
            .build();

    @Test
    void readsWhatWasWrittenAndDefaults() {
        State state = new State(RECIPE, json("{\"title\":\"Soup\"}"));

        assertTrue(state.has("title"));
        assertEquals(TextNode.valueOf("Soup"), state.get("title"));
        assertFalse(state.has("steps"));
        assertNull(state.get("steps"));
        assertEquals(json("[]"), state.get("steps", json("[]")));
        assertEquals(json("[\"new\"]"), state.get("tags"), "declared default");
        assertEquals(json("{\"tags\":[\"new\"],\"counter\":0,\"title\":\"Soup\"}"), state.toJson());
    }

    @Test
    void arraysConcatenateAndEverythingElseIsReplacedByDefault() {
        State state = new State(RECIPE, json("{\"title\":\"Soup\",\"steps\":[\"boil\"]}"));

        state.set("steps", json("[\"stir\",\"serve\"]"));
        state.set("title", TextNode.valueOf("Stew"));

        assertEquals(json("[\"boil\",\"stir\",\"serve\"]"), state.get("steps"));
        assertEquals(TextNode.valueOf("Stew"), state.get("title"));
    }

    @Test
    void declaredAndPerCallHandlersWin() {
        State state = State.empty(RECIPE);

        state.set("counter", IntNode.valueOf(5));
        state.set("counter", IntNode.valueOf(2));
        state.set("tags", json("[\"quick\"]"));
        assertEquals(IntNode.valueOf(7), state.get("counter"), "custom handler sums");
        assertEquals(json("[\"quick\"]"), state.get("tags"), "declared replace beats array concatenation");

        state.set("steps", json("[\"a\"]"));
        state.set("steps", json("[\"b\"]"), MergeHandlers.REPLACE);
        assertEquals(json("[\"b\"]"), state.get("steps"), "per-call override");
    }

    @Test
    void aWriteOfTheWrongTypeNamesKeyExpectedAndActualAndChangesNothing() {
        State state = new State(RECIPE, json("{\"title\":\"Soup\"}"));

        StateWriteException e = assertThrows(StateWriteException.class, () -> state.set("title", IntNode.valueOf(3)));

        assertEquals("state key 'title' expects string but got integer", e.getMessage());
        assertEquals("title", e.key());
        assertEquals(TextNode.valueOf("Soup"), state.get("title"));
    }

    @Test
    void unionsAndNullableKeys() {
        State state = State.empty(RECIPE);

        state.set("servings", IntNode.valueOf(4));
        state.set("servings", NullNode.instance);
        assertEquals(NullNode.instance, state.get("servings"));
        state.set("servings", json("2.0"));
        StateWriteException e = assertThrows(StateWriteException.class, () -> state.set("servings", json("2.5")));
        assertEquals("state key 'servings' expects integer or null but got number", e.getMessage());
    }

    @Test
    void undeclaredKeysAreRejectedUnlessTheStateIsFreeForm() {
        State typed = State.empty(RECIPE);
        StateWriteException e = assertThrows(StateWriteException.class, () -> typed.set("colour", TextNode.valueOf("red")));
        assertTrue(e.getMessage().startsWith("state key 'colour' is not a key of this state"), e.getMessage());

        State free = new State(StateSchema.FREE_FORM, json("{\"list\":[1]}"));
        free.set("colour", TextNode.valueOf("red"));
        free.set("list", json("[2]"));
        assertEquals(json("{\"list\":[2],\"colour\":\"red\"}"), free.toJson(), "free-form keys are replaced");
    }

    @Test
    void clientStateIsCheckedOnTheWayIn() {
        StateWriteException e = assertThrows(StateWriteException.class,
                () -> new State(RECIPE, json("{\"steps\":\"boil\"}")));
        assertEquals("state key 'steps' expects array but got string", e.getMessage());
        assertThrows(StateWriteException.class, () -> new State(RECIPE, json("[1]")));
        assertEquals(RECIPE.defaults(), new State(RECIPE, NullNode.instance).toJson());
    }

    @Test
    void readsAreCopiesAndAFailingHandlerIsReported() {
        State state = new State(RECIPE, json("{\"steps\":[\"boil\"]}"));
        ((ArrayNode) state.get("steps")).add("tampered");
        assertEquals(json("[\"boil\"]"), state.get("steps"));

        StateWriteException e = assertThrows(StateWriteException.class, () -> state.set("steps", json("[1]"),
                (current, written) -> {
                    throw new IllegalStateException("no merging today");
                }));
        assertEquals("state key 'steps' could not be merged: no merging today", e.getMessage());
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(text, e);
        }
    }
}
