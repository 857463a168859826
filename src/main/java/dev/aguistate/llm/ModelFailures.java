package dev.aguistate.llm;

import com.fasterxml.jackson.core.JacksonException;
import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.InternalServerException;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.ModelNotFoundException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.exception.TimeoutException;

/**
 * Classifies what a model call failed with into a {@link ModelFailure}: our transport's own failures already are
 * one ({@link SseExchange}); HTTP error statuses come as langchain4j's mapped exceptions; a chunk that is not JSON
 * as Jackson's.
 */
final class ModelFailures {

    private ModelFailures() {}

    static ModelFailure classify(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ModelFailure failure) {
                return failure;
            }
        }
        return new ModelFailure(kindOf(error), error);
    }

    /** What an HTTP error status means for the run, also when an upstream reports one inside a 200 stream. */
    static ModelFailure.Kind byStatus(int status) {
        if (status == 401 || status == 403) {
            return ModelFailure.Kind.AUTHENTICATION;
        }
        if (status == 404) {
            return ModelFailure.Kind.MODEL_NOT_FOUND;
        }
        if (status == 408) {
            return ModelFailure.Kind.TIMEOUT;
        }
        if (status == 429) {
            return ModelFailure.Kind.RATE_LIMITED;
        }
        if (status >= 500) {
            return ModelFailure.Kind.UNAVAILABLE;
        }
        return ModelFailure.Kind.REQUEST_REJECTED;
    }

    private static ModelFailure.Kind kindOf(Throwable error) {
        // The outermost recognisable type wins: langchain4j's mapped exceptions (AuthenticationException, ...)
        // wrap the HttpException that carries the status.
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof AuthenticationException) {
                return ModelFailure.Kind.AUTHENTICATION;
            }
            if (t instanceof RateLimitException) {
                return ModelFailure.Kind.RATE_LIMITED;
            }
            if (t instanceof InternalServerException) {
                return ModelFailure.Kind.UNAVAILABLE;
            }
            if (t instanceof ModelNotFoundException) {
                return ModelFailure.Kind.MODEL_NOT_FOUND;
            }
            if (t instanceof InvalidRequestException) {
                return ModelFailure.Kind.REQUEST_REJECTED;
            }
            if (t instanceof TimeoutException) {
                return ModelFailure.Kind.TIMEOUT;
            }
            if (t instanceof HttpException http) {
                return byStatus(http.statusCode());
            }
            if (t instanceof JacksonException) {
                return ModelFailure.Kind.BAD_RESPONSE;
            }
        }
        return ModelFailure.Kind.ERROR;
    }
}
