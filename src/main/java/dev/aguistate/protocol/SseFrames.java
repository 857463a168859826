package dev.aguistate.protocol;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationConfig;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.cfg.CacheProvider;
import com.fasterxml.jackson.databind.ser.DefaultSerializerProvider;
import com.fasterxml.jackson.databind.ser.SerializerFactory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Server-Sent Events framing as the official encoder writes it: {@code data: <compact JSON>\n\n}, LF only,
 * one frame per event. Compact JSON never contains a raw newline (Jackson escapes them inside strings), so
 * one {@code data:} line always suffices.
 */
public final class SseFrames {

    public static final String CONTENT_TYPE = "text/event-stream";

    private static final byte[] PREFIX = "data: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ID_PREFIX = "id: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SUFFIX = "\n\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] KEEP_ALIVE = ": keep-alive\n\n".getBytes(StandardCharsets.US_ASCII);

    private SseFrames() {}

    public static byte[] frame(AgUiEvent event) {
        return frame(null, event);
    }

    /**
     * The frame of an event, with an {@code id:} line first when {@code id} is not null (the cursor a client resumes
     * from; AG-UI clients that do not resume ignore it). Ids are made by the server and never hold a line break.
     * The event is serialized straight into the frame ({@link AgUiJson}'s rules), by its thread's {@link FrameWriter}:
     * the frame's array is nearly all it allocates. Its JSON is the frame's bytes from {@link #jsonStart} to
     * {@link #jsonEnd}.
     */
    public static byte[] frame(String id, Object event) {
        FrameWriter writer = WRITERS.get();
        if (writer.busy) { // only if serializing an event made a frame, which none does: still right, if slower
            return new FrameWriter().write(id, event);
        }
        return writer.write(id, event);
    }

    private static final ThreadLocal<FrameWriter> WRITERS = ThreadLocal.withInitial(FrameWriter::new);

    /**
     * A thread's frame writer: one generator over one growing buffer, each frame written into it and copied out at
     * its size. Per frame Jackson otherwise made a generator, its context, an output builder and their buffers'
     * bookkeeping, ten times the JSON of a text delta. A buffer that grew past {@link #KEPT_BYTES} (a long snapshot)
     * is let go after its frame; a writer whose generator failed is replaced.
     */
    private static final class FrameWriter {

        private static final int KEPT_BYTES = 64 * 1024;

        private final Buffer out = new Buffer();
        private final JsonGenerator json;
        private Values values = Values.current();
        private boolean busy;

        FrameWriter() {
            try {
                json = AgUiJson.mapper().createGenerator(out, JsonEncoding.UTF8);
            } catch (IOException e) {
                throw new UncheckedIOException("a generator over memory cannot fail to open", e);
            }
            json.setRootValueSeparator(null); // frames hold one value each, not a stream of them
        }

        byte[] write(String id, Object event) {
            busy = true;
            boolean written = false;
            try {
                out.reset();
                if (id != null) {
                    out.write(ID_PREFIX);
                    writeId(out, id);
                    out.write('\n');
                }
                out.write(PREFIX);
                if (!values.upToDate()) {
                    values = Values.current();
                }
                values.serializeValue(json, event); // as the mapper's writeValue does, but with this writer's own
                json.flush();
                out.write(SUFFIX);
                written = true;
                return out.toByteArray();
            } catch (IOException e) {
                throw new IllegalArgumentException("not serializable as AG-UI JSON: " + event.getClass().getName(), e);
            } finally {
                busy = false;
                if (!written || out.capacity() > KEPT_BYTES) {
                    WRITERS.remove();
                }
            }
        }
    }

    /**
     * What Jackson's mapper makes anew for every value it writes (its {@code writeValue}): the serializer provider,
     * here kept by a thread's {@link FrameWriter} for all its frames. It holds a call's state only for what the wire
     * never uses (object ids, per-call attributes) and a snapshot of the mapper's serializers found so far; once the
     * mapper has found more (the first event of a new type), {@link #upToDate} says so and the writer takes a new
     * one, since lookups past a stale snapshot would each take the cache's lock and make a key.
     */
    private static final class Values extends DefaultSerializerProvider {

