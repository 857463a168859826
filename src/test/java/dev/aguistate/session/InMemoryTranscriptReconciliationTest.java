package dev.aguistate.session;

import dev.aguistate.testing.StoreProfiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;

@QuarkusTest
@TestProfile(StoreProfiles.Users.Memory.class)
class InMemoryTranscriptReconciliationTest extends TranscriptReconciliationContract {}
