package dev.aguistate.llm;

import dev.langchain4j.http.client.HttpClient;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;

/** Base of the plain JUnit tests of the adapter: each test starts its {@link StubbedModel}, which is closed after it. */
abstract class StubbedModelTest {

    private StubbedModel started;

    /** @param config {@code agui.llm.*} overrides as name, value, ... */
    protected StubbedModel start(String... config) {
        return start(UnaryOperator.identity(), config);
    }

    /** @param transport what langchain4j sends through, given the model's HTTP client */
    protected StubbedModel start(UnaryOperator<HttpClient> transport, String... config) {
        started = new StubbedModel(transport, config);
        return started;
    }

    @AfterEach
    void closeStubbedModel() throws Exception {
        if (started != null) {
            started.close();
        }
    }
}
