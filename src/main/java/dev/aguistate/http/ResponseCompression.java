package dev.aguistate.http;

import io.quarkus.vertx.http.HttpServerOptionsCustomizer;
import io.vertx.core.http.HttpServerOptions;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Turns on Vert.x's response compression when {@code agui.http.compression} asks for it (Quarkus's own switch is
 * fixed at build time). Vert.x compresses a response only for a client whose {@code Accept-Encoding} names gzip or
 * deflate, and deflates each written chunk with a sync flush, so an event stream's frames still leave one by one.
 */
@ApplicationScoped
class ResponseCompression implements HttpServerOptionsCustomizer {

    private final HttpConfig config;

    ResponseCompression(HttpConfig config) {
        this.config = config;
    }

    @Override
    public void customizeHttpServer(HttpServerOptions options) {
        options.setCompressionSupported(config.compression());
    }

    @Override
    public void customizeHttpsServer(HttpServerOptions options) {
        customizeHttpServer(options);
    }
}
