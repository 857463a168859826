package dev.aguistate.tools.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.tools.BackendTool;
import dev.aguistate.tools.ResultLimit;
import dev.aguistate.tools.ToolContext;
import dev.aguistate.tools.ToolFailure;
import dev.aguistate.tools.ToolSource;
import dev.aguistate.tools.ToolSourceRuntime;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.smallrye.mutiny.Uni;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;

/**
 * An agent's {@link HttpTool}s as a tool source: their list is what was declared; a call is one request over Vert.x's
 * non-blocking client, cancelled when the run stops or the tool's timeout passes.
 */
public final class HttpTools implements ToolSource {

    private final List<HttpTool> declared;
    private final List<BackendTool> tools;
    private volatile HttpClient http;
    private volatile ResultLimit limit;

    public HttpTools(List<HttpTool> declared) {
        this.declared = List.copyOf(declared);
        this.tools = this.declared.stream().map(tool -> new BackendTool(tool.name(), tool.description(),
                tool.parameters(), (arguments, context) -> call(tool, (ObjectNode) arguments, context),
                Map.of(), Map.of())).toList();
    }

    @Override
    public String id() {
        return "http";
    }

    @Override
    public List<BackendTool> tools() {
        return tools;
    }

    @Override
    public Set<String> confirmedTools() {
        return Set.of(); // named in the agent's confirmation, like its other tools
    }

    @Override
    public void start(ToolSourceRuntime runtime) {
        limit = runtime.resultLimit();
        http = runtime.vertx().createHttpClient(new HttpClientOptions().setName("agui-http-tools").setKeepAlive(true));
    }

    @Override
    public void close() {
        if (http != null) {
            http.close();
        }
    }

    @Override
    public Optional<String> problem() {
        return Optional.empty(); // each call reaches its own endpoint: one that is down fails only its calls
    }

    private Uni<Object> call(HttpTool tool, ObjectNode arguments, ToolContext context) throws ToolFailure {
        ObjectNode rest = arguments.deepCopy();
        String url = fill(tool, rest);
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.valueOf(tool.method()));
        if (tool.sendsBody()) {
            options.setAbsoluteURI(url).putHeader("Content-Type", "application/json");
        } else {
            options.setAbsoluteURI(withQuery(url, rest));
        }
        tool.headers().forEach(options::putHeader);
        tool.forwarding().authorization(context.caller(), tool.name())
                .ifPresent(authorization -> options.putHeader("Authorization", authorization));
        W3CTraceContextPropagator.getInstance().inject(context.trace(), options, RequestOptions::putHeader);
        Buffer body = tool.sendsBody() ? Buffer.buffer(rest.toString()) : Buffer.buffer();
        int maxBytes = limit.maxChars() * 4 + 4;
        AtomicReference<HttpClientRequest> sent = new AtomicReference<>();
        return Uni.createFrom().<Object>emitter(emitter -> http.request(options).onComplete(obtained -> {
                    if (obtained.failed()) {
                        emitter.fail(failure(tool, "cannot be reached: " + obtained.cause().getMessage()));
                        return;
                    }
                    sent.set(obtained.result());
                    obtained.result().send(body).onComplete(answered -> {
                        if (answered.failed()) {
                            emitter.fail(failure(tool, "failed: " + answered.cause().getMessage()));
                            return;
                        }
                        int status = answered.result().statusCode();
                        Buffer read = Buffer.buffer();
                        answered.result().handler(chunk -> {
                            if (read.length() < maxBytes) {
                                read.appendBuffer(chunk, 0, Math.min(chunk.length(), maxBytes - read.length()));
                            }
                        });
                        answered.result().exceptionHandler(broken ->
                                emitter.fail(failure(tool, "failed: " + broken.getMessage())));
                        answered.result().endHandler(end -> {
                            String text = limit.cut(read.toString(StandardCharsets.UTF_8));
                            if (status / 100 == 2) {
                                emitter.complete(text);
                            } else {
                                emitter.fail(failure(tool, "answered HTTP " + status + (text.isBlank() ? ""
                                        : ": " + text)));
                            }
                        });
                    });
                }))
                .ifNoItem().after(tool.timeout()).failWith(() -> failure(tool, "did not answer within "
                        + tool.timeout().toMillis() + " ms"))
                .onCancellation().invoke(() -> {
                    HttpClientRequest request = sent.get();
                    if (request != null) {
                        request.reset();
                    }
                })
                .onFailure().invoke(failure -> {
                    HttpClientRequest request = sent.get();
                    if (request != null) {
                        request.reset();
                    }
                });
    }

    /** The URL with its placeholders filled (and those arguments taken out of {@code rest}). */
    private static String fill(HttpTool tool, ObjectNode rest) throws ToolFailure {
        Matcher matcher = HttpTool.PLACEHOLDER.matcher(tool.url());
        StringBuilder url = new StringBuilder();
        while (matcher.find()) {
            JsonNode value = rest.remove(matcher.group(1));
            if (value == null || value.isNull()) {
                throw new ToolFailure(ToolFailure.Kind.INVALID_ARGUMENTS, "tool " + tool.name()
                        + " needs the argument '" + matcher.group(1) + "'", null);
            }
            String text = value.isValueNode() ? value.asText() : value.toString();
            matcher.appendReplacement(url, URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20")
                    .replace("$", "\\$"));
        }
        matcher.appendTail(url);
        return url.toString();
    }

    private static String withQuery(String url, ObjectNode rest) {
        if (rest.isEmpty()) {
            return url;
        }
        StringBuilder query = new StringBuilder(url).append(url.contains("?") ? '&' : '?');
        Iterator<Map.Entry<String, JsonNode>> fields = rest.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            JsonNode value = field.getValue();
            query.append(URLEncoder.encode(field.getKey(), StandardCharsets.UTF_8)).append('=')
                    .append(URLEncoder.encode(value.isValueNode() ? value.asText() : value.toString(),
                            StandardCharsets.UTF_8));
            if (fields.hasNext()) {
                query.append('&');
            }
        }
        return query.toString();
    }

    private static ToolFailure failure(HttpTool tool, String what) {
        return new ToolFailure(ToolFailure.Kind.INVOCATION_FAILED, "tool " + tool.name() + " " + what, null);
    }
}
