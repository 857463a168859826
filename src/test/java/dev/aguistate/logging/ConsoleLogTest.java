package dev.aguistate.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aguistate.testing.StubbedLlmProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import org.jboss.logmanager.ExtHandler;
import org.jboss.logmanager.ExtLogRecord;
import org.jboss.logmanager.LogContext;
import org.jboss.logmanager.handlers.ConsoleHandler;
import org.junit.jupiter.api.Test;

/** The server's console log, as configured: a client's value cannot forge a line there. */
@QuarkusTest
@TestProfile(StubbedLlmProfile.class)
class ConsoleLogTest extends StubbedLlmTestBase {

    @Test
    void theConsoleHandlerKeepsEveryRecordOnOneLine() {
        List<ConsoleHandler> consoles = consoleHandlers(LogContext.getLogContext().getLogger("").getHandlers());
        assertFalse(consoles.isEmpty(), "the server logs to the console");
        for (ConsoleHandler console : consoles) {
            ExtLogRecord record = new ExtLogRecord(Level.WARNING, "threadId=%s: ignored the client's value for %s",
                    ExtLogRecord.FormatStyle.PRINTF, ConsoleLogTest.class.getName());
            record.setParameters(new Object[] {"t1", ControlCharacterLogFilterTest.FORGED});

            assertTrue(console.isLoggable(record));
            String line = console.getFormatter().format(record);
            assertEquals(1, line.lines().count(), line);
            assertTrue(line.contains("\\n13:00:00.000 ERROR"), line);
        }
    }

    private static List<ConsoleHandler> consoleHandlers(Handler[] handlers) {
        List<ConsoleHandler> found = new ArrayList<>();
        for (Handler handler : handlers) {
            if (handler instanceof ConsoleHandler console) {
                found.add(console);
            } else if (handler instanceof ExtHandler parent) {
                found.addAll(consoleHandlers(parent.getHandlers()));
            }
        }
        return found;
    }
}
