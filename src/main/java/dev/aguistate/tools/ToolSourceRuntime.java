package dev.aguistate.tools;

import io.vertx.core.Vertx;

/**
 * What a {@link ToolSource} is started with: the server's Vert.x, for its non-blocking connections and timers, and
 * the limit every tool result is cut to.
 */
public record ToolSourceRuntime(Vertx vertx, ResultLimit resultLimit) {}
