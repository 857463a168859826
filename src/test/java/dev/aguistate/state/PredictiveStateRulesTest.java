package dev.aguistate.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.protocol.AgUiJson;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** The rules of design §5, one at a time, on hand-picked fragment boundaries. Patches are compared as wire JSON. */
@Execution(ExecutionMode.CONCURRENT)
class PredictiveStateRulesTest {

    private static final String CALL = "call-1";

    private PredictiveState state;

    /** A state predicting {@code key} from {@code tool}'s {@code argument} (null: whole arguments), call started. */
    private void start(String clientState, String key, String tool, String argument) {
        state = new PredictiveState(object(clientState), List.of(new PredictiveMapping(key, tool, argument)));
        state.onToolCallStart(CALL, tool);
    }

    /** Feeds a fragment and returns the drained patch as JSON. */
    private String feed(String fragment) {
        state.onArguments(CALL, fragment);
        return AgUiJson.write(state.drain());
    }

    private static ObjectNode object(String json) {
        return (ObjectNode) AgUiJson.tree(json);
    }

    @Test
    void stringsGrowWithEscapesDecodedAndHalfEscapesHeldBack() {
        start("{}", "doc", "write", "text");
        assertEquals("[{\"op\":\"add\",\"path\":\"/doc\",\"value\":\"ab\"}]", feed("{\"text\":\"ab\\"));
        assertEquals("[{\"op\":\"replace\",\"path\":\"/doc\",\"value\":\"ab\\n\"}]", feed("n"));
        assertEquals("[]", feed("\\u00"));
        assertEquals("[{\"op\":\"replace\",\"path\":\"/doc\",\"value\":\"ab\\né\"}]", feed("e9"));
        assertEquals("[]", feed("\\uD83D"), "a high surrogate waits for its low half");
        assertEquals("[]", feed("\\"));
        assertEquals("[{\"op\":\"replace\",\"path\":\"/doc\",\"value\":\"ab\\né\uD83D\uDE00\"}]", feed("uDE00"));
        assertEquals("[]", feed("\uD83E"), "a raw high surrogate at a fragment's end waits too");
        assertEquals("[{\"op\":\"replace\",\"path\":\"/doc\",\"value\":\"ab\\né\uD83D\uDE00\uD83E\uDD55\"}]", feed("\uDD55"));
        assertEquals("[{\"op\":\"replace\",\"path\":\"/doc\",\"value\":\"ab\\né\uD83D\uDE00\uD83E\uDD55\\\"\\\\/\\t\"}]",
                feed("\\\"\\\\\\/\\t\"}"));
    }

    @Test
    void numbersAppearOnlyOnceADelimiterEndsThem() {
        start("{}", "s", "t", "*");
        assertEquals("[{\"op\":\"add\",\"path\":\"/s\",\"value\":{}}]", feed("{\"n\":-1.5e"));
        assertEquals("[]", feed("3"));
        assertEquals("[{\"op\":\"add\",\"path\":\"/s/n\",\"value\":-1500.0},{\"op\":\"add\",\"path\":\"/s/a\",\"value\":[]}]",
                feed(" ,\"a\":[1"), "the array shows, not its unfinished 1");
        assertEquals("[{\"op\":\"add\",\"path\":\"/s/a/0\",\"value\":1},{\"op\":\"add\",\"path\":\"/s/a/1\",\"value\":20}]",
                feed(",20]"));
    }

    @Test
    void literalsAppearOnceSpelledOut() {
        start("{}", "s", "t", null);
        assertEquals("[{\"op\":\"add\",\"path\":\"/s\",\"value\":{}}]", feed("{\"t\":tru"));
        assertEquals("[{\"op\":\"add\",\"path\":\"/s/t\",\"value\":true}]", feed("e"));
        assertEquals("[]", feed(",\"z\":nul"));
        assertEquals("[{\"op\":\"add\",\"path\":\"/s/z\",\"value\":null}]", feed("l"));
    }

