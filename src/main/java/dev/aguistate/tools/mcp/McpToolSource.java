package dev.aguistate.tools.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.aguistate.tools.BackendTool;
import dev.aguistate.tools.ResultLimit;
import dev.aguistate.tools.ToolFailure;
import dev.aguistate.tools.ToolSource;
import dev.aguistate.tools.ToolSourceRuntime;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * An MCP server's tools as backend tools: those of its list that the declaration allows, named as it says, with the
 * server's JSON Schema as their parameters. A call goes to the server with the caller's token when it forwards one,
 * and fails as a tool error the LLM sees when the server is down, slower than the timeout, refuses, or answers
 * something that is not a result.
 */
final class McpToolSource implements ToolSource {

    private static final Logger LOG = Logger.getLogger(McpToolSource.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final McpServer server;
    private volatile List<BackendTool> tools = List.of();
    private volatile McpClient client;
    private ResultLimit limit;

    McpToolSource(McpServer server) {
        this.server = server;
    }

    @Override
    public String id() {
        return "mcp:" + server.id();
    }

    @Override
    public List<BackendTool> tools() {
        return tools;
    }

    @Override
    public Set<String> confirmedTools() {
        return server.confirm().stream().map(server::offeredName).collect(Collectors.toUnmodifiableSet());
    }

    @Override
    public void start(ToolSourceRuntime runtime) {
        this.limit = runtime.resultLimit();
        LOG.infof("MCP server '%s' at %s", server.id(), server.address());
        McpClient started = new McpClient(server, runtime.vertx(), this::listed);
        client = started;
        started.start();
    }

    @Override
    public void close() {
        if (client != null) {
            client.close();
        }
    }

    @Override
    public Optional<String> problem() {
        McpClient current = client;
        return current == null ? Optional.of("not started") : Optional.ofNullable(current.problem());
    }

    @Override
    public String toString() {
        return "McpToolSource[" + server + "]";
    }

    /** The server listed its tools: those offered from the next run on. */
    private void listed(List<JsonNode> listedTools) {
        List<BackendTool> offered = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (JsonNode tool : listedTools) {
            String name = tool.path("name").asText("");
            if (!server.tools().isEmpty() && !server.tools().contains(name)) {
                continue;
            }
            seen.add(name);
            String offeredName = server.offeredName(name);
            if (!offeredName.matches("[A-Za-z0-9_-]{1,64}")) {
                LOG.warnf("MCP server %s: tool '%s' is not offered: as %s its name is not [A-Za-z0-9_-]{1,64}",
                        server.label(), name, offeredName);
                continue;
            }
            JsonNode schema = tool.path("inputSchema");
            offered.add(new BackendTool(offeredName, tool.path("description").asText(""),
                    schema.isObject() ? schema : JSON.createObjectNode().put("type", "object"),
                    (arguments, context) -> call(name, offeredName, arguments,
                            server.forwarding().authorization(context.caller(), offeredName).orElse(null),
                            context.trace(), context::progress),
                    Map.of(), Map.of()));
        }
        server.tools().stream().filter(name -> !seen.contains(name)).forEach(name -> LOG.warnf(
                "MCP server %s has no tool '%s', which its declaration lists", server.label(), name));
        tools = List.copyOf(offered);
    }

    private Uni<Object> call(String name, String offeredName, JsonNode arguments, String authorization,
                             io.opentelemetry.context.Context trace, McpClient.Progress progress) {
        return client.call(name, arguments, authorization, trace, progress)
                .ifNoItem().after(server.timeout()).failWith(() -> new ToolFailure(ToolFailure.Kind.INVOCATION_FAILED,
                        "the MCP server '" + server.id() + "' did not answer " + offeredName + " within "
                                + server.timeout().toMillis() + " ms; the call was cancelled", null))
                .onFailure(failure -> !(failure instanceof ToolFailure)).transform(failure ->
                        new ToolFailure(ToolFailure.Kind.INVOCATION_FAILED, McpClient.message(failure), failure))
                .onItem().transformToUni(result -> {
                    try {
                        return Uni.createFrom().item(McpResults.content(offeredName, result, limit));
                    } catch (ToolFailure failure) {
                        return Uni.createFrom().failure(failure);
                    }
                });
    }
}
