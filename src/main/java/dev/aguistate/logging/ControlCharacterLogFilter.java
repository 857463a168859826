package dev.aguistate.logging;

import dev.aguistate.protocol.ControlCharacters;
import io.quarkus.logging.LoggingFilter;
import java.time.temporal.TemporalAccessor;
import java.util.Calendar;
import java.util.Date;
import java.util.logging.Filter;
import java.util.logging.LogRecord;

/**
 * Escapes control characters in the parameters of every log record ({@code LOG.infof("threadId=%s", id)}), so
 * that a value a client chose (a state key, a tool name, a path) cannot forge a log line with a line break,
 * recolour a terminal with ANSI escapes, or cut a line with NUL. The message patterns are ours and stay as written
 * (a multi-line banner keeps its lines). Ids are refused at the door when they hold control characters
 * ({@code IdRules}); this covers every other logged value, including the frameworks'.
 *
 * <p>Linked to a handler by name: {@code quarkus.log.console.filter=escape-control-characters}.
 */
@LoggingFilter(name = "escape-control-characters")
public final class ControlCharacterLogFilter implements Filter {

    @Override
    public boolean isLoggable(LogRecord record) {
        Object[] parameters = record.getParameters();
        if (parameters == null) {
            return true;
        }
        Object[] escaped = null;
        for (int i = 0; i < parameters.length; i++) {
            if (printsAsText(parameters[i])) {
                String text = String.valueOf(parameters[i]);
                String safe = ControlCharacters.escape(text);
                if (!safe.equals(text)) {
                    if (escaped == null) {
                        escaped = parameters.clone();
                    }
                    escaped[i] = safe;
                }
            }
        }
        if (escaped != null) {
            record.setParameters(escaped);
        }
        return true;
    }

    /** Numbers, dates and the like keep their type, so that {@code %d} or {@code %tT} still format them. */
    private static boolean printsAsText(Object parameter) {
        return parameter != null && !(parameter instanceof Number || parameter instanceof Boolean
                || parameter instanceof Character || parameter instanceof TemporalAccessor || parameter instanceof Date
                || parameter instanceof Calendar);
    }
}
