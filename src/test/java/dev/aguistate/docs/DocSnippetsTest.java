package dev.aguistate.docs;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Every Java block of the README and docs/ quotes a file under examples/java, which the build compiles
 * (the {@code compile-examples} execution in pom.xml), or under examples/embedded-app, which .ci/run builds and tests
 * as an application of its own: so the Java a reader copies compiles as shown.
 */
@Execution(ExecutionMode.CONCURRENT)
class DocSnippetsTest {

    @Test
    void everyJavaBlockQuotesACompiledExample() throws IOException {
        List<String> problems = new ArrayList<>();
        int quoted = 0;
        for (MarkdownBlocks doc : MarkdownBlocks.ofTheDocs()) {
            for (MarkdownBlocks.Block block : doc.blocks()) {
                if (!block.language().equals("java")) {
                    continue;
                }
                if (!block.marked("example:")) {
                    problems.add(block.where() + ": a Java block without <!-- example: examples/java/... --> before it");
                    continue;
                }
                Path example = Path.of(block.marker().substring("example:".length()).strip());
                if (!(example.startsWith("examples/java") || example.startsWith("examples/embedded-app/src"))
                        || !Files.isRegularFile(example)) {
                    problems.add(block.where() + ": " + example + " is not a file under examples/java or"
                            + " examples/embedded-app/src");
                    continue;
                }
                if (!quotes(Files.readAllLines(example), block.lines())) {
                    problems.add(block.where() + ": the block is not a piece of " + example
                            + " (same lines, indentation aside)");
                    continue;
                }
                quoted++;
            }
        }
        if (!problems.isEmpty()) {
            fail(String.join("\n", problems));
        }
        assertTrue(quoted > 0, "no Java block found: are README.md and docs/ where this test looks?");
    }

    /** Whether the block's lines are consecutive lines of the file, leading and trailing spaces aside. */
    static boolean quotes(List<String> file, List<String> block) {
        List<String> wanted = block.stream().map(String::strip).toList();
        for (int start = 0; start + wanted.size() <= file.size(); start++) {
            boolean all = true;
            for (int i = 0; i < wanted.size() && all; i++) {
                all = file.get(start + i).strip().equals(wanted.get(i));
            }
            if (all) {
                return true;
            }
        }
        return false;
    }
}
