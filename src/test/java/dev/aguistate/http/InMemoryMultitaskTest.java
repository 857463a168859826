package dev.aguistate.http;

import dev.aguistate.testing.StubbedLlmProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

@QuarkusTest
@TestProfile(StubbedLlmProfile.class)
class InMemoryMultitaskTest extends MultitaskContract {}