    @Test
    void membersAppearOnceTheirNameIsCompleteAndTheirValueHasStarted() {
        start("{}", "s", "t", "");
        assertEquals("[{\"op\":\"add\",\"path\":\"/s\",\"value\":{\"r\":{}}}]", feed("{\"r\":{\"ti"));
        assertEquals("[]", feed("tle\" :"));
        assertEquals("[{\"op\":\"add\",\"path\":\"/s/r/title\",\"value\":\"\"}]", feed(" \""));
        assertEquals("[{\"op\":\"replace\",\"path\":\"/s/r/title\",\"value\":\"P\"}]", feed("P"));
        assertEquals("[{\"op\":\"add\",\"path\":\"/s/r/tags\",\"value\":[]}]", feed("\",\"tags\":["));
        assertEquals("[{\"op\":\"add\",\"path\":\"/s/r/tags/0\",\"value\":{}}]", feed("{"));
    }

    @Test
    void aParentAddedInTheSameDrainCarriesItsChildren() {
        start("{}", "s", "t", "*");
        assertEquals("[{\"op\":\"add\",\"path\":\"/s\",\"value\":{\"r\":{\"a\":\"x\",\"b\":[1,{\"c\":\"d\"}]}}}]",
                feed("{\"r\":{\"a\":\"x\",\"b\":[1,{\"c\":\"d"));
        assertEquals("[{\"op\":\"replace\",\"path\":\"/s/r/b/1/c\",\"value\":\"de\"},"
                + "{\"op\":\"add\",\"path\":\"/s/r/b/2\",\"value\":{\"e\":[]}}]", feed("e\"},{\"e\":["));
    }

    @Test
    void pointersAreEscaped() {
        start("{}", "a/b~c", "t", "*");
        assertEquals("[{\"op\":\"add\",\"path\":\"/a~1b~0c\",\"value\":{\"x/y\":{\"~z\":\"\"}}}]",
                feed("{\"x/y\":{\"~z\":\""));
        assertEquals("[{\"op\":\"replace\",\"path\":\"/a~1b~0c/x~1y/~0z\",\"value\":\"v\"}]", feed("v"));
    }

    @Test
    void theFirstAppearanceAddsAMissingKeyAndReplacesAPresentOne() {
        start("{\"other\":1}", "title", "t", "title");
        assertEquals("[{\"op\":\"add\",\"path\":\"/title\",\"value\":\"\"}]", feed("{\"title\":\""));
        start("{\"title\":{\"old\":[1,2]}}", "title", "t", "title");
        assertEquals("[{\"op\":\"replace\",\"path\":\"/title\",\"value\":\"N\"}]", feed("{\"title\":\"N"));
        assertEquals("{\"title\":\"N\"}", AgUiJson.write(state.clientView()));
    }

    @Test
    void aNestedMemberOfTheSameNameIsNotTheArgument() {
        start("{}", "title", "update_recipe", "title");
        assertEquals("[]", feed("{\"recipe\":{\"title\":\"inner\",\"steps\":[{\"title\":\"x\"}]},"));
        assertFalse(state.hasPendingChanges());
        assertEquals("[{\"op\":\"add\",\"path\":\"/title\",\"value\":\"ou\"}]", feed("\"title\":\"ou"));
    }

    @Test
    void invalidJsonStopsThePredictionQuietly() {
        start("{}", "s", "t", "*");
        assertEquals("[{\"op\":\"add\",\"path\":\"/s\",\"value\":{\"a\":\"x\"}}]", feed("{\"a\":\"x\",\"b\":tx"));
        assertEquals("[]", feed("\",\"c\":\"more\"}"));
        assertFalse(state.hasPendingChanges());

        start("{}", "s", "t", "*");
        assertEquals("[{\"op\":\"add\",\"path\":\"/s\",\"value\":{}}]", feed("{\"n\":1.2.3,\"m\":2,"));
        start("{}", "s", "t", "*");
        assertEquals("[{\"op\":\"add\",\"path\":\"/s\",\"value\":{\"a\":1}}]", feed("{\"a\":1,\"a\":2,\"b\":3}"),
                "a duplicate name stops the prediction: either value shown could be wrong");
    }

