package dev.aguistate.http;

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
 * Serves the built sample UI ({@code frontend-sample/dist}) at {@code /} when {@code agui.sample-ui.dir} names it,
 * so the page calls the run endpoint on its own origin (no CORS). Unset, nothing is served.
 *
 * <p>Files are read per request, so the directory may be (re)built while the server runs; a path with no file
 * falls through to the other routes ({@code /agui}, {@code /threads}, {@code /q/...}).
 */
@ApplicationScoped
public class SampleUiRoute {

    private static final Logger LOG = Logger.getLogger(SampleUiRoute.class);

    private final Optional<Path> dir;

    SampleUiRoute(@ConfigProperty(name = "agui.sample-ui.dir") Optional<Path> dir) {
        this.dir = dir;
    }

    void register(@Observes Router router) {
        if (dir.isEmpty()) {
            return;
        }
        Path root = dir.get().toAbsolutePath().normalize();
        if (!Files.isRegularFile(root.resolve("index.html"))) {
            LOG.warnf("agui.sample-ui.dir=%s has no index.html (yet); build it with: npm --prefix frontend-sample run build",
                    root);
        }
        // No caching headers at all (no Last-Modified, no max-age): a rebuilt index.html reaches the browser at once.
        router.route().method(HttpMethod.GET).method(HttpMethod.HEAD)
                .handler(StaticHandler.create(FileSystemAccess.ROOT, root.toString())
                        .setIndexPage("index.html")
                        .setCachingEnabled(false)
                        .setIncludeHidden(false)
                        .setDirectoryListing(false));
        LOG.infof("Serving the sample UI from %s at /", root);
    }
}
