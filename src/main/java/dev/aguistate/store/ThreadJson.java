package dev.aguistate.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.protocol.Message;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * How the stores write a thread's state, messages and metadata: as the JSON of the wire (UTF-8), kept verbatim so
 * that state keys stay in their order.
 */
public final class ThreadJson {

    /** The list type is spelled out because a bare {@code List} would lose each message's {@code role}. */
    private static final TypeReference<List<Message>> MESSAGES = new TypeReference<>() {};
    /**
     * Stored JSON is the server's own, and a thread is bounded by {@code agui.store.max-thread-bytes}: it is read
     * without Jackson's 20-million-character string limit, which a single long answer in a large thread exceeds
     * (the thread would be stored and then never load again).
     */
    private static final ObjectMapper STORED = storedMapper();
    private static final ObjectReader MESSAGES_READER = STORED.readerFor(MESSAGES);

    private static ObjectMapper storedMapper() {
        ObjectMapper mapper = AgUiJson.mapper().copy();
        mapper.getFactory().setStreamReadConstraints(StreamReadConstraints.builder()
                .maxStringLength(Integer.MAX_VALUE).build());
        return mapper;
    }

    private ThreadJson() {}

    public static byte[] state(ObjectNode state) {
        return AgUiJson.writeBytes(state);
    }

    public static byte[] messages(List<Message> messages) {
        try {
            return AgUiJson.mapper().writerFor(MESSAGES).writeValueAsBytes(messages);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("messages are not serializable", e);
        }
    }

    public static byte[] meta(ThreadMeta meta) {
        return AgUiJson.writeBytes(meta);
    }

    public static String summary(ConversationSummary summary) {
        return text(AgUiJson.writeBytes(summary));
    }

    /** What the summary's JSON takes, as it counts in its thread's size. */
    public static long summaryBytes(ConversationSummary summary) {
        return AgUiJson.writeBytes(summary).length;
    }

    /** Null (no summary) reads as null. */
    public static ConversationSummary summary(String json) {
        return json == null ? null : read(json, ConversationSummary.class, "summary");
    }

    /** JSON as the text that Redis and PostgreSQL take. */
    public static String text(byte[] json) {
        return new String(json, StandardCharsets.UTF_8);
    }

    /** Null (a thread stored before there was any) reads as empty. */
    public static ThreadMeta meta(String json) {
        return json == null ? ThreadMeta.EMPTY : read(json, ThreadMeta.class, "thread metadata");
    }

    /** Empty info is stored as none (null), so that a thread without any stores nothing for it. */
    public static String info(ThreadInfo info) {
        return info.isEmpty() ? null : text(AgUiJson.writeBytes(info));
    }

    /** Null (none stored) reads as empty. */
    public static ThreadInfo info(String json) {
        return json == null ? ThreadInfo.EMPTY : read(json, ThreadInfo.class, "thread info");
    }

    /** A run record as the stores keep it beside a thread for listings; null for none. */
    public static String run(RunRecord run) {
        return run == null ? null : text(AgUiJson.writeBytes(run));
    }

    /** Null (none stored) reads as null. */
    public static RunRecord run(String json) {
        return json == null ? null : read(json, RunRecord.class, "run record");
    }

    private static <T> T read(String json, Class<T> type, String what) {
        try {
            return STORED.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("stored " + what + " is not valid JSON", e);
        }
    }

    public static ObjectNode state(String json) {
        try {
            return (ObjectNode) STORED.readTree(json);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("stored state is not JSON", e);
        }
    }

    public static List<Message> messages(String json) {
        try {
            return MESSAGES_READER.readValue(json);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException("stored messages are not valid AG-UI JSON", e);
        }
    }
}
