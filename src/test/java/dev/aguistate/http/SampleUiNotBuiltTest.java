package dev.aguistate.http;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;

import dev.aguistate.testing.DefaultsProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code agui.sample-ui.dir} names a directory that is not built yet (dev mode names frontend-sample/dist, which a
 * fresh clone lacks): {@code /} says how to build it instead of falling through, and serves the UI once it is built.
 */
@QuarkusTest
@TestProfile(DefaultsProfile.class)
class SampleUiNotBuiltTest {

    private static final Path DIR = DefaultsProfile.SAMPLE_UI;

    @Test
    void theRootSaysHowToBuildTheUiUntilItIsBuiltThenServesIt() throws IOException {
        Files.deleteIfExists(DIR.resolve("index.html")); // as frontend-sample/dist is before the first build
        given().get("/").then().statusCode(200)
                .contentType(containsString("text/html"))
                .body(containsString("npm --prefix frontend-sample run build"),
                        containsString("npm --prefix frontend-sample start"),
                        containsString("href=\"agui/agents\""),
                        containsString(DIR.toString()),
                        not(containsString("/q/dev-ui")));

        Files.writeString(DIR.resolve("index.html"), "<!doctype html><title>built sample ui</title>");
        given().get("/").then().statusCode(200).body(containsString("built sample ui"));
    }
}
