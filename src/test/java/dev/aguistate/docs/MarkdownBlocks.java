package dev.aguistate.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The fenced code blocks of the README and of docs/*.md, each with the HTML comment that marks it for a test (the
 * line right before the fence, invisible when the page is rendered):
 * <ul>
 *   <li>{@code <!-- doc-test: run -->} before a shell block: {@link DocExamplesTest} runs it against the server;</li>
 *   <li>{@code <!-- doc-test: output -->} before a block: what the run block before it prints, {@code …} standing
 *       for any lines (a line of its own) or any characters (within a line);</li>
 *   <li>{@code <!-- doc-test: skip, reason -->}: a curl block that cannot run against the test server;</li>
 *   <li>{@code <!-- example: examples/java/….java -->} before a Java block: the block quotes that file
 *       ({@link DocSnippetsTest}).</li>
 * </ul>
 */
record MarkdownBlocks(Path file, List<Block> blocks) {

    /** A fenced block: its language (the word after the fence), its marker comment (or null) and its lines. */
    record Block(Path file, int line, String language, String marker, List<String> lines) {
        String text() {
            return String.join("\n", lines);
        }

        boolean marked(String prefix) {
            return marker != null && marker.startsWith(prefix);
        }

        String where() {
            return file + ":" + line;
        }
    }

    private static final Pattern FENCE = Pattern.compile("^\\s*```(\\w*)\\s*$");
    private static final Pattern MARKER = Pattern.compile("^\\s*<!--\\s*(.*?)\\s*-->\\s*$");

    /** The README and every docs/*.md, README first. */
    static List<MarkdownBlocks> ofTheDocs() {
        List<Path> files = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files.stream().map(MarkdownBlocks::read).toList();
    }

    static MarkdownBlocks read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Matcher open = FENCE.matcher(lines.get(i));
            if (!open.matches()) {
                continue;
            }
            Matcher marker = i > 0 ? MARKER.matcher(lines.get(i - 1)) : null;
            int start = i + 1;
            int end = start;
            while (end < lines.size() && !lines.get(end).strip().equals("```")) {
                end++;
            }
            blocks.add(new Block(file, i + 1, open.group(1), marker != null && marker.matches() ? marker.group(1) : null,
                    List.copyOf(lines.subList(start, Math.min(end, lines.size())))));
            i = end;
        }
        return new MarkdownBlocks(file, blocks);
    }
}
