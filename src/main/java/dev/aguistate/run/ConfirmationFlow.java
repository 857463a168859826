package dev.aguistate.run;

import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.agent.ConfirmationMessages;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.InputContent;
import dev.aguistate.protocol.Interrupt;
import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.MessageContent;
import dev.aguistate.protocol.RunOutcome;
import dev.aguistate.protocol.ToolCall;
import dev.aguistate.tools.ToolOutcome;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * A run's part in human confirmation: the calls its thread waits to have confirmed, how this request answers
 * them, the results the answered calls get, and the interrupts the run opens instead of running calls that need
 * the user's approval. The wire forms are described in {@link Confirmations}.
 */
final class ConfirmationFlow {

    private static final Logger LOG = Logger.getLogger(ConfirmationFlow.class);

    private final AgentDefinition agent;
    private final RunStart start;
    private final boolean clientConfirms;
    private final Duration expiry;
    /** The stored tool calls the thread's open interrupts ask about, by call id. */
    private final Map<String, ToolCall> waitingCalls;
    private Confirmations.Resumption resumption;
    private final List<Interrupt> opened = new ArrayList<>();
    private List<String> answered = List.of();

    ConfirmationFlow(AgentDefinition agent, RunStart start, boolean clientConfirms, Duration expiry) {
        this.agent = agent;
        this.start = start;
        this.clientConfirms = clientConfirms;
        this.expiry = expiry;
        this.waitingCalls = Confirmations.waitingCalls(start.interrupts(), start.storedHistory());
    }

    /** Whether the thread waits for answers: the client shows a proposal until they come. */
    boolean waiting() {
        return !waitingCalls.isEmpty();
    }

    /** The state keys the waiting calls propose to change (a sub-agent's change its own state, not this run's). */
    Set<String> proposedKeys() {
        Set<String> keys = new HashSet<>();
        start.interrupts().open().stream().filter(interrupt -> interrupt.subagentRunId() == null)
                .map(interrupt -> waitingCalls.get(interrupt.toolCallId())).filter(Objects::nonNull)
                .forEach(call -> keys.addAll(agent.stateKeysOf(call.function().name())));
        return keys;
    }

    /**
     * How this run answers the interrupts its thread waits for.
     *
     * @throws RunFailure when the request's answers are incomplete or invalid
     */
    Confirmations.Resumption resumption() {
        if (resumption == null) {
            resumption = Confirmations.resolve(start.interrupts(), start.input().resume(),
                    start.conversation().added(), start.storedHistory(), waitingCalls, Instant.now());
        }
        return resumption;
    }

    /** The approved calls, to run with the arguments the user approved. */
    List<ServerToolCall> approvedCalls(Confirmations.Answered answers) {
        return answers.decisions().stream().filter(Confirmations.Decision::approved)
                .map(d -> new ServerToolCall(d.toolCallId(), d.toolName(), d.arguments(),
                        agent.tool(d.toolName()).orElse(null)))
                .toList();
    }

    /** What the LLM is told of an approved call: that the user approved, then the tool's own result. */
    MessageContent approvedResult(ToolOutcome outcome) {
        String approved = agent.confirmation().messages().approved();
        if (outcome.content() instanceof MessageContent.Parts result) {
            List<InputContent> parts = new ArrayList<>(result.parts().size() + 1);
            parts.add(new InputContent.TextPart(approved));
            parts.addAll(result.parts());
            return new MessageContent.Parts(List.copyOf(parts));
        }
        return new MessageContent.Text(approved + "\n" + outcome.content().text());
    }

    /** What the LLM is told of a declined call. */
    MessageContent declinedResult() {
        return new MessageContent.Text(agent.confirmation().messages().declined());
    }

    void answered(Confirmations.Answered answers) {
        answered = answers.interruptIds();
    }

    /** The sub-agents' questions of a round of tools: the thread waits for them as for the run's own. */
    void adopt(List<Interrupt> asked) {
        opened.addAll(asked);
    }

