package dev.aguistate.testing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@link StubbedLlmProfile} server whose callers prove who they are, with tracing on, shared by the tests of
 * signed tokens, of MCP tools and of tracing so that they boot once: the API key {@link #SERVICE_KEY} (user
 * {@code service}) and tokens signed by {@link TokenIssuer}'s key (a PEM file), whose {@code tenant} claim is
 * required; spans exported to memory at once; tool results cut at 10,000 characters; and the MCP servers of
 * {@link McpServersResource}.
 */
public class TokensProfile extends StubbedLlmProfile {

    public static final String SERVICE_KEY = "service-key";

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> overrides = new HashMap<>(super.getConfigOverrides());
        overrides.put("agui.auth.api-keys." + SERVICE_KEY, "service");
        overrides.put("agui.auth.jwt.tenant-claim", TokenIssuer.TENANT_CLAIM);
        overrides.put("agui.tools.max-result-chars", "10000");
        overrides.put("quarkus.otel.sdk.disabled", "false");
        overrides.put("quarkus.otel.traces.sampler", "parentbased_always_on");
        overrides.put("quarkus.otel.bsp.schedule.delay", "50ms");
        return overrides;
    }

    @Override
    public List<TestResourceEntry> testResources() {
        List<TestResourceEntry> resources = new ArrayList<>(super.testResources());
        resources.add(new TestResourceEntry(TokenIssuer.Pem.class));
        resources.add(new TestResourceEntry(McpServersResource.class));
        return resources;
    }
}
