package dev.aguistate.state;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Seeded random splits of a text, so a failure is reproducible from its chunking number. */
final class Fragmentation {

    static final int CHUNKINGS_PER_DOCUMENT = 200;

    private Fragmentation() {}

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
