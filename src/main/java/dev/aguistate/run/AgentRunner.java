package dev.aguistate.run;

import dev.aguistate.state.StateConfig;
import dev.aguistate.run.tracing.RunTrace;
import dev.aguistate.run.tracing.RunTracing;
import dev.aguistate.run.request.CountedUnits;
import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.llm.LlmConfig;
import dev.aguistate.llm.ModelLimits;
import dev.aguistate.llm.ModelEvent;
import dev.aguistate.llm.StreamingModel;
import dev.aguistate.llm.TokenCalibration;
import dev.aguistate.llm.TokenEstimator;
import dev.aguistate.mutiny.DirectExpansion;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.aguistate.protocol.AgUiEvent;
import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.protocol.Interrupt;
import dev.aguistate.protocol.Message;
import dev.aguistate.protocol.RunAgentInput;
import dev.aguistate.state.StatePrompt;
import dev.aguistate.state.StateWriteException;
import dev.aguistate.tools.ToolFailure;
import dev.aguistate.tools.ToolInvoker;
import dev.aguistate.tools.ToolOutcome;
import io.opentelemetry.context.Context;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * The run loop: turns one {@link RunAgentInput} into one AG-UI event stream.
 *
 * <p>{@code RUN_STARTED}; the answers to what the thread waited for, if any; then rounds of "stream an LLM call,
 * translate it, run the backend tools it asked for" until the model answers without tools, calls a frontend tool
 * (the client continues in a new run), asks for the user's confirmation, or exceeds the round limit; then the
 * commit and {@code RUN_FINISHED}. Any failure becomes exactly one {@code RUN_ERROR} and ends the stream. The run
 * keeps a checkpoint when it starts and after each round of tools ({@link RunJournal}); a {@link StopSwitch} ends
 * it early. Cancelling the subscription cancels the LLM call in flight. The steps call {@link Run} one at a
 * time (see its note on concurrency).
 */
@ApplicationScoped
@Startup // made before the first request, never on an event loop (docs/architecture.md, "Concurrency")
public class AgentRunner {

    private static final Logger LOG = Logger.getLogger(AgentRunner.class);
    /** Token counts kept for this many conversation units (a few megabytes). */
    private static final int COUNTED_UNITS = 100_000;
    /**
     * The outcome of a sub-agent's call whose run asked the user: never recorded, the call waits for the answers
     * ({@link Run#recordResults} leaves it without a result).
     */
    private static final ToolOutcome SUSPENDED = new ToolOutcome.Success("", null);

    private final StreamingModel model;
    private final RunSettings settings;
    private final RunMetrics metrics;
    private final RunTracing tracing;

    @Inject
    AgentRunner(StreamingModel model, RunConfig config, StateConfig stateConfig, LlmConfig llmConfig,
                TokenEstimator estimator, RunMetrics metrics, RunTracing tracing) {
        this(model, new RunSettings(model.description().provider(), model.description().model(),
                new StatePrompt(stateConfig.promptTemplate().orElse(StatePrompt.DEFAULT_TEMPLATE),
                        stateConfig.promptMaxChars()),
                stateConfig.deltaPacing(), config.contextWindow(), config.confirmationExpiresAfter(),
                config.maxRounds(), maxInputTokens(model, config, llmConfig),
                estimator, new TokenCalibration(), new CountedUnits(COUNTED_UNITS)), metrics, tracing);
    }

    /** {@code agui.run.context.max-input-tokens}, else what the model's known limits leave, else none (0). */
    private static int maxInputTokens(StreamingModel model, RunConfig config, LlmConfig llmConfig) {
        String name = model.description().model();
        int budget = config.contextMaxInputTokens().orElseGet(() -> ModelLimits.of(name)
                .map(limits -> limits.inputBudget(llmConfig.maxTokens().orElse(null))).orElse(0));
        if (budget > 0) {
            LOG.infof("LLM requests are kept within %d input tokens unless an agent sets its own", budget);
        } else {
            LOG.infof("LLM requests have no token budget (model %s has no known limits; set "
                    + "agui.run.context.max-input-tokens)", name);
        }
        return budget;
    }

