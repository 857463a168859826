package dev.aguistate.http;

import io.vertx.ext.web.Router;
import jakarta.enterprise.event.Observes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * Test-only endpoints that fail as a bug would, in a JAX-RS resource and in a Vert.x route, so that a test can see
 * what a client gets from an exception nobody answered.
 */
@Path("/test-failures/resource")
public class FailingEndpoints {

    static final String ROUTE = "/test-failures/route";
    static final String SECRET = "internal detail that must not reach a client";

    @GET
    @Produces(MediaType.TEXT_PLAIN)
    public String resource() {
        throw new IllegalStateException(SECRET);
    }

    void register(@Observes Router router) {
        router.get(ROUTE).handler(ctx -> {
            throw new IllegalStateException(SECRET);
        });
    }
}
