package dev.aguistate.http;

import dev.aguistate.testing.StoreProfiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.extension.ExtendWith;

@QuarkusTest
@TestProfile(StoreProfiles.Users.Redis.class)
@ExtendWith(StoreProfiles.RedisReachable.class)
class RedisMultitaskTest extends MultitaskContract {}
