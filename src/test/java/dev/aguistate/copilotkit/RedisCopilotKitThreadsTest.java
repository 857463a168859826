package dev.aguistate.copilotkit;

import dev.aguistate.testing.StoreProfiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtendWith;

@QuarkusTest
@TestProfile(RedisCopilotKitThreadsTest.Redis.class)
@ExtendWith(StoreProfiles.RedisReachable.class)
class RedisCopilotKitThreadsTest extends CopilotKitThreadsContract {

    public static class Redis extends StoreProfiles.Redis {
        @Override
        public Map<String, String> getConfigOverrides() {
            return withKeysAndBasePath(super.getConfigOverrides());
        }
    }
}
