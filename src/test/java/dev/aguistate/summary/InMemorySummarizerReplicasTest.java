package dev.aguistate.summary;

import dev.aguistate.testing.StubbedLlmProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

/** One replica's two summarizers share its one store. */
@QuarkusTest
@TestProfile(StubbedLlmProfile.class)
class InMemorySummarizerReplicasTest extends SummarizerReplicasContract {

    @Override
    protected Summarizer otherReplicasSummarizer() {
        return summarizerOver(store, summaries);
    }
}
