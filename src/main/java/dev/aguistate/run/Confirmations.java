package dev.aguistate.run;

import com.fasterxml.jackson.databind.JsonNode;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.protocol.Interrupt;
import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.ResumeEntry;
import dev.aguistate.protocol.ToolCall;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The two wire forms of a confirmation, and how a run reads the answers to the ones its thread waits for.
 *
 * <ul>
 *   <li>The canonical interrupt: the run finishes with {@code outcome: interrupt}, one {@code tool_call} interrupt
 *       per waiting call; the next run carries {@code resume} entries.</li>
 *   <li>The client-tool form CopilotKit and the AG-UI dojo use, chosen when the client declares a
 *       {@value ToolCall#CONFIRM_CHANGES} tool: the run calls that tool (its call id is the interrupt id) and finishes; the
 *       next run carries a {@code tool} message answering it with {@code {"accepted": true|false}}.</li>
 * </ul>
 */
final class Confirmations {

    static final JsonNode RESPONSE_SCHEMA = AgUiJson.tree("""
            {"type":"object","properties":{"approved":{"type":"boolean"},\
            "editedArgs":{"type":"object","description":"replaces the tool call's arguments"}},\
            "required":["approved"]}""");

    private Confirmations() {}

    /** How a run answers its thread's open interrupts. */
    sealed interface Resumption {}

    /** The thread waits for nothing and the request resumes nothing. */
    record NothingOpen() implements Resumption {}

    /** The request repeats a resume that an earlier run already carried out. */
    record Repeated() implements Resumption {}

    /** Every open interrupt has its answer. */
    record Answered(List<Decision> decisions) implements Resumption {

        List<String> interruptIds() {
            return decisions.stream().map(d -> d.interrupt().id()).toList();
        }

        /** The answers to what {@code subagentRunId} asked (null: the thread's own agent), in order. */
        Answered of(String subagentRunId) {
            return new Answered(decisions.stream()
                    .filter(d -> Objects.equals(d.interrupt().subagentRunId(), subagentRunId)).toList());
        }

        /** The sub-agent runs that asked some of the questions, in the order of their first answer. */
        List<String> subagentRuns() {
            return decisions.stream().map(d -> d.interrupt().subagentRunId()).filter(Objects::nonNull).distinct()
                    .toList();
        }
    }

    /**
     * The user's answer about one waiting tool call.
     *
     * @param arguments the arguments to run it with: the stored call's, or the user's edited ones
     */
    record Decision(Interrupt interrupt, String toolName, String arguments, boolean approved) {

        String toolCallId() {
            return interrupt.toolCallId();
        }
    }

    /**
     * Reads the answers the request carries to the thread's open interrupts.
     *
     * @param added        the request's new messages: answers in the client-tool form, or a new user message
     * @param stored       the thread's stored messages: an answer in the client-tool form that a resume kept and
     *                     was stopped before carrying out still stands, unless its interrupt has expired since
     * @param waitingCalls the stored calls the open interrupts ask about, by call id ({@link #waitingCalls})
     * @throws RunFailure when the answers are incomplete, name unknown interrupts, are malformed, or approve an
     *                    expired interrupt; nothing is kept then and the thread still waits
     */
    static Resumption resolve(ThreadInterrupts interrupts, List<ResumeEntry> entries, List<Message> added,
                              List<Message> stored, Map<String, ToolCall> waitingCalls, Instant now) {
        Map<String, ResumeEntry> resume = entries.stream()
                .collect(Collectors.toMap(ResumeEntry::interruptId, Function.identity(), (first, again) -> first));
        Set<String> open = interrupts.open().stream().map(Interrupt::id).collect(Collectors.toSet());
        List<String> unknown = resume.keySet().stream()
                .filter(id -> !open.contains(id) && !interrupts.resolved().contains(id)).sorted().toList();
        if (!unknown.isEmpty()) {
            throw new RunFailure("unknown_interrupt", "This thread is not waiting for interrupt(s) " + unknown + ".");
        }
        if (open.isEmpty()) {
            return resume.isEmpty() ? new NothingOpen() : new Repeated();
        }
        List<Decision> decisions = new ArrayList<>();
        List<String> unanswered = new ArrayList<>();
        for (Interrupt interrupt : interrupts.open()) {
            Optional<Answer> answer = Optional.ofNullable(resume.get(interrupt.id())).map(Confirmations::answer)
                    .or(() -> toolAnswer(added, interrupt.id()))
                    .or(() -> expired(interrupt, now) ? Optional.empty() : toolAnswer(stored, interrupt.id()));
            if (answer.isEmpty()) {
                unanswered.add(interrupt.id());
            } else {
                decisions.add(decide(interrupt, answer.get(), waitingCalls, now));
            }
        }
        if (unanswered.isEmpty()) {
            return new Answered(decisions);
        }
        if (decisions.isEmpty() && added.stream().anyMatch(m -> m instanceof Message.User)) {
            // the user wrote instead of answering: every waiting change is declined
            return new Answered(interrupts.open().stream()
                    .map(interrupt -> decide(interrupt, Answer.DECLINED, waitingCalls, now)).toList());
        }
        throw new RunFailure("interrupts_pending", "This thread waits for answers to interrupt(s) " + unanswered
                + ": resume every one of them, or send a new user message to decline them.");
    }

    /** An answer as the client gave it; {@code editedArguments} is null when the call runs as it was. */
    private record Answer(boolean approved, boolean cancelled, JsonNode editedArguments) {
        static final Answer DECLINED = new Answer(false, true, null);
    }

    private static Answer answer(ResumeEntry entry) {
        if ("cancelled".equals(entry.status())) {
            return Answer.DECLINED;
        }
        JsonNode payload = entry.payload();
        JsonNode approved = approval(payload);
        if (approved == null) {
            throw invalidAnswer("resume for " + entry.interruptId()
                    + " must have a payload with a boolean 'approved' (or 'accepted')");
        }
        JsonNode edited = payload.get("editedArgs");
        if (edited != null && !edited.isObject()) {
            throw invalidAnswer("'editedArgs' of the resume for " + entry.interruptId() + " must be an object");
        }
        return new Answer(approved.booleanValue(), false, edited);
    }

    /** The client-tool form's answer: a tool message for the {@value ToolCall#CONFIRM_CHANGES} call. */
    private static Optional<Answer> toolAnswer(List<Message> messages, String interruptId) {
        return messages.stream()
                .filter(m -> m instanceof Message.Tool tool && interruptId.equals(tool.toolCallId()))
                .map(m -> {
                    JsonNode content = parseOrNull(((Message.Tool) m).content().text());
                    JsonNode approved = approval(content);
                    if (approved == null) {
                        throw invalidAnswer("the answer to " + ToolCall.CONFIRM_CHANGES + " call " + interruptId
                                + " must be JSON with a boolean 'accepted' (or 'approved')");
                    }
                    return new Answer(approved.booleanValue(), false, null);
                })
                .findFirst();
    }

    private static JsonNode approval(JsonNode payload) {
        if (payload == null || !payload.isObject()) {
            return null;
        }
        JsonNode approved = payload.has("approved") ? payload.get("approved") : payload.get("accepted");
        return approved != null && approved.isBoolean() ? approved : null;
    }

    private static JsonNode parseOrNull(String text) {
        try {
            return text == null ? null : AgUiJson.tree(text);
        } catch (RuntimeException notJson) {
            return null;
        }
    }

    /** The stored calls the open interrupts ask about, by call id. */
    static Map<String, ToolCall> waitingCalls(ThreadInterrupts interrupts, List<Message> storedHistory) {
        Set<String> ids = interrupts.open().stream().map(Interrupt::toolCallId).collect(Collectors.toSet());
        Map<String, ToolCall> calls = new HashMap<>();
        for (Message message : storedHistory) {
            if (message instanceof Message.Assistant assistant && assistant.toolCalls() != null) {
                assistant.toolCalls().stream().filter(c -> ids.contains(c.id())).forEach(c -> calls.put(c.id(), c));
            }
        }
        return calls;
    }

    private static Decision decide(Interrupt interrupt, Answer answer, Map<String, ToolCall> waitingCalls,
                                   Instant now) {
        if (!answer.cancelled() && expired(interrupt, now)) {
            throw new RunFailure("interrupt_expired", "Interrupt " + interrupt.id() + " expired at "
                    + interrupt.expiresAt() + "; cancel it, or send a new user message, to go on.");
        }
        ToolCall call = waitingCalls.get(interrupt.toolCallId());
        if (call == null) {
            throw new RunFailure("thread_inconsistent", "The call that interrupt " + interrupt.id()
                    + " asks about is not in the stored thread.");
        }
        String arguments = answer.editedArguments() != null ? AgUiJson.write(answer.editedArguments())
                : call.function().arguments();
        return new Decision(interrupt, call.function().name(), arguments, answer.approved());
    }

    private static boolean expired(Interrupt interrupt, Instant now) {
        try {
            return interrupt.expiresAt() != null && Instant.parse(interrupt.expiresAt()).isBefore(now);
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    private static RunFailure invalidAnswer(String message) {
        return new RunFailure("invalid_resume", "Invalid answer to a confirmation: " + message + ".");
    }
}
