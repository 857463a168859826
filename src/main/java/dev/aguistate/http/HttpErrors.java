package dev.aguistate.http;

import dev.aguistate.protocol.ControlCharacters;
import io.quarkus.runtime.Startup;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.vertx.http.runtime.RouteConstants;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Every error the HTTP layer answers by itself is a JSON {@link ErrorBody} like ours, never an HTML page or an empty
 * body: an unknown path (404), a method a path does not take (405, with {@code Allow}), a path that is not in its
 * normal form (400), a body over Quarkus's {@code quarkus.http.limits.max-body-size} (413), and
 * any failure a handler did not answer (500, logged with its stack trace, which the client never sees). Not ours to
 * answer, and answered with an empty body: what Vert.x refuses before it has a request (a header section over
 * {@code quarkus.http.limits.max-header-size}: 431; a request line over {@code max-initial-line-length}: 414; a line
 * that is no HTTP: 400), and a URI Quarkus's own check refuses before any router (a bad percent-escape: 400).
 */
@ApplicationScoped
@Startup
public class HttpErrors {

    private static final Logger LOG = Logger.getLogger(HttpErrors.class);
    private static final int PATH_IN_MESSAGE_MAX = 200;

    private final long maxBodyBytes;

    HttpErrors(@ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize maxBodySize) {
        this.maxBodyBytes = maxBodySize.asLongValue();
    }

    void register(@Observes Router router) {
        router.route().order(RouteConstants.ROUTE_ORDER_UPLOAD_LIMIT - 2).handler(HttpErrors::refuseUnnormalizedPath);
        // Ahead of Quarkus's own check, which answers the same limit with an empty 413.
        router.route().order(RouteConstants.ROUTE_ORDER_UPLOAD_LIMIT - 1).handler(this::refuseOversizedBody);
        router.route().failureHandler(HttpErrors::failed);
        // Vert.x Web's own refusals before any route (an HTTP/1.1 request without Host).
        router.errorHandler(400, ctx -> ErrorBody.ofStatus(400, "the request was refused: "
                + (ctx.failure() == null ? "bad request" : ControlCharacters.escape(ctx.failure().getMessage())))
                .send(ctx.response()));
        router.errorHandler(404, ctx -> ErrorBody.ofStatus(404, "there is no endpoint at " + path(ctx.request()))
                .send(ctx.response()));
        router.errorHandler(405, ctx -> ErrorBody.ofStatus(405, ctx.request().method().name() + " is not allowed on "
                + path(ctx.request())).send(ctx.response()));
    }

    /** A handler for the methods a path does not take: 405 naming the ones it does. */
    public static Handler<RoutingContext> allowOnly(HttpMethod... allowed) {
        String allow = Arrays.stream(allowed).map(HttpMethod::name).collect(Collectors.joining(", "));
        return ctx -> {
            ctx.response().putHeader("Allow", allow);
            methodNotAllowed(ctx.request().method().name(), path(ctx.request()), allow).send(ctx.response());
        };
    }

    static ErrorBody methodNotAllowed(String method, String path, String allow) {
        return ErrorBody.ofStatus(405, method + " is not allowed on " + path + "; allowed: " + allow);
    }

    /** True when a {@code Content-Length} header announces more than {@code limit} bytes. */
    static boolean announcesMoreThan(String contentLength, long limit) {
        return contentLength != null && !contentLength.isEmpty() && contentLength.chars().allMatch(Character::isDigit)
                && new BigInteger(contentLength).compareTo(BigInteger.valueOf(limit)) > 0;
    }

    /** The request's path for a message: control characters escaped, cut to a readable length. */
    static String path(HttpServerRequest request) {
        String path = ControlCharacters.escape(String.valueOf(request.path()));
        return path.length() <= PATH_IN_MESSAGE_MAX ? path : path.substring(0, PATH_IN_MESSAGE_MAX) + "…";
    }

    /**
     * A path that is not in its normal form (a dot-segment, {@code ..} or {@code %2e%2e}; an unreserved character
     * percent-encoded) is refused: Vert.x would serve it as the normal path, so one endpoint could be reached through
     * endless spellings, each a new metrics tag (120 of them filled the tag cap) and each past a proxy's path rules.
     * Browsers and HTTP clients send paths normalised.
     */
    private static void refuseUnnormalizedPath(RoutingContext ctx) {
        if (ctx.request().path() == null || ctx.request().path().equals(ctx.normalizedPath())) {
            ctx.next();
        } else {
            new ErrorBody(400, "invalid_path", "the request path has dot-segments or percent-encoded unreserved "
                    + "characters; send it normalised (RFC 3986)").send(ctx.response());
        }
    }


    private void refuseOversizedBody(RoutingContext ctx) {
        if (!announcesMoreThan(ctx.request().getHeader("Content-Length"), maxBodyBytes)) {
            ctx.next();
            return;
        }
        // The body is not read: close the connection after answering.
        ctx.response().putHeader("Connection", "close").endHandler(v -> ctx.request().connection().close());
        ErrorBody.ofStatus(413, "the request body is larger than " + maxBodyBytes
                + " bytes (quarkus.http.limits.max-body-size)").send(ctx.response());
    }

    private static void failed(RoutingContext ctx) {
        int status = ctx.statusCode() >= 400 ? ctx.statusCode() : 500;
        if (status >= 500) {
            LOG.errorf(ctx.failure(), "%s %s failed", ctx.request().method().name(), path(ctx.request()));
            ErrorBody.ofStatus(status, "the request failed because of an internal error").send(ctx.response());
        } else {
            ErrorBody.ofStatus(status).send(ctx.response());
        }
    }
}