    AgentRunner(StreamingModel model, RunSettings settings, RunMetrics metrics, RunTracing tracing) {
        this.model = model;
        this.settings = settings;
        this.metrics = metrics;
        this.tracing = tracing;
    }

    /**
     * The run's event stream; nothing happens until it is subscribed.
     *
     * @param inbox       the messages steered into the run, taken at each round boundary ({@link #nextRound})
     * @param traceParent the trace the run's span joins: the request's (its {@code traceparent}), or the root context
     * @throws RunRejected (before any stream) when the client's state is not an object or breaks the agent's schema
     */
    public Multi<AgUiEvent> run(AgentDefinition agent, RunStart start, StopSwitch stop, RunInbox inbox,
                               Context traceParent) {
        RunAgentInput input = start.input();
        RunTrace trace = tracing.start(agent.name(), input, settings.provider(), traceParent);
        Run run;
        try {
            run = new Run(agent, start, settings, trace);
        } catch (StateWriteException invalid) {
            trace.failed("invalid_state");
            trace.ended("error");
            throw new RunRejected("invalid_state", invalid.getMessage());
        }
        AtomicReference<String> outcome = new AtomicReference<>("success");
        Multi<AgUiEvent> work = Multi.createBy().concatenating().streams(
                        Multi.createFrom().iterable(run.started()),
                        Multi.createFrom().deferred(() -> resume(run, inbox)))
                .onFailure().recoverWithMulti(error -> {
                    outcome.set("error");
                    return run.failed(error).toMulti();
                });
        return stoppable(run, work, stop, outcome)
                .onSubscription().invoke(() -> {
                    metrics.started();
                    LOG.debugf("threadId=%s runId=%s: run started", run.threadId(), run.runId());
                })
                .onCompletion().invoke(() -> ended(run, input, outcome.get()))
                .onCancellation().invoke(() -> ended(run, input, "cancelled"));
    }

    /**
     * The run's events until it ends or is stopped ({@link StoppableEvents}). Stopping cancels what is in flight (the
     * LLM call: its connection is closed), keeps nothing of the round cut short, and ends the run: {@code
     * RUN_FINISHED} with the outcome {@code cancelled}, or {@code RUN_ERROR max_duration_exceeded} at the time limit.
     * Each event is counted as sent.
     */
    private Multi<AgUiEvent> stoppable(Run run, Multi<AgUiEvent> work, StopSwitch stop,
                                       AtomicReference<String> outcome) {
        return Multi.createFrom().emitter(emitter -> {
            StoppableEvents events = new StoppableEvents(emitter, metrics, reason -> {
                outcome.set(reason == StopSwitch.Reason.REQUESTED ? "cancelled" : "error");
                return reason == StopSwitch.Reason.REQUESTED ? run.cancelled()
                        : run.failed(RunFailure.maxDuration()).map(List::of);
            });
            events.follow(work);
            Cancellable stopping = stop.listen(events::stop);
            emitter.onTermination(() -> {
                events.cancelWork();
                stopping.cancel();
            });
        });
    }

    /**
     * One line per run, when it ends: a line when it starts too (now at DEBUG) was half of what a short run
     * allocated for its logging, and a run still going shows in the metrics ({@code agui_runs_active}). The count is
     * formatted with {@code %s}: {@code %d} looks up the locale's digits for every line. Parameters, not
     * concatenation, so that the log filter escapes what a client chose (docs/reliability.md, "Logs").
     */
    private void ended(Run run, RunAgentInput input, String outcome) {
        run.trace().ended(outcome);
        metrics.ended(run.agent().name(), outcome);
        LOG.infof("threadId=%s runId=%s: run ended: %s (agent %s, messages %s)", run.threadId(), run.runId(), outcome,
                run.agent().name(), input.messages().size());
    }

