package dev.aguistate.copilotkit;

import dev.aguistate.testing.StoreProfiles;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.Map;

@QuarkusTest
@TestProfile(CopilotKitThreadsTest.Memory.class)
class CopilotKitThreadsTest extends CopilotKitThreadsContract {

    public static class Memory extends StoreProfiles.Memory {
        @Override
        public Map<String, String> getConfigOverrides() {
            return withKeysAndBasePath(super.getConfigOverrides());
        }
    }
}
