package dev.aguistate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Configured paths read as Quarkus reads its own: a leading slash is absolute, none is under the base. */
@Execution(ExecutionMode.CONCURRENT)
class BasePathTest {

    private static final BasePath ASSISTANT = new BasePath("/assistant");

    @ParameterizedTest(name = "''{0}'' under /assistant is ''{1}''")
    @CsvSource({"copilotkit, /assistant/copilotkit", "/copilotkit, /copilotkit", "ck/, /assistant/ck",
        "/, ''", "' /a//b/ ', /a/b", "'', /assistant"})
    void aLeadingSlashMakesAPathAbsolute(String configured, String expected) {
        assertEquals(expected, ASSISTANT.resolve("key", configured).prefix());
    }

    @Test
    void theServerRootIsNoPrefixAndRoutesKeepTheirPaths() {
        BasePath root = BasePath.SERVER_ROOT.resolve("agui.http.root", "/");
        assertTrue(root.isServerRoot());
        assertEquals("/agui/agents", root.path("/agui/agents"));
        assertEquals("/", root.toString());
        assertEquals("/assistant/agui/agents", ASSISTANT.path("/agui/agents"));
    }

    @Test
    void theAgentErrorsNameThePathsUnderTheRoot() {
        assertEquals("there is no agent named 'x'; GET /assistant/agui/agents lists them",
                ErrorBody.unknownAgent(ASSISTANT, "x").message());
        assertEquals("there is no default agent: name one in the path (POST /assistant/agui/{agent}; GET"
                + " /assistant/agui/agents lists them) or set agui.agents.default",
                ErrorBody.noDefaultAgent(ASSISTANT).message());
        assertEquals("there is no agent named 'x'; GET /agui/agents lists them",
                ErrorBody.unknownAgent(BasePath.SERVER_ROOT, "x").message());
    }

    @ParameterizedTest
    @ValueSource(strings = {"/a/../b", "/./a", "/a:b", "/a*", "/a b", "/a%2Fb", "/a?x=1"})
    void aSegmentThatIsNotPlainStopsTheStartNamingTheKey(String configured) {
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> BasePath.SERVER_ROOT.resolve("agui.http.root", configured));
        assertTrue(refused.getMessage().startsWith("agui.http.root is '" + configured + "'"), refused.getMessage());
    }

    @Test
    void containsComparesWholeSegments() {
        assertTrue(ASSISTANT.contains(new BasePath("/assistant")));
        assertTrue(ASSISTANT.contains(new BasePath("/assistant/copilotkit")));
        assertFalse(ASSISTANT.contains(new BasePath("/assistants")));
        assertFalse(ASSISTANT.contains(BasePath.SERVER_ROOT));
        assertTrue(BasePath.SERVER_ROOT.contains(ASSISTANT));
    }
}
