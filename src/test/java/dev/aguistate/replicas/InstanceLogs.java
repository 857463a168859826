package dev.aguistate.replicas;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/** Prints the logs of the replicas a test class started when one of its tests fails (they stay in target/ too). */
public final class InstanceLogs implements TestWatcher {

    private final List<ServerInstance> instances = new CopyOnWriteArrayList<>();

    /** Registers the instance; returns it. */
    public ServerInstance watch(ServerInstance instance) {
        instances.add(instance);
        return instance;
    }

    @Override
    public void testFailed(ExtensionContext context, Throwable cause) {
        for (ServerInstance instance : instances) {
            System.err.printf("%n----- %s failed; log of %s -----%n%s%n----- end of that log -----%n",
                    context.getDisplayName(), instance, instance.log());
        }
    }
}
