package dev.aguistate.http;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

@QuarkusTest
@TestProfile(MultitaskContract.Memory.class)
class InMemoryMultitaskTest extends MultitaskContract {}