    /**
     * Carries out the answers to what the thread waited for, if any, then continues with the LLM; a run with
     * nothing to answer ends after restating the thread. A run that goes on first keeps its starting checkpoint
     * (the request's new messages): a request refused here (answers that do not fit) keeps nothing.
     */
    private Multi<AgUiEvent> resume(Run run, RunInbox inbox) {
        if (!run.hasSomethingToAnswer()) {
            return Multi.createFrom().deferred(() -> run.commitUnanswered()
                    .onItem().transform(kept -> run.finishedUnanswered()).toMulti());
        }
        Confirmations.Resumption resumption = run.resumption();
        if (resumption instanceof Confirmations.Repeated) {
            // carried out before: nothing runs and nothing is kept again
            return Multi.createBy().concatenating().streams(Multi.createFrom().iterable(run.repeatedResume()),
                    Multi.createFrom().item(run::finished));
        }
        return run.checkpoint().onItem().transformToMulti(kept -> carryOut(run, resumption, inbox));
    }

    private Multi<AgUiEvent> carryOut(Run run, Confirmations.Resumption resumption, RunInbox inbox) {
        if (resumption instanceof Confirmations.NothingOpen) {
            return round(run, inbox);
        }
        if (resumption instanceof Confirmations.Answered answers) {
            List<ServerToolCall> answered = run.answeredCalls(answers);
            return Multi.createBy().concatenating().streams(
                    runTools(run, answered, outcomes -> run.recordAnswers(answers, answered, outcomes)),
                    afterTools(run, inbox));
        }
        throw new IllegalStateException("no step for resumption " + resumption.getClass().getName());
    }

    private Multi<AgUiEvent> round(Run run, RunInbox inbox) {
        if (!run.startRound()) {
            return Multi.createFrom().failure(RunFailure.maxRounds(settings.maxRounds()));
        }
        long sent = System.nanoTime();
        AtomicBoolean answered = new AtomicBoolean();
        return DirectExpansion.<ModelEvent, AgUiEvent>of(model.stream(run.chatRequest()), (e, out) -> {
                    if (answered.compareAndSet(false, true)) {
                        metrics.firstToken(Duration.ofNanos(System.nanoTime() - sent));
                    }
                    if (e instanceof ModelEvent.Completed completed) {
                        run.completed(completed);
                        metrics.tokenUsage(settings.provider(), settings.model(), completed.usage());
                    }
                    run.translate(e, out);
                })
                .onTermination().invoke(run::chatEnded)
                .onCompletion().switchTo(() -> afterRound(run, inbox));
    }

    private Multi<AgUiEvent> afterRound(Run run, RunInbox inbox) {
        return switch (run.roundKind()) {
            case STATE_OUTPUT -> Multi.createBy().concatenating().streams(
                    Multi.createFrom().iterable(run.applyStructuredState()),
                    Multi.createFrom().deferred(() -> round(run, inbox)));
            case SUMMARY, TOOLS -> afterToolRound(run, inbox);
        };
    }

    private Multi<AgUiEvent> afterToolRound(Run run, RunInbox inbox) {
        OfferedTools.RoundCalls calls = run.finishRound();
        if (calls.none()) {
            return finish(run);
        }
        List<ServerToolCall> serverCalls = calls.serverCalls();
        Multi<AgUiEvent> tools = runTools(run, serverCalls, outcomes -> run.recordResults(serverCalls, outcomes));
        if (!calls.endRun()) {
            return Multi.createBy().concatenating().streams(tools, afterTools(run, inbox));
        }
        return Multi.createBy().concatenating().streams(tools,
                Multi.createFrom().deferred(() -> Multi.createFrom().iterable(run.askConfirmation(calls.toConfirm()))),
                finish(run));
    }

    /**
     * After a round of tools that asks nothing itself: the next round; or, when a sub-agent of the round asked the
     * user, the end of the run, which asks its questions (the sub-agent's call waits for them).
     */
    private Multi<AgUiEvent> afterTools(Run run, RunInbox inbox) {
        return Multi.createFrom().deferred(() -> run.waitsForSubagents() ? finish(run) : nextRound(run, inbox));
    }

