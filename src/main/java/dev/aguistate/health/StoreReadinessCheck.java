package dev.aguistate.health;

import dev.aguistate.store.StoreConfig;
import dev.aguistate.store.ThreadStore;
import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Uni;
import java.util.Locale;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Readiness is DOWN while the thread store does not answer a ping (Redis {@code PING}, PostgreSQL
 * {@code SELECT 1}) within {@code agui.store.timeout}: every run and the thread API need it. The in-memory store
 * always answers.
 */
@Readiness
public class StoreReadinessCheck implements AsyncHealthCheck {

    private final ThreadStore store;
    private final StoreConfig config;

    StoreReadinessCheck(ThreadStore store, StoreConfig config) {
        this.store = store;
        this.config = config;
    }

    @Override
    public Uni<HealthCheckResponse> call() {
        return store.ping()
                .map(answered -> response().up().build())
                .onFailure().recoverWithItem(failure -> response().down()
                        .withData("error", String.valueOf(failure.getMessage())).build());
    }

    private HealthCheckResponseBuilder response() {
        return HealthCheckResponse.named("thread-store")
                .withData("kind", config.kind().name().toLowerCase(Locale.ROOT));
    }
}
