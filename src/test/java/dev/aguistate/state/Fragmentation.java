package dev.aguistate.state;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Seeded random splits of a text, so a failure is reproducible from its chunking number. */
final class Fragmentation {

    /**
     * A chunking's number picks its chunk sizes (number mod 8, below) and, in
     * {@code PredictiveStatePatchInvariantTest}, how it is drained (number mod 2, 4 and 5): 40 consecutive
     * chunkings meet every combination once.
     */
    static final int EVERY_COMBINATION = 40;
    /** A short document gets every combination five times, with other random splits each time. */
    static final int CHUNKINGS_OF_A_SHORT_DOCUMENT = 5 * EVERY_COMBINATION;
    static final int LONG_DOCUMENT_CHARS = 256;

    private Fragmentation() {}

    /**
     * How many chunkings of {@code text} the property tests check: a long document gets every combination once,
     * since one chunking by single characters already splits it at every character, and checking every drain of
     * a long document costs the square of its length (each drain is applied to and compared with all of it so far).
     */
    static int chunkings(String text) {
        return text.length() > LONG_DOCUMENT_CHARS ? EVERY_COMBINATION : CHUNKINGS_OF_A_SHORT_DOCUMENT;
    }

    /**
     * Chunking {@code number} of {@code text}: chunks of random sizes 1..N, where N cycles from 1 (every character
     * alone) up to the whole text, so splits land inside names, escapes, numbers, literals and surrogate pairs.
     */
    static List<String> chunking(String text, int number) {
        Random random = new Random(31L * number + text.hashCode());
        int[] maxSizes = {1, 2, 3, 4, 7, 16, 64, text.length()};
        int maxSize = Math.max(1, Math.min(text.length(), maxSizes[number % maxSizes.length]));
        List<String> chunks = new ArrayList<>();
        for (int start = 0; start < text.length(); ) {
            int end = Math.min(text.length(), start + 1 + random.nextInt(maxSize));
            chunks.add(text.substring(start, end));
            start = end;
        }
        return chunks;
    }
}
