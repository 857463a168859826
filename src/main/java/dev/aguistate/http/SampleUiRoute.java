package dev.aguistate.http;

import io.quarkus.runtime.LaunchMode;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.FileSystemAccess;
import io.vertx.ext.web.handler.StaticHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Serves the built sample UI ({@code frontend-sample/dist}) at {@code agui.http.root} ({@code /} by default) when
 * {@code agui.sample-ui.dir} names it, so the page calls the run endpoint on its own origin (no CORS), by paths
 * relative to itself. Dev mode names it by default; unset (production),
 * nothing is served.
 *
 * <p>Files are read per request, so the directory may be (re)built while the server runs; a path with no file
 * falls through to the other routes ({@code /agui}, {@code /threads}, {@code /q/...}). Until it is built, {@code /}
 * answers a short page saying how to build it, rather than falling through to Quarkus's dev welcome page, which
 * knows nothing of this server.
 */
@ApplicationScoped
public class SampleUiRoute {

    private static final Logger LOG = Logger.getLogger(SampleUiRoute.class);

    private final Optional<Path> dir;
    private final BasePath root;

    SampleUiRoute(@ConfigProperty(name = "agui.sample-ui.dir") Optional<Path> dir, HttpConfig config) {
        this.dir = dir;
        this.root = BasePath.root(config);
    }

    void register(@Observes Router router) {
        if (dir.isEmpty()) {
            return;
        }
        Path files = dir.get().toAbsolutePath().normalize();
        // No caching headers at all (no Last-Modified, no max-age): a rebuilt index.html reaches the browser at once.
        // Under the root, where the page's relative paths (agui/..., threads/..., copilotkit) reach the server's.
        if (!root.isServerRoot()) {
            router.route(root.prefix()).method(HttpMethod.GET).method(HttpMethod.HEAD).handler(context -> {
                if (context.request().path().equals(root.prefix())) {
                    context.redirect(root.path("/"));
                } else {
                    context.next();
                }
            });
        }
        router.route(root.path("/*")).method(HttpMethod.GET).method(HttpMethod.HEAD)
                .handler(StaticHandler.create(FileSystemAccess.ROOT, files.toString())
                        .setIndexPage("index.html")
                        .setCachingEnabled(false)
                        .setIncludeHidden(false)
                        .setDirectoryListing(false));
        String notBuilt = notBuiltPage(files, LaunchMode.current() == LaunchMode.DEVELOPMENT);
        router.route(root.path("/")).method(HttpMethod.GET).method(HttpMethod.HEAD)
                .handler(context -> context.response()
                        .putHeader("Content-Type", "text/html; charset=utf-8")
                        .putHeader("Cache-Control", "no-cache")
                        .end(notBuilt));
        if (Files.isRegularFile(files.resolve("index.html"))) {
            LOG.infof("Serving the sample UI from %s at %s", files, root.path("/"));
        } else {
            LOG.infof("The sample UI is not built in %s (yet): %s says how to build it", files, root.path("/"));
        }
    }

    /** What {@code /} answers while the directory has no index.html. */
    static String notBuiltPage(Path root, boolean devMode) {
        String devLinks = devMode
                ? """
                  <li><a href="/q/dev-ui">/q/dev-ui</a>: Quarkus's Dev UI (configuration, endpoints, logs)</li>
                  <li><a href="/q/swagger-ui">/q/swagger-ui</a>: the JSON endpoints, to try</li>
                """
                : "";
        return """
                <!doctype html>
                <html lang="en">
                <head><meta charset="utf-8"><title>agui-state-server</title>
                <style>body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;line-height:1.5}
                code,pre{background:#f3f4f6;border-radius:4px;padding:.1rem .3rem}pre{padding:.6rem}</style></head>
                <body>
                <h1>agui-state-server is running</h1>
                <p>The sample UI is served here once it is built, and it is not built yet (no <code>index.html</code> in
                <code>%s</code>). Build it in another terminal (Node 20.19+ or 22.12+), then reload this page:</p>
                <pre>npm --prefix frontend-sample install
                npm --prefix frontend-sample run build</pre>
                <p>Or stop this server and start both together: <code>npm --prefix frontend-sample start</code>.</p>
                <ul>
                  <li><a href="agui/agents">agui/agents</a>: the agents and the model that answers</li>
                %s</ul>
                <p>The guides are <code>README.md</code> and <code>docs/README.md</code> in the repository.</p>
                </body>
                </html>
                """.formatted(escapeHtml(root.toString()), devLinks);
    }

    private static String escapeHtml(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
