package dev.aguistate.run;

import dev.aguistate.run.request.ContextWindow;
import dev.aguistate.agent.Multitask;
import dev.aguistate.agent.OnDisconnect;
import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.time.Duration;
import java.util.Optional;

/** How runs behave ({@code agui.run.*}). */
@ConfigMapping(prefix = "agui.run")
public interface RunConfig {

    /** LLM calls per run; a model still calling tools after this many ends the run with {@code max_rounds_exceeded}. */
    @WithDefault("10")
    int maxRounds();

    /**
     * The most messages of the conversation sent to the LLM (the first user message is always among them);
     * 0 sends all. The stored history is kept whole.
     */
    @WithName("context.max-messages")
    @WithDefault("0")
    int contextMaxMessages();

    /**
     * The most input tokens a request to the LLM may take (estimated, calibrated with what the upstream reports);
     * the oldest messages are left out to fit. Unset: the model's context window less its output and a margin, for
     * known OpenAI models (see {@link dev.aguistate.llm.ModelLimits}); no budget for other models. An agent may set
     * its own. 0: no budget.
     */
    @WithName("context.max-input-tokens")
    Optional<Integer> contextMaxInputTokens();

    /**
     * Messages older than this (since they first reached the server) are not sent to the LLM; the first user
     * message always is. Absent: no age limit. The stored history is kept whole.
     */
    @WithName("context.max-age")
    Optional<Duration> contextMaxAge();

    /** How long a confirmation may wait for the user's answer (the interrupt's {@code expiresAt}). */
    @WithName("confirmation.expires-after")
    @WithDefault("P1D")
    Duration confirmationExpiresAfter();

    /** What a run does when the connection that started it closes, unless its agent or request says. */
    @WithDefault("stop")
    OnDisconnect onDisconnect();

    /**
     * What a run request to a busy thread does, unless its agent or the request says: {@code enqueue} (wait for the
     * thread, in arrival order), {@code reject} ({@code 409 thread_busy}), {@code interrupt} (stop the active run).
     */
    @WithDefault("enqueue")
    Multitask multitask();

    /**
     * The most run requests that may wait for one thread on this server process ({@code enqueue}); one more is
     * answered {@code 429 queue_full}. Per process, as {@link #maxActive()}.
     */
    @WithDefault("10")
    int maxQueued();

    /** The longest a run may go on; then it ends with {@code RUN_ERROR max_duration_exceeded}, keeping what it did. */
    @WithDefault("30m")
    Duration maxDuration();

    /** How long a run's event log stays readable after the run ended, for clients resuming with a cursor. */
    @WithDefault("10m")
    Duration eventsTtl();

    /**
     * How many events a connection may fall behind its run before it is disconnected (the run goes on; the client
     * may reconnect with its cursor).
     */
    @WithDefault("4096")
    int followWindow();

    /** The most bytes of frames a connection may have waiting; past this it is disconnected, as above. */
    @WithDefault("4M")
    MemorySize followWindowBytes();

    /**
     * The most runs this server process lets go on at once, for all users together; a run counts from its request
     * until it ended, also when it goes on without its client. Per process: with several replicas, each has its own.
     */
    @WithDefault("1000")
    int maxActive();

    /** The most runs one user (of one tenant) may have going on at once on this server process, counted as above. */
    @WithDefault("10")
    int maxActivePerUser();

    /**
     * The most runs one user may ask for in any {@link #rateLimitWindow()} on this server process, refilled evenly
     * over the window; unset: no limit.
     */
    @WithName("rate-limit.runs-per-user")
    Optional<Integer> rateLimitRunsPerUser();

    @WithName("rate-limit.window")
    @WithDefault("1m")
    Duration rateLimitWindow();

    default ContextWindow contextWindow() {
        return new ContextWindow(contextMaxMessages(), contextMaxAge().orElse(null));
    }
}