    /**
     * The round boundary after a round of tools: the messages steered into the run since the last one join its
     * conversation after the tool results, the checkpoint keeps them with the round, and only then does every
     * stream of the run see them ({@code MESSAGES_SNAPSHOT}: a message shown was kept), before the next LLM call,
     * which reads them. A run that has no round left takes none: they would go unanswered.
     */
    private Multi<AgUiEvent> nextRound(Run run, RunInbox inbox) {
        return Multi.createFrom().deferred(() -> {
            List<AgUiEvent> steered = run.hasRoundLeft() ? run.steered(inbox.take()) : List.of();
            return run.checkpoint().onItem().transformToMulti(kept -> Multi.createBy().concatenating().streams(
                    Multi.createFrom().iterable(steered), round(run, inbox)));
        });
    }

    /** Keeps the run's outcome, then RUN_FINISHED; a failed commit becomes the run's RUN_ERROR. */
    private static Multi<AgUiEvent> finish(Run run) {
        return Multi.createFrom().deferred(() -> run.commit().onItem().transform(kept -> run.finished()).toMulti());
    }

    /**
     * Runs the calls concurrently (a tool that blocks does so on a worker thread; one that answers later holds no
     * thread). Emits the STATE_DELTAs of tools that write state and the activity events of tools that show
     * activities while they run, then what {@code record} makes of their outcomes (in call order); the round's
     * activity messages are kept after those results. Cancelling the stream (a stop) cancels the calls in flight.
     */
    private Multi<AgUiEvent> runTools(Run run, List<ServerToolCall> calls,
                                      Function<List<ToolOutcome>, List<AgUiEvent>> record) {
        return Multi.createFrom().emitter(emitter -> {
            ToolEffects.RoundEffects round = run.toolContext(emitter::emit);
            List<Uni<ToolOutcome>> invocations = calls.stream()
                    .map(call -> Uni.createFrom().deferred(() -> {
                        RunTrace.Tool span = run.trace().tool(call.id(), call.name(), call.arguments());
                        Uni<ToolOutcome> outcome = call.subagent() != null ? delegate(run, round, call, span)
                                : call.tool() == null ? Uni.createFrom().item(new ToolOutcome.Failure(call.notFound()))
                                : ToolInvoker.invoke(call.tool(), call.arguments(), run.toolInputs(call.tool()),
                                        run.callContext(round, call, span));
                        return outcome.onItem().invoke(result -> {
                            if (result == SUSPENDED) {
                                span.suspended();
                            } else {
                                span.ended(result);
                            }
                        }).onCancellation().invoke(span::cancelled);
                    }))
                    .toList();
            Cancellable running = (invocations.isEmpty()
                    ? Uni.createFrom().item(List.<ToolOutcome>of())
                    : Uni.join().all(invocations).andFailFast())
                    .onItem().transform(outcomes -> {
                        List<Message> activities = round.settle();
                        run.keepDelegations(round.delegations(calls)); // first: a sub-agent that asked gets no result
                        List<AgUiEvent> recorded = record.apply(outcomes);
                        run.keepActivities(activities);
                        return recorded;
                    })
                    .subscribe().with(events -> round.then(events, emitter::complete),
                            failure -> round.then(List.of(), () -> emitter.fail(failure)));
            emitter.onCancellation(() -> {
                round.abandon();
                running.cancel();
            });
        });
    }

