package dev.aguistate.http;

import dev.aguistate.protocol.AgUiJson;
import dev.aguistate.session.Caller;
import dev.aguistate.store.StoreUnavailable;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Map;
import java.util.TreeSet;

/**
 * The JSON endpoints (the thread API, the agents listing) as routes under {@code agui.http.root}, answering as JAX-RS
 * resources do: {@code HEAD} with every {@code GET}, {@code OPTIONS} with the path's {@code Allow}, any other method a
 * 405 naming them, an {@code Accept} without JSON a 406, then the caller (401), then the answer; a store that cannot be
 * reached is a 503, any other failure {@link HttpErrors}' 500. Routes rather than resources because a resource's
 * {@code @Path} is fixed when the application is built, and these move with the configured root.
 */
@ApplicationScoped
public class JsonEndpoints {

    /** What a JSON endpoint answers. */
    public sealed interface Answer {

        /** 200 with the body, written by the AG-UI JSON rules. */
        record Ok(Object body) implements Answer {}

        /** 204. */
        record NoContent() implements Answer {}

        record Refused(ErrorBody error) implements Answer {}
    }

    /** One method of one path: the answer for a caller the request proves. */
    @FunctionalInterface
    public interface Endpoint {
        Uni<Answer> answer(RoutingContext ctx, Caller caller);
    }

    private final RequestGate gate;
    private final Vertx vertx;

    JsonEndpoints(RequestGate gate, Vertx vertx) {
        this.gate = gate;
        this.vertx = vertx;
    }

    /** Serves {@code path} (a Vert.x route path, {@code :name} for a parameter) with one endpoint per method. */
    public void serve(Router router, String path, Map<HttpMethod, Endpoint> endpoints) {
        TreeSet<String> allowed = new TreeSet<>();
        allowed.add(HttpMethod.OPTIONS.name());
        endpoints.forEach((method, endpoint) -> {
            var route = router.route(path).method(method);
            allowed.add(method.name());
            if (method.equals(HttpMethod.GET)) {
                route.method(HttpMethod.HEAD);
                allowed.add(HttpMethod.HEAD.name());
            }
            route.handler(ctx -> answer(ctx, endpoint));
        });
        String allow = String.join(", ", allowed);
        router.route(path).method(HttpMethod.OPTIONS).handler(ctx -> ctx.response().setStatusCode(200)
                .putHeader("Allow", allow).end());
        router.route(path).last().handler(HttpErrors.allowOnly(allowed.stream().map(HttpMethod::valueOf)
                .toArray(HttpMethod[]::new)));
    }

    private void answer(RoutingContext ctx, Endpoint endpoint) {
        if (!RequestGate.accepts(ctx.request().getHeader("Accept"), "application/json")) {
            RequestGate.reject(ctx, ErrorBody.ofStatus(406, "this endpoint answers with JSON; the Accept header must"
                    + " allow application/json"));
            return;
        }
        gate.authorized(ctx, caller -> {
            Context context = vertx.getOrCreateContext();
            endpoint.answer(ctx, caller).subscribe().with(
                    answer -> context.runOnContext(v -> send(ctx, answer)),
                    failure -> context.runOnContext(v -> {
                        if (failure instanceof StoreUnavailable) {
                            RequestGate.reject(ctx, ErrorBody.STORE_UNAVAILABLE);
                        } else {
                            ctx.fail(failure);
                        }
                    }));
        });
    }

    private static void send(RoutingContext ctx, Answer answer) {
        if (answer instanceof Answer.Ok ok) {
            ctx.response().setStatusCode(200).putHeader("Content-Type", ErrorBody.CONTENT_TYPE)
                    .end(AgUiJson.write(ok.body()));
        } else if (answer instanceof Answer.Refused refused) {
            RequestGate.reject(ctx, refused.error());
        } else {
            ctx.response().setStatusCode(204).end();
        }
    }
}
