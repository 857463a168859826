package dev.aguistate.testing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@link StubbedLlmProfile} server with the agents of {@code src/test/resources/agents/test-agents.yaml}
 * ({@code agui.agents.file}): {@code itinerary}, declared without Java and the default agent, and {@code orders},
 * whose tools are a bean's {@code @Tool} methods, and {@code hooked}, with a webhook of its own; its one caller is
 * alice, with the API key of {@link #AUTHORIZATION} or (JwksRotationTest) a token verified against
 * {@link TokenIssuer.Jwks}'s key set. Run webhooks go to a {@link WebhookReceiverResource} (RunWebhooksTest), and
 * {@code supervisor} offers {@code researcher} as a sub-agent (SubagentHttpTest); all share this boot rather than
 * paying for their own.
 */
public class AgentsFileProfile extends StubbedLlmProfile {

    /** The header alice sends. */
    public static final String[] AUTHORIZATION = {"Authorization", "Bearer desk-key"};

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> overrides = new HashMap<>(super.getConfigOverrides());
        overrides.put("agui.agents.file", "src/test/resources/agents/test-agents.yaml");
        overrides.put("agui.agents.default", "itinerary");
        overrides.put("agui.auth.api-keys.desk-key", "alice");
        return overrides;
    }

    @Override
    public List<TestResourceEntry> testResources() {
        List<TestResourceEntry> resources = new ArrayList<>(super.testResources());
        resources.add(new TestResourceEntry(WebhookReceiverResource.class));
        resources.add(new TestResourceEntry(TokenIssuer.Jwks.class));
        return resources;
    }
}
