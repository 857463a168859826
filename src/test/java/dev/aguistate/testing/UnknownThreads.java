package dev.aguistate.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * What a caller gets for a thread id nobody used: the measure for another user's thread or live run, which must tell
 * them nothing. An answer is compared with the answer to the same request for a fresh thread id, the ids exchanged.
 */
public final class UnknownThreads {

    private UnknownThreads() {}

    /**
     * Asserts that {@code ask}, sent for {@code threadId}, is answered exactly as for a thread id nobody used: the
     * same status, and the same body but for the id (an event stream's keep-alive comments aside).
     *
     * @param ask sends the request for the thread id it is given
     */
    public static void assertAnsweredAsUnknown(String what, String threadId,
                                               Function<String, HttpResponse<String>> ask) {
        String unused = "never-used-" + UUID.randomUUID();
        HttpResponse<String> unknown = ask.apply(unused);
        HttpResponse<String> answer = ask.apply(threadId);
        assertEquals(unknown.statusCode(), answer.statusCode(), what + " answered " + answer.body());
        assertEquals(withoutComments(unknown.body()).replace(unused, threadId), withoutComments(answer.body()),
                what + ": not the answer for a thread that does not exist");
    }

    /** An event stream's frames without its keep-alive comments, which come whenever the stream is silent. */
    private static String withoutComments(String body) {
        return Arrays.stream(body.split("\n\n", -1)).filter(frame -> !frame.startsWith(":"))
                .collect(Collectors.joining("\n\n"));
    }
}
