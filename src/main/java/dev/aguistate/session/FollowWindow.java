package dev.aguistate.session;

import dev.aguistate.run.RunConfig;

/**
 * How far the connection that started a run may fall behind it, in events and in bytes of frames waiting for it
 * ({@code agui.run.follow-window}, {@code agui.run.follow-window-bytes}): what bounds the memory a slow or stalled
 * client costs. Past either, it is disconnected and may resume from its cursor.
 */
record FollowWindow(long events, long bytes) {

    static FollowWindow of(RunConfig config) {
        return new FollowWindow(config.followWindow(), config.followWindowBytes().asLongValue());
    }

    boolean exceeded(long eventsBehind, long bytesBehind) {
        return eventsBehind > events || bytesBehind > bytes;
    }

    @Override
    public String toString() {
        return events + " events or " + bytes + " bytes";
    }
}
