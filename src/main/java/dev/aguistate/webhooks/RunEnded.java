package dev.aguistate.webhooks;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.protocol.TokenUsage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A run that ended, as its webhooks tell it.
 *
 * @param tenant    the caller's tenant, or null
 * @param errorCode the {@code RUN_ERROR} code of a failed run, else null
 * @param usage     the tokens the run's LLM calls reported ({@code RUN_FINISHED}'s or {@code RUN_ERROR}'s
 *                  {@code usage}), or null when none did
 */
public record RunEnded(String threadId, String runId, String agent, String user, String tenant, WebhookEvent event,
                       String errorCode, String errorMessage, List<TokenUsage> usage, Instant startedAt,
                       Instant endedAt) {

    public RunEnded {
        Objects.requireNonNull(event, "event");
    }

    /** How the run whose terminal event is {@code terminal} ended. */
    public static RunEnded of(String threadId, String runId, String agent, String user, String tenant,
                              AgUiEvent terminal, Instant startedAt, Instant endedAt) {
        AgUiEvent.RunError error = terminal instanceof AgUiEvent.RunError failed ? failed : null;
        List<TokenUsage> usage = error != null ? error.usage() : ((AgUiEvent.RunFinished) terminal).usage();
        return new RunEnded(threadId, runId, agent, user, tenant, WebhookEvent.of(terminal),
                error == null ? null : error.code(), error == null ? null : error.message(), usage, startedAt,
                endedAt);
    }

    /**
     * The body every webhook of the run gets: {@code {"type":"run.finished","timestamp":…,"data":{…}}}, the envelope
     * Standard Webhooks recommends; absent values are left out, {@code usage} is as on {@code RUN_FINISHED}.
     */
    byte[] body() {
        ObjectNode body = AgUiJson.mapper().createObjectNode().put("type", event.type()).put("timestamp", endedAt.toString());
        ObjectNode data = body.putObject("data")
                .put("threadId", threadId)
                .put("runId", runId)
                .put("agent", agent)
                .put("user", user);
        if (tenant != null) {
            data.put("tenant", tenant);
        }
        data.put("outcome", event.wireName());
        if (errorCode != null) {
            data.putObject("error").put("code", errorCode).put("message", errorMessage);
        }
        if (usage != null) {
            data.set("usage", AgUiJson.mapper().valueToTree(usage));
        }
        data.put("startedAt", startedAt.toString())
                .put("durationMs", Duration.between(startedAt, endedAt).toMillis());
        return body.toString().getBytes(StandardCharsets.UTF_8);
    }
}
