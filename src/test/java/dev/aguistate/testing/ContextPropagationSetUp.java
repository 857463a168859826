package dev.aguistate.testing;

import org.eclipse.microprofile.context.spi.ContextManagerProvider;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Sets up MicroProfile context propagation, which Mutiny consults on every operator it builds, once before any test
 * runs: its provider sets itself up on first use, and two threads using it first at once make one of them fail with
 * "ContextManagerProvider already set" (a plain test whose run loop calls tools on worker threads, run on its own).
 * A {@code @QuarkusTest}'s application has its own copy, which Quarkus sets up as it starts. Registered through
 * {@code META-INF/services/org.junit.platform.launcher.LauncherSessionListener}.
 */
public final class ContextPropagationSetUp implements LauncherSessionListener {

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        ContextManagerProvider.instance();
    }
}
