package dev.aguistate.session;

import dev.aguistate.testing.StubbedLlmProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

@QuarkusTest
@TestProfile(StubbedLlmProfile.class)
class InMemoryTranscriptReconciliationTest extends TranscriptReconciliationContract {}
