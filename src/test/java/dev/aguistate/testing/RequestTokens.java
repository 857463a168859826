package dev.aguistate.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;

/**
 * What the model reads in a chat-completions request the stub received, in {@code o200k_base} tokens: message
 * contents, tool names and arguments. Counted apart from the server's own estimator, without its framing, so a
 * test that bounds it checks the server independently.
 */
public final class RequestTokens {

    private static final Encoding TOKENS = Encodings.newLazyEncodingRegistry().getEncoding(EncodingType.O200K_BASE);

    private RequestTokens() {}

    public static int of(JsonNode request) {
        int tokens = 0;
        for (JsonNode message : request.get("messages")) {
            tokens += TOKENS.countTokensOrdinary(message.path("content").asText(""));
            for (JsonNode call : message.path("tool_calls")) {
                tokens += TOKENS.countTokensOrdinary(call.at("/function/name").asText())
                        + TOKENS.countTokensOrdinary(call.at("/function/arguments").asText());
            }
        }
        return tokens;
    }
}
