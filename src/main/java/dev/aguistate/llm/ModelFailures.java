package dev.aguistate.llm;

import com.fasterxml.jackson.core.JacksonException;
import dev.langchain4j.exception.AuthenticationException;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.InternalServerException;
import dev.langchain4j.exception.InvalidRequestException;
import dev.langchain4j.exception.ModelNotFoundException;
import dev.langchain4j.exception.RateLimitException;
import dev.langchain4j.exception.TimeoutException;
import dev.langchain4j.exception.UnresolvedModelServerException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;

/** Classifies whatever langchain4j or the JDK HTTP client threw into a {@link ModelFailure}. */
final class ModelFailures {

    private ModelFailures() {}

    static ModelFailure classify(Throwable error) {
        if (error instanceof ModelFailure failure) {
            return failure;
        }
        return new ModelFailure(kindOf(error), error);
    }

    private static ModelFailure.Kind kindOf(Throwable error) {
        // The outermost recognisable type wins: langchain4j wraps the JDK's exceptions, and its mapped
        // exceptions (AuthenticationException, ...) wrap the HttpException that carries the status.
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
            if (t instanceof HttpException http) {
                return byStatus(http.statusCode());
            }
            if (t instanceof UnresolvedModelServerException || t instanceof UnresolvedAddressException
                    || t instanceof ConnectException || t instanceof HttpConnectTimeoutException) {
                return ModelFailure.Kind.UNREACHABLE;
            }
            if (t instanceof TimeoutException || t instanceof HttpTimeoutException) {
                return ModelFailure.Kind.TIMEOUT;
            }
            if (t instanceof JacksonException) {
                return ModelFailure.Kind.BAD_RESPONSE;
            }
            if (t instanceof IOException) {
                return ModelFailure.Kind.CONNECTION_LOST;
            }
        }
        return ModelFailure.Kind.ERROR;
    }

    private static ModelFailure.Kind byStatus(int status) {
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
}
