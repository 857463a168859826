package dev.aguistate.session;

import dev.aguistate.testing.StoreProfiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.extension.ExtendWith;

@QuarkusTest
@TestProfile(StoreProfiles.Users.Redis.class)
@ExtendWith(StoreProfiles.RedisReachable.class)
class RedisTranscriptReconciliationTest extends TranscriptReconciliationContract {}
