package dev.aguistate.run.request;

import dev.aguistate.protocol.Message;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * The token counts of conversation units already counted, shared by every run of the server: a long thread's old
 * turns are tokenized once, not again on every round of every run (tokenizing is most of what budgeting costs,
 * see docs/benchmarks.md). A unit is known by its first message's id, its length and its content's hash, so the
 * cache holds no messages; the rare collision costs only an estimate. Bounded; the least recently used go first.
 */
public final class CountedUnits {

    private record Key(String firstId, int size, int hash) {}

    private final LinkedHashMap<Key, Integer> counts;

    public CountedUnits(int maxUnits) {
        this.counts = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, Integer> eldest) {
                return size() > maxUnits;
            }
        };
    }

    /** The unit's count, computing it with {@code count} the first time. */
    int tokens(List<Message> unit, IntSupplier count) {
        Key key = new Key(unit.get(0).id(), unit.size(), unit.hashCode());
        synchronized (counts) {
            Integer known = counts.get(key);
            if (known != null) {
                return known;
            }
        }
        int tokens = count.getAsInt();
        synchronized (counts) {
            counts.put(key, tokens);
        }
        return tokens;
    }
}
