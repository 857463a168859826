package dev.aguistate.session;

import dev.aguistate.run.RunConfig;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Which runs this server process lets in: at most {@code agui.run.max-active} going on at once, at most
 * {@code agui.run.max-active-per-user} of one user (of one tenant), and, when {@code agui.run.rate-limit.runs-per-user}
 * is set, no faster than that per {@code agui.run.rate-limit.window}. A run holds its place from the moment it is let in
 * until it ended and its log holds its end, also while it goes on without its client ({@code onDisconnect: continue});
 * a request refused later (a busy thread, a state the agent refuses) gives its place back at once. The bounds are per
 * process: with several replicas, each has its own, and a user's runs on another replica are not counted here. A
 * server that identifies nobody ({@link Caller#everyone()}) has no users to bound: only {@code max-active} holds.
 */
@ApplicationScoped
@Startup
class RunAdmission {

    /** What a client refused for the number of runs going on should wait: a run takes seconds to minutes. */
    static final Duration RETRY_WHEN_BUSY = Duration.ofSeconds(5);

    private final int maxActive;
    private final int maxActivePerUser;
    private final Optional<StartRate> rate;
    /** The runs going on of each user that has any; guarded by this. */
    private final Map<String, Integer> activeByUser = new HashMap<>();
    private int active;

    @Inject
    RunAdmission(RunConfig config) {
        this(config.maxActive(), config.maxActivePerUser(), config.rateLimitRunsPerUser()
                .map(runs -> new StartRate(runs, config.rateLimitWindow(), System::nanoTime)));
    }

    RunAdmission(int maxActive, int maxActivePerUser, Optional<StartRate> rate) {
        this.maxActive = maxActive;
        this.maxActivePerUser = maxActivePerUser;
        this.rate = rate;
    }

    /**
     * Lets a run of {@code caller} in: it holds a place until {@link #left}.
     *
     * @throws SessionRefused when the user asked too fast, has as many runs going on as allowed, or this process has
     */
    void admit(Caller caller) {
        Optional<Duration> wait = caller.everyone() ? Optional.empty()
                : rate.flatMap(limit -> limit.take(caller.owner()));
        if (wait.isPresent()) {
            throw SessionRefused.rateLimited(wait.get());
        }
        synchronized (this) {
            int own = activeByUser.getOrDefault(caller.owner(), 0);
            if (own >= maxActivePerUser && !caller.everyone()) {
                throw SessionRefused.tooManyRuns(maxActivePerUser, RETRY_WHEN_BUSY);
            }
            if (active >= maxActive) {
                throw SessionRefused.serverBusy(maxActive, RETRY_WHEN_BUSY);
            }
            activeByUser.put(caller.owner(), own + 1);
            active++;
        }
    }

    /** A run that was let in has ended, or was refused after all. */
    synchronized void left(Caller caller) {
        activeByUser.computeIfPresent(caller.owner(), (user, own) -> own == 1 ? null : own - 1);
        active--;
    }
}
