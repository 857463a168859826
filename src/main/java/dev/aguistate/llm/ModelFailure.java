package dev.aguistate.llm;

/**
 * Why a model stream failed, as a stable code and a message that is safe to show a client: never the
 * upstream's response body, headers, URL with credentials, or a stack trace.
 */
public final class ModelFailure extends RuntimeException {

    public enum Kind {
        AUTHENTICATION("llm_authentication_failed", "The language model rejected the server's credentials."),
        RATE_LIMITED("llm_rate_limited", "The language model is rate limiting requests; try again later."),
        UNAVAILABLE("llm_unavailable", "The language model service failed or is unavailable."),
        REQUEST_REJECTED("llm_request_rejected", "The language model rejected the request."),
        MODEL_NOT_FOUND("llm_model_not_found", "The configured language model does not exist."),
        UNREACHABLE("llm_unreachable", "The language model endpoint cannot be reached."),
        TIMEOUT("llm_timeout", "The language model did not respond in time."),
        IDLE_TIMEOUT("llm_idle_timeout", "The language model stopped sending data."),
        BAD_RESPONSE("llm_bad_response", "The language model sent a response that could not be understood."),
        CONNECTION_LOST("llm_connection_lost", "The connection to the language model was lost."),
        OUTPUT_TRUNCATED("llm_output_truncated",
                "The language model reached its output token limit while writing a tool call."),
        CONTENT_FILTERED("llm_content_filtered", "The language model's content filter stopped the answer."),
        ERROR("llm_error", "The language model call failed.");

        private final String code;
        private final String message;

        Kind(String code, String message) {
            this.code = code;
            this.message = message;
        }

        public String code() {
            return code;
        }

        public String message() {
            return message;
        }
    }

    private final Kind kind;

    public ModelFailure(Kind kind, Throwable cause) {
        super(kind.message(), cause);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
