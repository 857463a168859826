package dev.aguistate.http;

import dev.aguistate.protocol.RunAgentInput;
import dev.aguistate.run.RunOptions;

/** A run or connect request as the gate read it: the AG-UI input, and what its {@code forwardedProps} ask for. */
public record RunRequest(RunAgentInput input, RunOptions options) {}