        private Values(SerializerProvider blueprint, SerializationConfig config, SerializerFactory factory) {
            super(blueprint, config, factory);
        }

        static Values current() {
            ObjectMapper mapper = AgUiJson.mapper();
            return new Values(mapper.getSerializerProvider(), mapper.getSerializationConfig(),
                    mapper.getSerializerFactory());
        }

        boolean upToDate() {
            return _knownSerializers == _serializerCache.getReadOnlyLookupMap();
        }

        @Override
        public DefaultSerializerProvider createInstance(SerializationConfig config, SerializerFactory factory) {
            return new Values(this, config, factory);
        }

        @Override
        public DefaultSerializerProvider withCaches(CacheProvider caches) {
            throw new UnsupportedOperationException("a frame writer's provider is not a mapper's blueprint");
        }
    }

    /** A byte buffer whose array can be asked for its size, which {@link ByteArrayOutputStream} keeps to itself. */
    private static final class Buffer extends ByteArrayOutputStream {

        Buffer() {
            super(1024);
        }

        int capacity() {
            return buf.length;
        }

        @Override
        public void write(byte[] bytes) {
            write(bytes, 0, bytes.length); // without the IOException OutputStream declares
        }
    }

    /** The id as UTF-8: a compact cursor is ASCII, written as is; a run id of the client's may not be. */
    private static void writeId(ByteArrayOutputStream frame, String id) {
        for (int i = 0; i < id.length(); i++) {
            if (id.charAt(i) >= 0x80) {
                frame.writeBytes(id.substring(i).getBytes(StandardCharsets.UTF_8));
                return;
            }
            frame.write(id.charAt(i));
        }
    }

    /** A frame of an event's JSON, already serialized, with an {@code id:} line first as {@link #frame}'s. */
    public static byte[] frame(String id, byte[] json) {
        byte[] idBytes = id == null ? null : id.getBytes(StandardCharsets.UTF_8);
        int idLine = id == null ? 0 : ID_PREFIX.length + idBytes.length + 1;
        byte[] frame = new byte[idLine + PREFIX.length + json.length + SUFFIX.length];
        if (id != null) {
            System.arraycopy(ID_PREFIX, 0, frame, 0, ID_PREFIX.length);
            System.arraycopy(idBytes, 0, frame, ID_PREFIX.length, idBytes.length);
            frame[idLine - 1] = '\n';
        }
        System.arraycopy(PREFIX, 0, frame, idLine, PREFIX.length);
        System.arraycopy(json, 0, frame, idLine + PREFIX.length, json.length);
        System.arraycopy(SUFFIX, 0, frame, idLine + PREFIX.length + json.length, SUFFIX.length);
        return frame;
    }

    /** Where a frame's JSON starts: after its {@code data: }, which follows an optional {@code id:} line; else -1. */
    public static int jsonStart(byte[] frame) {
        int line = 0;
        if (frame.length > 3 && frame[0] == 'i' && frame[1] == 'd' && frame[2] == ':') {
            while (line < frame.length && frame[line] != '\n') {
                line++;
            }
            line++;
        }
        return frame.length - line >= PREFIX.length
                && Arrays.equals(frame, line, line + PREFIX.length, PREFIX, 0, PREFIX.length)
                ? line + PREFIX.length : -1;
    }

    /** The id of a frame with an {@code id:} line; null for one without. */
    public static String id(byte[] frame) {
        int data = jsonStart(frame);
        return data <= PREFIX.length ? null
                : new String(frame, ID_PREFIX.length, data - PREFIX.length - 1 - ID_PREFIX.length,
                        StandardCharsets.UTF_8);
    }

    /** Where a frame's JSON ends (exclusive): before the blank line that ends the frame. */
    public static int jsonEnd(byte[] frame) {
        return frame.length - SUFFIX.length;
    }

    /** A comment frame: ignored by SSE clients, keeps proxies from closing a silent stream. */
    public static byte[] keepAlive() {
        return KEEP_ALIVE.clone();
    }
}