    @Test
    void parallelCallsOfSeveralToolsFeedTheirOwnKeys() {
        state = new PredictiveState(object("{\"keep\":true}"), List.of(
                new PredictiveMapping("title", "update_recipe", "title"),
                new PredictiveMapping("recipe", "update_recipe", "*"),
                new PredictiveMapping("note", "write_note", "text")));
        state.onToolCallStart("a", "update_recipe");
        state.onToolCallStart("b", "write_note");
        state.onToolCallStart("c", "get_weather");
        state.onArguments("a", "{\"title\":\"Pa");
        state.onArguments("b", "{\"text\":\"Hel");
        state.onArguments("c", "{\"city\":\"Oslo\"}");
        assertEquals("[{\"op\":\"add\",\"path\":\"/title\",\"value\":\"Pa\"},"
                + "{\"op\":\"add\",\"path\":\"/recipe\",\"value\":{\"title\":\"Pa\"}},"
                + "{\"op\":\"add\",\"path\":\"/note\",\"value\":\"Hel\"}]", AgUiJson.write(state.drain()));
        state.onArguments("b", "lo\"}");
        state.onArguments("a", "sta\",\"servings\":4}");
        assertEquals("[{\"op\":\"replace\",\"path\":\"/title\",\"value\":\"Pasta\"},"
                + "{\"op\":\"replace\",\"path\":\"/recipe/title\",\"value\":\"Pasta\"},"
                + "{\"op\":\"add\",\"path\":\"/recipe/servings\",\"value\":4},"
                + "{\"op\":\"replace\",\"path\":\"/note\",\"value\":\"Hello\"}]", AgUiJson.write(state.drain()));
        assertEquals("{\"keep\":true,\"title\":\"Pasta\",\"recipe\":{\"title\":\"Pasta\",\"servings\":4},\"note\":\"Hello\"}",
                AgUiJson.write(state.clientView()));
    }

    @Test
    void theLatestCallPredictingAKeyTakesItOver() {
        start("{}", "doc", "write", "text");
        feed("{\"text\":\"first");
        state.onToolCallStart("call-2", "write");
        state.onArguments("call-2", "{\"text\":\"sec");
        state.onArguments(CALL, " call goes on");
        assertEquals("[{\"op\":\"replace\",\"path\":\"/doc\",\"value\":\"sec\"}]", AgUiJson.write(state.drain()));
    }

    @Test
    void pendingChangesAreThoseTheNextDrainWouldSend() {
        start("{}", "s", "t", "*");
        assertFalse(state.hasPendingChanges());
        state.onArguments(CALL, "{\"a\":\"x");
        assertTrue(state.hasPendingChanges());
        state.drain();
        assertFalse(state.hasPendingChanges());
        state.onArguments(CALL, "\",\"b\":12");
        assertFalse(state.hasPendingChanges(), "12 may still become 123");
        state.onArguments(CALL, "}");
        assertTrue(state.hasPendingChanges());
    }

    @Test
    void theClientStateIsCopiedNotMutated() {
        ObjectNode clientState = object("{\"doc\":\"old\"}");
        state = new PredictiveState(clientState, List.of(new PredictiveMapping("doc", "write", "text")));
        state.onToolCallStart(CALL, "write");
        state.onArguments(CALL, "{\"text\":\"new\"}");
        state.drain();
        assertEquals("{\"doc\":\"old\"}", AgUiJson.write(clientState));
        assertEquals("{\"doc\":\"new\"}", AgUiJson.write(state.clientView()));
    }

    @Test
    void mappingsAreLookedUpByTool() {
        PredictiveMapping title = new PredictiveMapping("title", "update_recipe", "title");
        PredictiveMapping recipe = new PredictiveMapping("recipe", "update_recipe", " ");
        state = new PredictiveState(object("{}"), List.of(title, recipe));
        assertTrue(state.predicts("update_recipe"));
        assertFalse(state.predicts("get_weather"));
        assertEquals(List.of(title, recipe), state.mappingsFor("update_recipe"));
        assertFalse(title.wholeArguments());
        assertTrue(recipe.wholeArguments());
        assertThrows(IllegalArgumentException.class, () -> new PredictiveState(object("{}"),
                List.of(title, new PredictiveMapping("title", "update_recipe", "name"))));
    }
}
