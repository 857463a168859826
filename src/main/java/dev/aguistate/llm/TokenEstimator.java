package dev.aguistate.llm;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingRegistry;
import com.knuddels.jtokkit.api.EncodingType;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import java.util.List;

/**
 * Counts the tokens a chat request costs, with the model's own tokenizer where jtokkit knows it ({@code o200k_base}
 * for the GPT-4o, 4.1, 5 and o-series families, {@code cl100k_base} for GPT-4 and 3.5) and {@code o200k_base}
 * otherwise: other vendors' tokenizers differ, which {@link TokenCalibration} corrects from what the upstream
 * reports. Like OpenAI's own accounting, each message costs a few tokens of framing besides its content; media
 * parts cost a flat amount (an image at high detail is 765 tokens or less). Thread-safe.
 *
 * <p>Loading a tokenizer's vocabulary takes a second or two: {@link #forModel} does it at once, and the server makes
 * its estimator at start-up (llm.wiring.ModelProducer), never on an event loop.
 */
public final class TokenEstimator {

    private static final EncodingRegistry REGISTRY = Encodings.newLazyEncodingRegistry();
    /** Role and delimiters of one message, as OpenAI counts them. */
    static final int PER_MESSAGE = 4;
    /** The reply's priming, once per request. */
    static final int PER_REQUEST = 3;
    /** An image, audio clip or PDF part: what a 1024×1024 image costs at high detail. */
    static final int PER_MEDIA_PART = 765;

    private final Encoding encoding;

    private TokenEstimator(Encoding encoding) {
        this.encoding = encoding;
        encoding.countTokensOrdinary("loads the vocabulary now"); // the registry builds an encoding when first used
    }

    /** The estimator for {@code model} (an OpenAI model name, or any other name: then {@code o200k_base}). */
    public static TokenEstimator forModel(String model) {
        return new TokenEstimator(REGISTRY.getEncodingForModel(model)
                .orElseGet(() -> REGISTRY.getEncoding(EncodingType.O200K_BASE)));
    }

    public int text(String text) {
        return text == null || text.isEmpty() ? 0 : encoding.countTokensOrdinary(text);
    }

    /** The messages as one request's conversation, with the request's own framing. */
    public int messages(List<ChatMessage> messages) {
        int tokens = PER_REQUEST;
        for (ChatMessage message : messages) {
            tokens += message(message);
        }
        return tokens;
    }

    public int message(ChatMessage message) {
        int content;
        if (message instanceof SystemMessage system) {
            content = text(system.text());
        } else if (message instanceof UserMessage user) {
            content = user.contents().stream().mapToInt(this::content).sum();
        } else if (message instanceof AiMessage ai) {
            content = text(ai.text()) + (ai.hasToolExecutionRequests()
                    ? ai.toolExecutionRequests().stream().mapToInt(this::toolCall).sum() : 0);
        } else if (message instanceof ToolExecutionResultMessage result) {
            content = text(result.id()) + text(result.text());
        } else {
            content = text(message.toString());
        }
        return PER_MESSAGE + content;
    }

    private int content(Content content) {
        return content instanceof TextContent text ? text(text.text()) : PER_MEDIA_PART;
    }

    private int toolCall(ToolExecutionRequest call) {
        return PER_MESSAGE + text(call.id()) + text(call.name()) + text(call.arguments());
    }
}
