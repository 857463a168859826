package dev.aguistate.testing;

/**
 * The order in which Failsafe hands the {@code *IT} classes to the threads that run them side by side
 * ({@code junit.jupiter.execution.parallel.*} in {@code pom.xml}; {@code @Order} on each class). JUnit's fork-join
 * pool gives its idle threads the classes from the front of this order, while the thread that started them all runs
 * them from the back: so the three longest (the browser tests and the conformance suite with each client) open the
 * two ends and start at once, and the short ones fill in last.
 */
public final class ItOrder {

    public static final int BROWSER = 1;
    public static final int CLIENT_CONFORMANCE = 2;
    public static final int MEMORY_STORE_HEAP = 3;
    public static final int REDIS_REPLICAS = 4;
    public static final int COPILOTKIT_CLIENT = 5;
    public static final int COPILOTKIT_CLIENT_WITH_API_KEY = 6;
    public static final int CLIENT_CONFORMANCE_WITH_USERS = 7;
    public static final int POSTGRES_REPLICAS = 8;
    public static final int CLIENT_CONFORMANCE_0059 = 9;

    private ItOrder() {
    }
}
