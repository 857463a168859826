package dev.aguistate.tools;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Backend tools that come from outside the agent's code, such as an MCP server's or HTTP endpoints declared as tools.
 * A run cannot tell its tools from Java ones. A source is long-lived and belongs to its agent's registry, not to a
 * run: the registry starts it once at start-up and closes it at shutdown; each run takes the tools it offers at its
 * start, so a list that changes (an MCP server's {@code notifications/tools/list_changed}) changes the next run.
 */
public interface ToolSource {

    /** Names the source in logs, readiness and traces, e.g. {@code mcp:orders}. */
    String id();

    /** Its tools as they are now: empty before it was first reached; the last list it had while it is unreachable. */
    List<BackendTool> tools();

    /** The names, as offered to the LLM, of its tools that wait for the user's approval. */
    Set<String> confirmedTools();

    /**
     * Starts it (connects, lists the tools) without waiting: a source that cannot be reached now keeps trying in the
     * background and never stops the server's start.
     */
    void start(ToolSourceRuntime runtime);

    /** Stops it and what it started (connections, processes). */
    void close();

    /** Why it cannot be used now (for readiness), or empty when it can. */
    Optional<String> problem();
}
