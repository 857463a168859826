package dev.aguistate.http;

import dev.aguistate.testing.StoreProfiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

@QuarkusTest
@TestProfile(StoreProfiles.Users.Memory.class)
class InMemoryMultitaskTest extends MultitaskContract {}
