package dev.aguistate.summary;

import dev.aguistate.protocol.Message;
import dev.aguistate.llm.StreamingModel;
import dev.aguistate.store.StoredThread;
import dev.aguistate.store.ThreadInfo;
import dev.aguistate.store.ThreadStore;
import dev.aguistate.store.ThreadsConfig;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.request.ChatRequest;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Names a thread after its first exchange, when {@code agui.threads.auto-name} is on: a short call to the model
 * proposes a title from the first user message and the answer to it. Like the {@link Summarizer}, it starts after
 * the run's commit and nobody waits for it, so it neither delays nor fails a run. The name is saved only while the
 * thread still has none (the owner's own name, set meanwhile, wins), and only after the first exchange: a name the
 * owner removed later is not proposed again.
 */
@ApplicationScoped
@Startup
public class ThreadNamer {

    private static final Logger LOG = Logger.getLogger(ThreadNamer.class);

    static final String INSTRUCTIONS = """
            Give the conversation below a short title of at most six words, in its language, that tells what the \
            user wants. Respond with the title only, without quotes.""";
    /** The longest title asked of the model, in output tokens. */
    private static final int MAX_TOKENS = 24;

    /** How an attempt ended. */
    public enum Outcome {
        /** Off, or not the thread's first exchange, or it has a name. */
        NOT_DUE,
        /** The thread is named. */
        NAMED,
        /** The thread got a name (or went) meanwhile: nothing was saved. */
        MOVED_ON,
        /** The model or the store failed, or the call timed out. */
        FAILED
    }

    private final ThreadStore store;
    private final StreamingModel model;
    private final ThreadsConfig config;
    private final SummaryConfig summaryConfig;

    ThreadNamer(ThreadStore store, StreamingModel model, ThreadsConfig config, SummaryConfig summaryConfig) {
        this.store = store;
        this.model = model;
        this.config = config;
        this.summaryConfig = summaryConfig;
    }

    /** A run committed {@code thread}; names it in the background if it is due. */
    public void committed(StoredThread thread) {
        if (config.autoName()) {
            name(thread).subscribe().with(outcome -> LOG.debugf("threadId=%s: naming %s", thread.threadId(), outcome));
        }
    }

    /**
     * One attempt, as {@link #committed} makes it when naming is on; never fails. A call longer than
     * {@code agui.run.summary.timeout} is given up.
     */
    public Uni<Outcome> name(StoredThread thread) {
        List<Message> exchange = firstExchange(thread.messages());
        if (thread.info().name() != null || exchange.isEmpty()) {
            return Uni.createFrom().item(Outcome.NOT_DUE);
        }
        ChatRequest.Builder request = ChatRequest.builder().maxOutputTokens(MAX_TOKENS).messages(List.of(
                SystemMessage.from(INSTRUCTIONS), UserMessage.from(SummaryPrompt.transcript(exchange))));
        summaryConfig.model().ifPresent(request::modelName);
        return SummaryText.read(model, request.build(), ThreadInfo.MAX_NAME, summaryConfig.timeout())
                .chain(text -> {
                    String title = text.toString().strip().replaceAll("^[\"'“”]+|[\"'“”.]+$", "").strip();
                    return title.isEmpty() ? Uni.createFrom().item(Outcome.FAILED)
                            : store.saveInfo(thread.key(), thread.info(), thread.info().named(title))
                                    .map(saved -> saved ? Outcome.NAMED : Outcome.MOVED_ON);
                })
                .onFailure().recoverWithItem(failure -> {
                    LOG.warnf("threadId=%s: naming the thread failed: %s", thread.threadId(), failure.toString());
                    return Outcome.FAILED;
                });
    }

    /**
     * The thread's first user message and the assistant's text answer to it, when the thread holds one user message
     * and such an answer; empty otherwise.
     */
    static List<Message> firstExchange(List<Message> messages) {
        List<Message> users = messages.stream().filter(m -> m instanceof Message.User).toList();
        if (users.size() != 1) {
            return List.of();
        }
        return messages.stream().skip(messages.indexOf(users.get(0)) + 1L)
                .filter(m -> m instanceof Message.Assistant a && a.content() != null && !a.content().isBlank())
                .findFirst().map(answer -> List.of(users.get(0), answer)).orElse(List.of());
    }
}
