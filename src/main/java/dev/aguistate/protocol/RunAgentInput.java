package dev.aguistate.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The body of a run request. Unknown fields are ignored; {@code state: null} means no state; absent
 * {@code tools}/{@code context} mean none. {@code protocolVersion} is the AG-UI version the client speaks (1.0
 * clients state it; older ones do not): {@link ClientProtocol} shapes what the client is sent to it. Validation of required fields happens in
 * {@link RunAgentInputValidator}, so that errors name the field instead of a Jackson path.
 */
public record RunAgentInput(String threadId, String runId, String protocolVersion, String parentRunId, JsonNode state, List<Message> messages,
                            List<Tool> tools, List<Context> context, JsonNode forwardedProps,
                            List<ResumeEntry> resume) {

    public RunAgentInput {
        state = state == null || state.isNull() ? null : state;
        tools = tools == null ? List.of() : tools;
        context = context == null ? List.of() : context;
        resume = resume == null ? List.of() : resume;
    }
}
