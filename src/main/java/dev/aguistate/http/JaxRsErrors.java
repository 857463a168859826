package dev.aguistate.http;

import io.vertx.core.http.HttpServerRequest;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.enterprise.inject.spi.BeanManager;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.ClientErrorException;
import jakarta.ws.rs.NotAcceptableException;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * What JAX-RS itself refuses (a method the path does not take, an Accept it cannot meet, a Content-Type it cannot
 * read, a header it cannot convert) as a JSON {@link ErrorBody} instead of an empty body.
 *
 * <p>Not {@code NotFoundException}: with a mapper for it, JAX-RS would answer every path it does not serve itself,
 * and the run route, the sample UI and {@link HttpErrors}' JSON 404 behind it would never be reached. Failures that
 * are not refusals reach {@link HttpErrors} as 500s.
 */
public class JaxRsErrors {

    private final ResourceMethods resources;

    JaxRsErrors(BeanManager beans) {
        this.resources = ResourceMethods.of(beans.getBeans(Object.class, Any.Literal.INSTANCE).stream()
                .<Class<?>>map(Bean::getBeanClass)
                .filter(type -> type.isAnnotationPresent(Path.class))
                .toList());
    }

    @ServerExceptionMapper({NotAllowedException.class, NotAcceptableException.class, NotSupportedException.class,
            BadRequestException.class})
    public Response refused(ClientErrorException refusal, HttpServerRequest request) {
        int status = refusal.getResponse().getStatus();
        if (status == 406) {
            return ErrorBody.ofStatus(406, "this endpoint answers with JSON; the Accept header must allow"
                    + " application/json").toResponse();
        }
        if (status != 405) {
            return ErrorBody.ofStatus(status).toResponse();
        }
        String path = HttpErrors.path(request);
        String allow = resources.allowedOn(request.path()).orElse("OPTIONS");
        return Response.fromResponse(HttpErrors.methodNotAllowed(request.method().name(), path, allow).toResponse())
                .header(HttpHeaders.ALLOW, allow).build();
    }
}
