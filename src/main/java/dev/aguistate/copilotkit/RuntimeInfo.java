package dev.aguistate.copilotkit;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.aguistate.http.AgentCapabilities;
import java.util.Map;

/**
 * The answer to {@code GET {base}/info} (and the single route's {@code {"method":"info"}}): the fields of CopilotKit's
 * {@code RuntimeInfo} that its client reads. {@code mode} is {@code "sse"}: runs stream over HTTP, there is no
 * CopilotKit Intelligence platform behind this server. The features this server does not offer are stated as off,
 * so the client neither asks for them nor waits for them.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
record RuntimeInfo(String version, Map<String, AgentDescription> agents, boolean audioFileTranscriptionEnabled,
                   String mode, ThreadEndpoints threadEndpoints, boolean suggestions, boolean a2uiEnabled,
                   boolean openGenerativeUIEnabled, boolean telemetryDisabled, SingleRoute singleRoute) {

    /** One agent; {@code className} names what serves it, as CopilotKit's runtime names the agent's class. */
    record AgentDescription(String name, String description, String className, AgentCapabilities capabilities) {}

    /**
     * Which thread endpoints answer: listing and reading (inspecting) a thread's messages and state do; renaming and
     * archiving ({@code mutations}) and live metadata over a socket ({@code realtimeMetadata}) do not.
     */
    record ThreadEndpoints(boolean list, boolean inspect, boolean mutations, boolean realtimeMetadata) {}

    /** For a single-route client: the thread endpoints are reached through {@code resource/request} envelopes. */
    record SingleRoute(boolean resourceOperations, ThreadEndpoints threadEndpoints) {}
}
