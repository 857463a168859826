package dev.aguistate.tools.mcp;

import dev.aguistate.tools.TokenForwarding;
import dev.aguistate.tools.ToolSource;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * An MCP server an agent takes tools from (docs/tools.md): reached at a URL (Streamable HTTP, or the older HTTP+SSE
 * transport when that is all the server has) or started by this server as a process speaking over its standard
 * input and output. Its tools are offered as {@code mcp__<id>__<tool>}, or under their own names without the prefix.
 *
 * <pre>{@code
 * AgentDefinition.builder("support")
 *     .mcpServer(McpServer.url("orders", "http://orders:3001/mcp")
 *         .tools("lookup_order", "refund").confirm("refund")
 *         .forwardUserToken(TokenForwarding.SIGNED_TOKENS)
 *         .timeout(Duration.ofSeconds(30))
 *         .build())
 * }</pre>
 *
 * @param id          names the server: in tool names, logs, readiness and spans; {@code [A-Za-z0-9_-]{1,32}}
 * @param url         where it answers; null when it is a process
 * @param command     the process to start and supervise, program first; empty when it has a URL
 * @param tools       the only tools offered (its own names); empty: all of them
 * @param prefix      its tools are offered as {@code mcp__<id>__<tool>} (the default), or under their own names
 * @param headers     sent with every request (an API key); never logged
 * @param forwarding  whether the caller's own token goes with each tool call
 * @param confirm     its tools (own names) that wait for the user's approval before they are called
 * @param timeout     how long a call may take before it is cancelled and fails
 */
public record McpServer(String id, URI url, List<String> command, Set<String> tools, boolean prefix,
                        Map<String, String> headers, TokenForwarding forwarding, Set<String> confirm,
                        Duration timeout) {

    /** A call's time limit unless the declaration says. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    public McpServer {
        Objects.requireNonNull(id, "id");
        if (!id.matches("[A-Za-z0-9_-]{1,32}")) {
            throw new IllegalArgumentException("MCP server id must match [A-Za-z0-9_-]{1,32}: " + id);
        }
        command = List.copyOf(command);
        tools = Set.copyOf(tools);
        headers = Map.copyOf(headers);
        confirm = Set.copyOf(confirm);
        if ((url == null) == command.isEmpty()) {
            throw new IllegalArgumentException("MCP server " + id + " needs either a url or a command, not both");
        }
        if (url != null && !("http".equals(url.getScheme()) || "https".equals(url.getScheme()))) {
            throw new IllegalArgumentException("MCP server " + id + ": url must be http or https: " + url);
        }
        if (url == null && (!headers.isEmpty() || forwarding != TokenForwarding.NONE)) {
            throw new IllegalArgumentException("MCP server " + id
                    + ": headers and forwardUserToken need a url; a server started as a process gets no headers");
        }
        if (forwarding != TokenForwarding.NONE
                && headers.keySet().stream().anyMatch(name -> name.equalsIgnoreCase("Authorization"))) {
            throw new IllegalArgumentException("MCP server " + id
                    + ": forwardUserToken sets the Authorization header, which headers set too; keep one");
        }
        for (String name : confirm) {
            if (!tools.isEmpty() && !tools.contains(name)) {
                throw new IllegalArgumentException("MCP server " + id + " confirms tool '" + name
                        + "', which its tools list " + tools + " leaves out");
            }
        }
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("MCP server " + id + ": timeout must be positive");
        }
    }

    /** A server reached over HTTP (Streamable HTTP, or HTTP+SSE). */
    public static Builder url(String id, String url) {
        return new Builder(id, URI.create(url), List.of());
    }

    /** A server this one starts as a process and talks to over its standard input and output. */
    public static Builder command(String id, List<String> command) {
        if (command.isEmpty()) {
            throw new IllegalArgumentException("MCP server " + id + ": the command is empty");
        }
        return new Builder(id, null, command);
    }

    /** The name its tool {@code tool} is offered under. */
    public String offeredName(String tool) {
        return prefix ? "mcp__" + id + "__" + tool : tool;
    }

    /** How it is reached, for logs and readiness: its URL without query, or its program. */
    public String address() {
        return url != null ? url.getScheme() + "://" + url.getAuthority() + url.getRawPath() : "process " + command.get(0);
    }

    /** The header values are left out: they may be secrets. */
    @Override
    public String toString() {
        return "McpServer[" + id + " at " + address() + ", headers " + headers.keySet() + "]";
    }

    /** Starts the declaration of one server; {@link #build()} checks it. */
    public static final class Builder {
        private final String id;
        private final URI url;
        private final List<String> command;
        private final Set<String> tools = new LinkedHashSet<>();
        private boolean prefix = true;
        private final Map<String, String> headers = new LinkedHashMap<>();
        private TokenForwarding forwarding = TokenForwarding.NONE;
        private final Set<String> confirm = new LinkedHashSet<>();
        private Duration timeout = DEFAULT_TIMEOUT;

        private Builder(String id, URI url, List<String> command) {
            this.id = id;
            this.url = url;
            this.command = new ArrayList<>(command);
        }

        /** Offers only these of its tools (by its own names). */
        public Builder tools(String... names) {
            tools.addAll(List.of(names));
            return this;
        }

        /** Offers its tools under their own names instead of {@code mcp__<id>__<tool>}. */
        public Builder prefix(boolean prefixed) {
            this.prefix = prefixed;
            return this;
        }

        /** Sends this header with every request; its value is never logged. */
        public Builder header(String name, String value) {
            headers.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value of " + name));
            return this;
        }

        /** Sends the caller's own credential as {@code Authorization: Bearer …} with every tool call. */
        public Builder forwardUserToken(TokenForwarding forwarding) {
            this.forwarding = Objects.requireNonNull(forwarding, "forwarding");
            return this;
        }

        /** These tools (its own names) wait for the user's approval; the server is called only once approved. */
        public Builder confirm(String... names) {
            confirm.addAll(List.of(names));
            return this;
        }

        public Builder timeout(Duration limit) {
            this.timeout = limit;
            return this;
        }

        public McpServer build() {
            return new McpServer(id, url, command, tools, prefix, headers, forwarding, confirm, timeout);
        }
    }

    /** For messages that reach the LLM and the page: its id only, never an internal address. */
    String label() {
        return "'" + id + "'";
    }

    /** The server as a source of an agent's tools ({@code AgentDefinition.Builder#mcpServer}). */
    public ToolSource toolSource() {
        return new McpToolSource(this);
    }
}