    /**
     * A sub-agent's call: the sub-agent's own run for the task, with its own LLM rounds and tools, streamed within
     * the round's tools: {@code SUBAGENT_STARTED}, its events carrying its {@code subagentRunId} (its state and
     * message snapshots are its own: the client does not get them), then {@code SUBAGENT_FINISHED} with its answer,
     * which is the call's result. A failed run is {@code SUBAGENT_ERROR} and the call's failure, which the parent's
     * LLM reads; the parent run goes on. A run that asks the user is suspended ({@code SUBAGENT_FINISHED} with the
     * outcome {@code suspended}): the call waits, with no result, and a later run of the parent resumes it with the
     * answers ({@link ServerToolCall#resumes}), under the same {@code subagentRunId}. Its span ({@code
     * invoke_agent}) is a child of the call's. Cancelling it (a stop of the parent) cancels its LLM call and tools.
     */
    private Uni<ToolOutcome> delegate(Run parent, ToolEffects.RoundEffects round, ServerToolCall call,
                                      RunTrace.Tool span) {
        AgentDefinition agent = call.subagent();
        String task;
        try {
            task = AgUiJson.mapper().readTree(call.arguments()).path(OfferedTools.TASK).textValue();
        } catch (JsonProcessingException e) {
            task = null;
        }
        if (task == null || task.isBlank()) {
            return Uni.createFrom().item(new ToolOutcome.Failure(new ToolFailure(ToolFailure.Kind.INVALID_ARGUMENTS,
                    "the sub-agent " + agent.name() + " takes a non-empty string '" + OfferedTools.TASK + "'", null)));
        }
        ServerToolCall.SuspendedSubagent resumed = call.resumes();
        String subagentRunId = resumed != null ? resumed.subagentRunId() : UUID.randomUUID().toString();
        RunStart start = resumed != null ? parent.resumedDelegation(subagentRunId, task)
                : parent.delegation(subagentRunId, task);
        RunTrace trace = tracing.start(agent.name(), start.input(), settings.provider(), span.context());
        Run child = new Run(agent, start, settings, trace);
        parent.subagentStarted(child);
        // a client checks each run's stream on its own: a resumed sub-agent is started again in this one
        round.show(new AgUiEvent.SubagentStarted(subagentRunId, agent.name(),
                agent.description().isEmpty() ? null : agent.description(), null, call.id(), null));
        LOG.infof("threadId=%s runId=%s: sub-agent %s %s as %s", parent.threadId(), parent.runId(), agent.name(),
                resumed != null ? "resumed" : "started", subagentRunId);
        return Multi.createFrom().deferred(() -> resumed != null
                        ? carryOut(child, resumed.answers(), new RunInbox()) : round(child, new RunInbox()))
                .onItem().invoke(event -> {
                    if (!(event instanceof AgUiEvent.StateSnapshot || event instanceof AgUiEvent.StateDelta
                            || event instanceof AgUiEvent.MessagesSnapshot || event.endsRun())) {
                        round.show(event.attributedTo(subagentRunId));
                    }
                })
                .collect().last()
                .onItem().transform(last -> {
                    if (child.asked() && parent.isSubagent()) {
                        // a sub-agent's sub-agent: the call it waits in is not the thread's to resume
                        throw RunFailure.subagentAsked(agent.name());
                    }
                    ToolEffects.Delegation left = child.delegation(call.id());
                    parent.subagentEnded(child);
                    round.delegated(call.id(), left);
                    if (child.asked()) {
                        round.show(new AgUiEvent.SubagentFinished(subagentRunId, null, new AgUiEvent.SubagentFinished
                                .Suspended(left.asked().stream().map(Interrupt::id).toList())));
                        trace.ended("interrupt");
                        return SUSPENDED;
                    }
                    String answer = child.answer();
                    round.show(new AgUiEvent.SubagentFinished(subagentRunId, TextNode.valueOf(answer)));
                    trace.ended("success");
                    return (ToolOutcome) new ToolOutcome.Success(answer, TextNode.valueOf(answer));
                })
                .onFailure().invoke(error -> {
                    parent.subagentEnded(child);
                    round.delegated(call.id(), child.delegation(call.id()).failed()); // what it completed stays
                })
                .onFailure().recoverWithUni(error -> child.failed(error).onItem().transform(event -> {
                    AgUiEvent.RunError failed = (AgUiEvent.RunError) event;
                    round.show(new AgUiEvent.SubagentError(subagentRunId, failed.message(), failed.code()));
                    trace.ended("error");
                    return new ToolOutcome.Failure(new ToolFailure(ToolFailure.Kind.INVOCATION_FAILED,
                            "the sub-agent " + agent.name() + " failed: " + failed.message(), null));
                }))
                .onCancellation().invoke(() -> trace.ended("cancelled"));
    }
}
