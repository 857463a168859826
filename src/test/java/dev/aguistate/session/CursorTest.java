package dev.aguistate.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.aguistate.store.RunLock;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Execution(ExecutionMode.CONCURRENT)
class CursorTest {

    @Test
    void aRunWhoseClaimHasAnOrdinalIsNamedByItInBase36AndOnlyItsCursorsAreInIt() {
        String token = RunLock.token(1295);
        String id = Cursor.id("2f1c2a7e-0d5c-4e0b-9a51-8f0f6b3c9d11", token, 41);

        assertEquals("zz.41", id);
        Cursor cursor = Cursor.parse(id).orElseThrow();
        assertEquals(41, cursor.seq());
        assertTrue(cursor.in("any run id", token), "the ordinal decides, not the client's run id");
        assertFalse(cursor.in("2f1c2a7e-0d5c-4e0b-9a51-8f0f6b3c9d11", RunLock.token(1296)), "another claim's run");
        assertFalse(cursor.in("r", "2f1c2a7e-0d5c-4e0b-9a51-8f0f6b3c9d11"), "a claim taken before ordinals");
    }

    @Test
    void aRunWhoseClaimHasNoOrdinalKeepsTheOlderFormAndItIsStillRead() {
        String id = Cursor.id("run:with:colons", "2f1c2a7e-0d5c-4e0b-9a51-8f0f6b3c9d11", 7);

        assertEquals("run:with:colons:7", id);
        Cursor cursor = Cursor.parse(id).orElseThrow();
        assertEquals(7, cursor.seq());
        assertTrue(cursor.in("run:with:colons", RunLock.token(3)), "an older cursor names its run by id");
        assertFalse(cursor.in("run:with", RunLock.token(3)));
        assertEquals(Optional.of(new Cursor("a.b", false, 3)), Cursor.parse("a.b:3"), "a dotted run id, older form");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "41", ".41", "zz.", "zz.-1", "zz.4.1", "z!.41", "0.41", "-z.41", "r:", ":5", "r:x"})
    void whatIsNoCursorIsIgnored(String id) {
        assertEquals(Optional.empty(), Cursor.parse(id), id);
    }
}
