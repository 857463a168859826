package dev.aguistate.tools;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Tools from outside the agents' code: MCP servers and HTTP tools ({@code agui.tools.*}; docs/tools.md). */
@ConfigMapping(prefix = "agui.tools")
public interface ToolsConfig {

    /**
     * The most characters one result of an MCP server or HTTP tool may bring into a run (text, and media as their
     * encoded bytes); the rest is left out with a note saying so.
     */
    @WithDefault("100000")
    int maxResultChars();
}