    /** The interrupts the run opened: its own questions and those its sub-agents asked. */
    List<Interrupt> opened() {
        return List.copyOf(opened);
    }

    /**
     * Asks the user about the calls instead of running them: one {@code tool_call} interrupt each, expiring after
     * {@code agui.run.confirmation.expires-after}. In the client-tool form the client also gets a
     * {@value ToolCall#CONFIRM_CHANGES} call per interrupt, whose id is the interrupt's, recorded in the
     * transcript. No calls: nothing is asked, and nothing is added to the transcript.
     */
    List<AgUiEvent> ask(List<ServerToolCall> calls, Transcript transcript) {
        if (calls.isEmpty()) {
            return List.of();
        }
        String expiresAt = Instant.now().plus(expiry).toString();
        ConfirmationMessages messages = agent.confirmation().messages();
        List<AgUiEvent> out = new ArrayList<>();
        List<ToolCall> confirmCalls = new ArrayList<>();
        String messageId = UUID.randomUUID().toString();
        for (ServerToolCall call : calls) {
            String id = (clientConfirms ? "call_" : "confirm_") + UUID.randomUUID().toString().replace("-", "");
            opened.add(new Interrupt(id, "tool_call", messages.request(), call.id(), Confirmations.RESPONSE_SCHEMA,
                    expiresAt, null));
            if (clientConfirms) {
                confirmCalls.add(new ToolCall(id, ToolCall.CONFIRM_CHANGES, "{}"));
                out.add(new AgUiEvent.ToolCallStart(id, ToolCall.CONFIRM_CHANGES, messageId));
                out.add(new AgUiEvent.ToolCallArgs(id, "{}"));
                out.add(new AgUiEvent.ToolCallEnd(id));
            }
        }
        if (clientConfirms) {
            transcript.add(new Message.Assistant(messageId, null, confirmCalls));
        }
        LOG.infof("threadId=%s runId=%s: waiting for the user to confirm %s", start.input().threadId(),
                start.input().runId(), calls.stream().map(ServerToolCall::name).toList());
        return out;
    }

    /**
     * What the thread waits for after this run, as far as it has gone: the interrupts it opened, and those it
     * answers until their answers are carried out and recorded. A resume stopped before then leaves the question
     * open, to be answered again, rather than a call with neither a result nor anyone asked about it.
     */
    ThreadInterrupts interruptsAfter() {
        return start.interrupts().next(opened, answered);
    }

    /**
     * The outcome of a run that answered nothing: the thread's open interrupts, asked again; unless they take the
     * client-tool form, or none are open: then success naming the tool calls still left for the client
     * ({@code openCalls}: frontend calls, or the {@value ToolCall#CONFIRM_CHANGES} calls that ask).
     */
    RunOutcome stillWaiting(List<String> openCalls) {
        return start.interrupts().open().isEmpty() || clientConfirms ? new RunOutcome.Success(openCalls)
                : new RunOutcome.Interrupted(start.interrupts().open());
    }

    /**
     * The run's outcome: the interrupts it opened, unless they took the client-tool form; then, or when it opened
     * none, success naming the tool calls left for the client: {@code clientCalls} (the last round's frontend
     * calls) and the {@value ToolCall#CONFIRM_CHANGES} calls it made, whose ids are the interrupts'.
     */
    RunOutcome outcome(List<String> clientCalls) {
        if (opensInterrupts()) {
            return new RunOutcome.Interrupted(List.copyOf(opened));
        }
        List<String> pending = new ArrayList<>(clientCalls);
        opened.forEach(interrupt -> pending.add(interrupt.id()));
        return new RunOutcome.Success(pending);
    }

    /** Whether the run opened interrupts the thread now waits for. */
    boolean opensInterrupts() {
        return !opened.isEmpty() && !clientConfirms;
    }
}
