package dev.aguistate.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

import dev.aguistate.testing.ScriptedDemoProfile;
import dev.aguistate.testing.SideBySide;
import dev.aguistate.testing.SseClient;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs the curl examples of the README and docs/ as written, against this server (the scripted demo model, as a
 * newcomer's {@code ./mvnw quarkus:dev} answers, with {@code examples/agents.yaml} loaded), and compares what they
 * print with the output the page shows. Blocks are marked with HTML comments ({@link MarkdownBlocks}); a file's
 * blocks run in order, since later ones continue the threads earlier ones started.
 *
 * <p>Both sides are compared with random ids (UUIDs, tool call ids, the runs cursors name) and times replaced by
 * placeholders, and without blank lines; in the shown output, {@code …} stands for any lines (a line of its own) or
 * any characters (within a line), so a page may shorten what it shows.
 */
@QuarkusTest
@TestProfile(ScriptedDemoProfile.class)
class DocExamplesTest {

    private static final Pattern UUID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    private static final Pattern CALL_ID = Pattern.compile("\\b(call|confirm)_[0-9a-f]{16,}");
    private static final Pattern TIME = Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?Z");
    /** A frame's cursor names its run by a number the store counts: any run's is shown as {@code <run>}. */
    private static final Pattern CURSOR = Pattern.compile("(?m)^id: [0-9a-z]+\\.");
    private static final String ANY = "…";

    @Test
    void everyCurlBlockIsMarked() {
        List<String> unmarked = MarkdownBlocks.ofTheDocs().stream()
                .flatMap(doc -> doc.blocks().stream())
                .filter(block -> block.text().contains("curl ") && !block.marked("doc-test:"))
                .map(block -> block.where() + ": a curl block without <!-- doc-test: run --> (or skip, with why)")
                .toList();
        assertEquals(List.of(), unmarked);
    }

    /**
     * The pages run two at a time, each its blocks in order, the page with the most blocks first: a page's threads
     * are its own (no two pages name the same thread, and the one listing of threads is narrowed to its page's), and
     * a page waits mostly for the paced demo model, so together they take about as long as the longest page or the
     * others' sum rather than the sum of all. Not all at once: a page that joins a run a second after starting it in
     * the background needs the run to have started by then, which a burst of processes on a loaded machine delays.
     */
    @TestFactory
    Stream<DynamicTest> theExamplesPrintWhatTheDocsShow() {
        List<MarkdownBlocks> pages = MarkdownBlocks.ofTheDocs().stream()
                .filter(doc -> doc.blocks().stream().anyMatch(b -> b.marked("doc-test: run")))
                .toList();
        List<MarkdownBlocks> longestFirst = pages.stream()
                .sorted(Comparator.comparingLong(DocExamplesTest::runBlocks).reversed()).toList();
        List<CompletableFuture<Void>> runs = SideBySide.start(2, longestFirst.stream()
                .<SideBySide.Work<Void>>map(doc -> () -> {
                    runAll(doc);
                    return null;
                })
                .toList());
        return pages.stream().map(doc -> DynamicTest.dynamicTest(doc.file().toString(),
                () -> SideBySide.await(runs.get(longestFirst.indexOf(doc)))));
    }

    private static long runBlocks(MarkdownBlocks doc) {
        return doc.blocks().stream().filter(b -> b.marked("doc-test: run")).count();
    }

    private static void runAll(MarkdownBlocks doc) throws Exception {
        List<MarkdownBlocks.Block> blocks = doc.blocks();
        for (int i = 0; i < blocks.size(); i++) {
            MarkdownBlocks.Block block = blocks.get(i);
            if (!block.marked("doc-test: run")) {
                continue;
            }
            String printed = run(block);
            MarkdownBlocks.Block shown = nextOutput(blocks, i);
            if (shown != null) {
                List<String> expected = normalized(shown.text());
                List<String> actual = normalized(printed);
                if (!matches(expected, actual)) {
                    fail(block.where() + " printed what " + shown.where() + " does not show; it printed (normalized):\n"
                            + String.join("\n", actual));
                }
            } else {
                assertFalse(printed.contains("\"type\":\"RUN_ERROR\"") || printed.matches("(?s).*\"status\":[45]\\d\\d.*"),
                        block.where() + " failed:\n" + printed);
            }
        }
    }

    /** The output block that follows a run block, before the next run block (prose may stand between them). */
    private static MarkdownBlocks.Block nextOutput(List<MarkdownBlocks.Block> blocks, int run) {
        for (int j = run + 1; j < blocks.size() && !blocks.get(j).marked("doc-test: run"); j++) {
            if (blocks.get(j).marked("doc-test: output")) {
                return blocks.get(j);
            }
        }
        return null;
    }

    /**
     * Runs the block with bash, as a reader pastes it into a terminal, against the test server instead of
     * localhost:8080. Its output is read from a pipe, where a terminal would be: an example may
     * {@code tee /dev/stderr}, which on a file would reopen it at offset 0 and overwrite what was printed before. And
     * as at a terminal, curl draws no progress meter ({@code .curlrc}: curl draws one only when its output is not one).
     */
    private static String run(MarkdownBlocks.Block block) throws Exception {
        String script = block.text().replace("localhost:8080", "localhost:" + SseClient.testPort());
        Path curlHome = Files.createTempDirectory("doc-examples-curl");
        try {
            Files.writeString(curlHome.resolve(".curlrc"), "no-progress-meter\n");
            ProcessBuilder builder = new ProcessBuilder("bash", "-c", script)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectErrorStream(true);
            builder.environment().put("CURL_HOME", curlHome.toString());
            Process bash = builder.start();
            CompletableFuture<byte[]> output = CompletableFuture.supplyAsync(() -> {
                try (InputStream in = bash.getInputStream()) {
                    return in.readAllBytes();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            if (!bash.waitFor(60, TimeUnit.SECONDS)) {
                bash.destroyForcibly().waitFor();
                fail(block.where() + " did not finish in 60 s");
            }
            String printed = new String(output.get(10, TimeUnit.SECONDS), StandardCharsets.UTF_8);
            assertEquals(0, bash.exitValue(), block.where() + " exited with " + bash.exitValue() + ":\n" + printed);
            return printed;
        } finally {
            Files.deleteIfExists(curlHome.resolve(".curlrc"));
            Files.delete(curlHome);
        }
    }

    static List<String> normalized(String text) {
        String replaced = TIME.matcher(CALL_ID.matcher(UUID.matcher(CURSOR.matcher(text).replaceAll("id: <run>."))
                .replaceAll("<uuid>")).replaceAll("$1_<id>")).replaceAll("<time>");
        List<String> lines = new ArrayList<>();
        for (String line : replaced.split("\n")) {
            if (!line.isBlank()) {
                lines.add(line.stripTrailing());
            }
        }
        return lines;
    }

    /** Whether the shown lines match the printed ones. */
    static boolean matches(List<String> expected, List<String> actual) {
        return matches(expected, 0, actual, 0, new HashSet<>());
    }

    /** From shown line {@code e} and printed line {@code a} on; {@code failed} remembers the pairs that do not match. */
    private static boolean matches(List<String> expected, int e, List<String> actual, int a, Set<Long> failed) {
        if (e == expected.size()) {
            return a == actual.size();
        }
        if (failed.contains((long) e << 32 | a)) {
            return false;
        }
        boolean match;
        if (expected.get(e).strip().equals(ANY)) {
            match = false;
            for (int skip = a; skip <= actual.size() && !match; skip++) {
                match = matches(expected, e + 1, actual, skip, failed);
            }
        } else {
            match = a < actual.size() && lineMatches(expected.get(e), actual.get(a))
                    && matches(expected, e + 1, actual, a + 1, failed);
        }
        if (!match) {
            failed.add((long) e << 32 | a);
        }
        return match;
    }

    private static boolean lineMatches(String expected, String actual) {
        String regex = Arrays.stream(expected.split(ANY, -1)).map(Pattern::quote)
                .reduce((left, right) -> left + ".*" + right).orElse("");
        return actual.matches(regex);
    }
}
