package dev.aguistate.session;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.store.ThreadSummary;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Which of the caller's threads a listing shows.
 *
 * @param agent    only the threads of this agent
 * @param archived which threads by their archived flag
 * @param metadata only threads whose metadata has each of these keys with this value: a string value as it is, any
 *                 other as its JSON ({@code 3}, {@code true})
 * @param text     only threads whose name contains this, ignoring case
 */
public record ThreadFilter(Optional<String> agent, Archived archived, Map<String, String> metadata,
                           Optional<String> text) {

    /** Every thread but the archived ones: what a listing shows unless asked for more. */
    public static final ThreadFilter ACTIVE = new ThreadFilter(Optional.empty(), Archived.HIDDEN, Map.of(),
            Optional.empty());

    public enum Archived {
        /** Only threads that are not archived. */
        HIDDEN,
        /** Only archived threads. */
        ONLY,
        /** Both. */
        INCLUDED
    }

    public ThreadFilter {
        metadata = Map.copyOf(metadata);
        text = text.map(t -> t.toLowerCase(Locale.ROOT));
    }

    public boolean matches(ThreadSummary thread) {
        boolean archivedMatches = switch (archived) {
            case HIDDEN -> !thread.info().archived();
            case ONLY -> thread.info().archived();
            case INCLUDED -> true;
        };
        String name = thread.info().name();
        return archivedMatches && agent.map(thread.agent()::equals).orElse(true)
                && text.map(t -> name != null && name.toLowerCase(Locale.ROOT).contains(t)).orElse(true)
                && metadata.entrySet().stream().allMatch(wanted -> {
                    JsonNode value = thread.info().metadata().get(wanted.getKey());
                    return value != null && wanted.getValue().equals(value.isTextual() ? value.textValue()
                            : value.toString());
                });
    }
}
