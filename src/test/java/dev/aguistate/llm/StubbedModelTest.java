package dev.aguistate.llm;

import org.junit.jupiter.api.AfterEach;

/** Base of the plain JUnit tests of the adapter: each test starts its {@link StubbedModel}, which is closed after it. */
abstract class StubbedModelTest {

    private StubbedModel started;

    /** @param config {@code agui.llm.*} overrides as name, value, ... */
    protected StubbedModel start(String... config) {
        started = new StubbedModel(config);
        return started;
    }

    @AfterEach
    void closeStubbedModel() throws Exception {
        if (started != null) {
            started.close();
        }
    }
}
