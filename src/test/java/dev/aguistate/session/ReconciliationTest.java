package dev.aguistate.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.ToolCall;
import dev.aguistate.run.Conversation.Restatement;
import dev.aguistate.run.Conversation;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

@Execution(ExecutionMode.CONCURRENT)
class ReconciliationTest {

    private static final Message U1 = new Message.User("u1", "My name is Alice");
    private static final Message A1 = new Message.Assistant("a1", "Hello Alice", null);
    private static final Message U2 = new Message.User("u2", "Blue background please");
    private static final Message A2 = new Message.Assistant("a2", null,
            List.of(new ToolCall("c1", "change_background", "{\"color\":\"blue\"}")));
    private static final List<Message> STORED = List.of(U1, A1, U2, A2);
    private static final Message U3 = new Message.User("u3", "What is my name?");

    private static List<String> ids(List<Message> messages) {
        return messages.stream().map(Message::id).toList();
    }

    private static Reconciliation.Result reconcile(List<Message> sent) {
        return Reconciliation.of(STORED, sent, null);
    }

    @Test
    void theStoredHistoryFollowedByNewMessagesAppendsThem() {
        Message result = new Message.Tool("t1", "done", "c1");
        Reconciliation.Result r = reconcile(List.of(U1, A1, U2, A2, result, U3));

        assertEquals(Reconciliation.Outcome.APPENDED, r.outcome());
        assertEquals(List.of("u1", "a1", "u2", "a2", "t1", "u3"), ids(r.conversation().history()));
        assertEquals(List.of("t1", "u3"), ids(r.conversation().added()));
        assertEquals(Restatement.NONE, r.conversation().restate());
        assertTrue(r.conversation().answer());
    }

    @Test
    void onlyNewMessagesAreAppendedAfterTheWholeStoredHistoryAndTheClientIsToldIt() {
        Conversation c = reconcile(List.of(U3)).conversation();

        assertEquals(List.of("u1", "a1", "u2", "a2", "u3"), ids(c.history()));
        assertEquals(Restatement.CLEAR_THEN_SNAPSHOT, c.restate(), "merged by id, its message would stay first");
        assertTrue(c.answer());
    }

    @Test
    void aToolMessageAloneContinuesThePendingCall() {
        Conversation c = reconcile(List.of(new Message.Tool("t1", "done", "c1"))).conversation();

        assertEquals(List.of("u1", "a1", "u2", "a2", "t1"), ids(c.history()));
        assertEquals(Restatement.CLEAR_THEN_SNAPSHOT, c.restate());
        assertTrue(c.answer());
    }

    @Test
    void aToolMessageForACallThatIsNotThereOrAlreadyAnsweredIsRefused() {
        assertThrows(Reconciliation.Refused.class, () -> reconcile(List.of(new Message.Tool("t9", "x", "c9"))));

        List<Message> answered = List.of(U1, A1, U2, A2, new Message.Tool("t1", "done", "c1"));
        assertThrows(Reconciliation.Refused.class, () -> Reconciliation.of(answered,
                List.of(new Message.Tool("t2", "again", "c1")), null));
    }

    @Test
    void aStoredMessageSentWithOtherContentKeepsTheStoredVersion() {
        Message forged = new Message.Assistant("a1", "Hello Mallory", null);
        Reconciliation.Result r = reconcile(List.of(U1, forged, U2, A2, U3));

        assertEquals(List.of("a1"), r.conflicts());
        assertEquals(A1, r.conversation().history().get(1));
        assertEquals(Restatement.SNAPSHOT, r.conversation().restate());
        assertTrue(r.conversation().answer());
    }

    @Test
    void aPrefixEndingWithAStoredUserMessageRegeneratesFromThere() {
        Reconciliation.Result r = reconcile(List.of(U1, A1, U2));

        assertEquals(Reconciliation.Outcome.REGENERATED, r.outcome());
        assertEquals(List.of("u1", "a1", "u2"), ids(r.conversation().history()));
        assertEquals(Restatement.SNAPSHOT, r.conversation().restate());
        assertTrue(r.conversation().answer());
    }

