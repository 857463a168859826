package dev.aguistate.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.session.Caller;
import io.vertx.ext.web.RoutingContext;
import java.util.Optional;

/**
 * What the AG-UI run endpoints answer, for routes that receive the same requests in another form (CopilotKit's
 * runtime routes and its single-route envelope): a run or a connection streamed, a live run stopped — with the same
 * checks, errors, user and streams as {@code /agui/{agent}}. {@link RunRoute} answers them.
 */
public interface RunEndpoints {

    /** What a streaming request asks for: a new run, or a connection to the thread's runs. */
    enum Stream { RUN, CONNECT }

    /** The JSON body of a stop's answer, from whether a live run was asked to stop. */
    @FunctionalInterface
    interface StopAnswer {

        /** {@code {"stopped":true}} or {@code {"stopped":false}}. */
        StopAnswer AG_UI = (stopped, threadId) -> "{\"stopped\":" + stopped + "}";

        String body(boolean stopped, String threadId);
    }

    /** A run or connect request as it arrived: it passes the {@link RequestGate}, then the stream opens. */
    void stream(RoutingContext ctx, Stream kind, String agentName);

    /**
     * A run or connect request whose input arrived some other way (inside an envelope the caller read through the
     * gate, by {@link dev.aguistate.protocol.RunAgentInputReader#readTree}'s rules): the checks that concern the
     * stream, then the input read, then the stream.
     */
    void stream(RoutingContext ctx, Caller caller, Stream kind, String agentName, JsonNode input);

    /**
     * Asks the thread's live run to stop, on whichever replica runs it; with {@code runId}, only if that is the live
     * run. Answers 200 with {@code answer}'s body.
     */
    void stop(RoutingContext ctx, Caller caller, String agentName, String threadId, Optional<String> runId,
              StopAnswer answer);
}
