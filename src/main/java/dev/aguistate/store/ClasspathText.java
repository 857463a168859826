package dev.aguistate.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The stores' scripts and migrations, read once at start-up. */
public final class ClasspathText {

    private ClasspathText() {}

    public static String read(String resource) {
        try (InputStream in = ClasspathText.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing class path resource " + resource);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
