package dev.aguistate.http;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.agent.OnDisconnect;
import dev.aguistate.protocol.RunAgentInput;
import dev.aguistate.session.Cursor;
import java.util.Optional;

/** What a run or connect request asks for in {@code forwardedProps} and headers, besides the AG-UI input itself. */
final class StreamRequests {

    /** The {@code forwardedProps} key naming what the run does when its client leaves. */
    static final String ON_DISCONNECT = "onDisconnect";
    /** The {@code forwardedProps} key for a client's cursor, for clients that cannot set {@code Last-Event-ID}. */
    static final String LAST_SEEN_EVENT_ID = "lastSeenEventId";

    private StreamRequests() {}

    /** @throws IllegalArgumentException when the request names something else than {@code stop} or {@code continue} */
    static Optional<OnDisconnect> onDisconnect(RunAgentInput input) {
        JsonNode named = forwarded(input, ON_DISCONNECT);
        if (named == null) {
            return Optional.empty();
        }
        return Optional.of(OnDisconnect.named(named.isTextual() ? named.textValue() : null).orElseThrow(() ->
                new IllegalArgumentException("forwardedProps." + ON_DISCONNECT + " must be \"stop\" or \"continue\"")));
    }

    /** The client's cursor: the {@code Last-Event-ID} header, else {@code forwardedProps.lastSeenEventId}. */
    static Optional<Cursor> cursor(String lastEventId, RunAgentInput input) {
        if (lastEventId != null) {
            return Cursor.parse(lastEventId);
        }
        JsonNode lastSeen = forwarded(input, LAST_SEEN_EVENT_ID);
        return lastSeen != null && lastSeen.isTextual() ? Cursor.parse(lastSeen.textValue()) : Optional.empty();
    }

    private static JsonNode forwarded(RunAgentInput input, String key) {
        return input.forwardedProps() == null ? null : input.forwardedProps().get(key);
    }
}
