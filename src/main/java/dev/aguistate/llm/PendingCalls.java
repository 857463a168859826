package dev.aguistate.llm;

import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.openai.OpenAiChatRequestParameters;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The calls to the shared langchain4j model whose request has not been sent yet, each under a key that its request
 * carries to our HTTP client: a field of the request's JSON body, put there through the chat request's custom
 * parameters and taken out again before the request is sent, so the upstream never sees it. The HTTP client finds
 * the call a request belongs to by that key, whichever thread langchain4j sends the request from, and whenever.
 *
 * <p>langchain4j writes custom parameters after every other field, so the key is the body's last field; a request
 * without it there is refused rather than sent as some other call's.
 *
 * @param <C> what a call is to the HTTP client
 */
final class PendingCalls<C> {

    static final String FIELD = "agui_call_key";
    private static final String QUOTED_FIELD = '"' + FIELD + '"';
    /** From the field's name to the end of the body: the key, then nothing but the body's closing brace. */
    private static final Pattern KEY_LAST =
            Pattern.compile(Pattern.quote(QUOTED_FIELD) + "\\s*:\\s*\"(\\d+)\"(\\s*}\\s*)");

    private final Map<String, C> calls = new ConcurrentHashMap<>();
    private final AtomicLong lastKey = new AtomicLong();

    /** The request of a call, as the upstream is to get it: its head, and its body as UTF-8. */
    record Sent<C>(C call, HttpRequest request, byte[] body) {}

    /** Adds a call; its request must carry the returned key ({@link #carrying}). */
    String add(C call) {
        String key = Long.toString(lastKey.incrementAndGet());
        calls.put(key, call);
        return key;
    }

    /** Forgets a call that ended: one whose request was never sent must not be waited for. */
    void remove(String key) {
        calls.remove(key);
    }

    /** The chat request with the key among its custom parameters, which langchain4j writes into the body. */
    static ChatRequest carrying(ChatRequest request, String key) {
        Map<String, Object> custom = new HashMap<>();
        if (request.parameters() instanceof OpenAiChatRequestParameters openAi && openAi.customParameters() != null) {
            custom.putAll(openAi.customParameters());
        }
        custom.put(FIELD, key);
        return request.toBuilder().parameters(OpenAiChatRequestParameters.builder()
                .overrideWith(request.parameters())
                .customParameters(custom)
                .build()).build();
    }

    /**
     * Takes the call the request belongs to, and the request without its key.
     *
     * @throws IllegalStateException when the request carries no key as its last field, or the key of no pending call
     *         (one that ended before its request was sent)
     */
    Sent<C> take(HttpRequest request) {
        String body = request.body();
        int field = body == null ? -1 : body.lastIndexOf(QUOTED_FIELD);
        Matcher key = field < 0 ? null : KEY_LAST.matcher(body).region(field, body.length());
        int comma = field - 1;
        while (comma >= 0 && Character.isWhitespace(body.charAt(comma))) {
            comma--;
        }
        if (key == null || !key.matches() || comma < 0 || body.charAt(comma) != ',') {
            throw new IllegalStateException("an LLM request without its call's key as the last field of its body");
        }
        C call = calls.remove(key.group(1));
        if (call == null) {
            throw new IllegalStateException("an LLM request of a call that is no longer waiting for it");
        }
        // The body as it is sent, in one copy of its UTF-8: all from the comma on is ASCII (regex's \s is)
        byte[] utf8 = body.getBytes(StandardCharsets.UTF_8);
        int cut = utf8.length - (body.length() - comma);
        int end = key.end(2) - key.start(2);
        byte[] sent = Arrays.copyOf(utf8, cut + end);
        System.arraycopy(utf8, utf8.length - end, sent, cut, end);
        return new Sent<>(call, HttpRequest.builder()
                .method(request.method())
                .url(request.url())
                .headers(request.headers())
                .build(), sent);
    }
}
