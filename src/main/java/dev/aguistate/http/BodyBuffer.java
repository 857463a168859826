package dev.aguistate.http;

import io.vertx.core.buffer.Buffer;
import java.util.Arrays;

/**
 * A request body's bytes as they arrive, in one array: what the body holds is the array's length, which is what
 * {@link PendingBodies} counts — so a body sent a byte at a time costs no more than one sent at once. The array is
 * the announced {@code Content-Length} from the first byte on, or, without one, grows by doubling.
 */
final class BodyBuffer {

    private static final int FIRST_CAPACITY = 1024;

    private final int limit;
    private final int announced;
    private byte[] bytes = new byte[0];
    private int length;

    /** @param announced the {@code Content-Length} (at most {@code limit}), or -1 */
    BodyBuffer(int limit, int announced) {
        this.limit = limit;
        this.announced = announced;
    }

    /** The bytes the array must grow by to take {@code chunk}; 0 when it fits, -1 when the body would pass the limit. */
    int growthFor(Buffer chunk) {
        int needed = length + chunk.length();
        if (needed > limit) {
            return -1;
        }
        return needed <= bytes.length ? 0 : capacityFor(needed) - bytes.length;
    }

    /** Appends the chunk, after the array grew by what {@link #growthFor} said. */
    void append(Buffer chunk) {
        int needed = length + chunk.length();
        if (needed > bytes.length) {
            bytes = Arrays.copyOf(bytes, capacityFor(needed));
        }
        chunk.getBytes(bytes, length);
        length = needed;
    }

    /** The body, without the array's unused end. */
    byte[] bytes() {
        return length == bytes.length ? bytes : Arrays.copyOf(bytes, length);
    }

    private int capacityFor(int needed) {
        if (announced >= needed) {
            return announced;
        }
        return (int) Math.min(limit, Math.max(needed, Math.max(FIRST_CAPACITY, 2L * bytes.length)));
    }
}
