package dev.aguistate.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.logging.Level;
import org.jboss.logmanager.ExtLogRecord;
import org.jboss.logmanager.formatters.PatternFormatter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** A value a client chose stays on its log line, whatever characters it holds. */
@Execution(ExecutionMode.CONCURRENT)
class ControlCharacterLogFilterTest {

    static final String FORGED = "t\n13:00:00.000 ERROR [dev.aguistate] forged line\r\u001b[31mred\u0000\u2028";

    /** Formats a record the way the console does, after the filter. */
    static String logged(String pattern, Object... parameters) {
        ExtLogRecord record = new ExtLogRecord(Level.INFO, pattern, ExtLogRecord.FormatStyle.PRINTF,
                ControlCharacterLogFilterTest.class.getName());
        record.setParameters(parameters);
        assertTrue(new ControlCharacterLogFilter().isLoggable(record), "the filter drops nothing");
        return new PatternFormatter("%-5p %s%n").format(record);
    }

    @Test
    void aForgedLineStaysOnOneLineAndShowsWhatWasSent() {
        String line = logged("threadId=%s runId=%s: run started", FORGED, "r1");

        assertEquals(1, line.lines().count(), line);
        assertTrue(line.contains("threadId=t\\n13:00:00.000 ERROR [dev.aguistate] forged line\\r\\u001b[31mred\\u0000"
                + "\\u2028 runId=r1"), line);
        assertTrue(line.chars().filter(c -> c < 0x20).allMatch(c -> c == '\n') && line.endsWith("\n"), line);
    }

    @Test
    void anyObjectIsEscapedAsItPrints() {
        Object toStringWithNewline = new Object() {
            @Override
            public String toString() {
                return "outcome\nERROR forged";
            }
        };
        assertEquals(1, logged("run ended: %s", toStringWithNewline).lines().count());
    }

    @Test
    void numbersAndPlainTextAreLeftAsTheyAre() {
        assertEquals("INFO  agent chat, 3 messages, 2.50 s\n", logged("agent %s, %d messages, %.2f s", "chat", 3, 2.5));
    }

    @Test
    void theMessagePatternItselfMayHaveLines() {
        assertEquals(2, logged("banner\nsecond line %s", "x").lines().count());
    }
}
