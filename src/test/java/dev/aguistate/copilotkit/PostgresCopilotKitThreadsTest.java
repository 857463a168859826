package dev.aguistate.copilotkit;

import dev.aguistate.testing.StoreProfiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;
import org.junit.jupiter.api.extension.ExtendWith;

@QuarkusTest
@TestProfile(PostgresCopilotKitThreadsTest.Postgres.class)
@ExtendWith(StoreProfiles.PostgresReachable.class)
class PostgresCopilotKitThreadsTest extends CopilotKitThreadsContract {

    public static class Postgres extends StoreProfiles.Postgres {
        @Override
        public Map<String, String> getConfigOverrides() {
            return withKeysAndBasePath(super.getConfigOverrides());
        }
    }
}