    @Test
    void aStaleClientNeverTruncatesTheThread() {
        for (List<Message> stale : List.of(List.of(U1, A1), List.<Message>of(), List.of(A1), List.of(U2, A2))) {
            Reconciliation.Result r = reconcile(stale);

            assertEquals(Reconciliation.Outcome.NOTHING_NEW, r.outcome(), stale.toString());
            assertEquals(STORED, r.conversation().history());
            assertNotEquals(Restatement.NONE, r.conversation().restate());
            assertFalse(r.conversation().answer());
        }
        Conversation staleWithNew = reconcile(List.of(U1, A1, U3)).conversation();
        assertEquals(List.of("u1", "a1", "u2", "a2", "u3"), ids(staleWithNew.history()));
        assertEquals(Restatement.CLEAR_THEN_SNAPSHOT, staleWithNew.restate());
        assertEquals(Restatement.SNAPSHOT, reconcile(List.of(U1, A1)).conversation().restate());
    }

    @Test
    void theWholeStoredHistoryAndNothingElseHasNothingToAnswer() {
        Conversation c = reconcile(STORED).conversation();

        assertEquals(Restatement.NONE, c.restate());
        assertFalse(c.answer());
        assertEquals(STORED, c.history());
    }

    @Test
    void aRewindDropsTheStoredMessagesFromTheAnchorOn() {
        Message edited = new Message.User("u2b", "Red background please");
        Reconciliation.Result r = Reconciliation.of(STORED, List.of(U1, A1, edited), "u2");

        assertEquals(Reconciliation.Outcome.REWOUND, r.outcome());
        assertEquals(List.of("u1", "a1", "u2b"), ids(r.conversation().history()));
        assertEquals(Restatement.SNAPSHOT, r.conversation().restate());
        assertTrue(r.conversation().answer());
        assertThrows(Reconciliation.Refused.class, () -> Reconciliation.of(STORED, List.of(U3), "nope"));
    }

    @Test
    void aNewThreadTakesTheRequestAsItIs() {
        Reconciliation.Result r = Reconciliation.of(List.of(), List.of(U1, A1, U3), null);

        assertEquals(Reconciliation.Outcome.NEW_THREAD, r.outcome());
        assertEquals(List.of("u1", "a1", "u3"), ids(r.conversation().history()));
        assertEquals(Restatement.NONE, r.conversation().restate());
        assertTrue(r.conversation().answer());
        assertFalse(Reconciliation.of(List.of(), List.of(), null).conversation().answer());
    }

    private static Message activity(String id) {
        return new Message.Activity(id, "tool-progress", JsonNodeFactory.instance.objectNode().put("fraction", 1), null);
    }

    @Test
    void activityMessagesLeftOutOrSentBackChangeNothingAndAClientsOwnAreNotKept() {
        Message result = new Message.Tool("t1", "done", "c1");
        List<Message> stored = List.of(U1, A1, U2, A2, result, activity("act1"));

        Conversation leftOut = Reconciliation.of(stored, List.of(U1, A1, U2, A2, result, U3), null).conversation();
        assertEquals(List.of("u1", "a1", "u2", "a2", "t1", "act1", "u3"), ids(leftOut.history()));
        assertEquals(Restatement.NONE, leftOut.restate(), "a 1.0 client sends no activity back but holds it");

        Reconciliation.Result sentBack = Reconciliation.of(stored,
                List.of(U1, A1, U2, A2, activity("act1"), result, activity("mine"), U3), null);
        assertEquals(List.of("u1", "a1", "u2", "a2", "t1", "act1", "u3"), ids(sentBack.conversation().history()));
        assertEquals(List.of("u3"), ids(sentBack.conversation().added()), "the client's own activity is ignored");
        assertEquals(Restatement.NONE, sentBack.conversation().restate());
        assertEquals(List.of(), sentBack.conflicts());
    }

    @Test
    void aRegenerateOverAnActivityKeepsItInTheHistoryItAnswersAgain() {
        Message result = new Message.Tool("t1", "done", "c1");
        Message answer = new Message.Assistant("a3", "Blue it is", null);
        List<Message> stored = List.of(U1, A1, U2, A2, result, activity("act1"), U3, answer);

        Reconciliation.Result r = Reconciliation.of(stored, List.of(U1, A1, U2, A2, result, U3), null);

        assertEquals(Reconciliation.Outcome.REGENERATED, r.outcome());
        assertEquals(List.of("u1", "a1", "u2", "a2", "t1", "act1", "u3"), ids(r.conversation().history()));
    }
}
