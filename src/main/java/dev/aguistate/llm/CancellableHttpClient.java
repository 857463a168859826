package dev.aguistate.llm;

import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpClientBuilder;
import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.http.client.sse.ServerSentEventParser;
import java.time.Duration;

/**
 * A langchain4j HTTP client for exactly one call: it delegates to the shared client and ties the streamed
 * response body to an {@link UpstreamCall}, so the run can abort the exchange at any moment.
 */
final class CancellableHttpClient implements HttpClient {

    private final HttpClient shared;
    private final UpstreamCall call;

    CancellableHttpClient(HttpClient shared, UpstreamCall call) {
        this.shared = shared;
        this.call = call;
    }

    @Override
    public SuccessfulHttpResponse execute(HttpRequest request) {
        return shared.execute(request);
    }

    @Override
    public void execute(HttpRequest request, ServerSentEventParser parser, ServerSentEventListener listener) {
        shared.execute(request, (body, sseListener) -> {
            if (call.attach(body)) {
                parser.parse(body, sseListener);
            }
        }, listener);
    }

    /** Hands langchain4j this client; timeouts are those of the shared client. */
    static HttpClientBuilder builderFor(HttpClient shared, UpstreamCall call) {
        return new HttpClientBuilder() {
            @Override
            public Duration connectTimeout() {
                return null;
            }

            @Override
            public HttpClientBuilder connectTimeout(Duration timeout) {
                return this;
            }

            @Override
            public Duration readTimeout() {
                return null;
            }

            @Override
            public HttpClientBuilder readTimeout(Duration timeout) {
                return this;
            }

            @Override
            public HttpClient build() {
                return new CancellableHttpClient(shared, call);
            }
        };
    }
}
