package com.example.orders;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** The application's own endpoint, there before the AG-UI server was added, and its own configuration. */
@Path("/hello")
public class HelloResource {

    @ConfigProperty(name = "orders.greeting")
    String greeting;

    @GET
    public String hello() {
        return greeting;
    }
}
