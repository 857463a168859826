package dev.aguistate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * Holds the main code's package dependencies to the table in {@code docs/architecture.md} ("What each package may
 * use"), read from the compiled classes: every dependency between two of our packages must be one the table allows,
 * every package must be in the table, and the table itself must allow no cycle. It reads {@code target/classes}, which
 * Maven compiles before any test runs.
 */
@Execution(ExecutionMode.CONCURRENT)
class ArchitectureTest {

    private static final String ROOT = "dev.aguistate";
    private static final Path DOC = Path.of("docs/architecture.md");
    private static final Pattern ROW = Pattern.compile("^\\| `([a-z0-9.]+)` \\|(.*)\\|\\s*$");
    private static final Pattern NAME = Pattern.compile("`([a-z0-9.]+)`");

    private static Map<String, Set<String>> allowed;
    private static JavaClasses classes;

    @BeforeAll
    static void read() throws IOException {
        allowed = table(Files.readString(DOC));
        classes = new ClassFileImporter().importPath(Path.of("target/classes"));
    }

    /** The rows between the table's markers: package → the packages it may use. */
    static Map<String, Set<String>> table(String doc) {
        int start = doc.indexOf("<!-- dependencies:start -->");
        int end = doc.indexOf("<!-- dependencies:end -->");
        assertTrue(start >= 0 && end > start, DOC + " has no dependencies table between its markers");
        Map<String, Set<String>> rows = new LinkedHashMap<>();
        for (String line : doc.substring(start, end).split("\n")) {
            Matcher row = ROW.matcher(line);
            if (row.matches()) {
                Set<String> uses = new TreeSet<>();
                Matcher name = NAME.matcher(row.group(2));
                while (name.find()) {
                    uses.add(name.group(1));
                }
                rows.put(row.group(1), uses);
            }
        }
        return rows;
    }

    private static String packageOf(JavaClass type) {
        return type.getPackageName().equals(ROOT) ? "" : type.getPackageName().substring(ROOT.length() + 1);
    }

    @Test
    void everyPackageIsInTheTable() {
        Set<String> inCode = new TreeSet<>();
        classes.forEach(type -> inCode.add(packageOf(type)));
        assertEquals(new TreeSet<>(allowed.keySet()), inCode,
                "the packages in docs/architecture.md's table and in src/main/java must be the same");
    }

    @Test
    void everyDependencyIsOneTheTableAllows() {
        Map<String, String> violations = new TreeMap<>();
        for (JavaClass type : classes) {
            String from = packageOf(type);
            Set<String> uses = allowed.getOrDefault(from, Set.of());
            for (Dependency dependency : type.getDirectDependenciesFromSelf()) {
                JavaClass target = dependency.getTargetClass();
                if (!target.getPackageName().startsWith(ROOT + ".")) {
                    continue;
                }
                String to = packageOf(target);
                if (!to.equals(from) && !uses.contains(to)) {
                    violations.putIfAbsent(from + " -> " + to, dependency.getDescription());
                }
            }
        }
        StringBuilder report = new StringBuilder();
        violations.forEach((arrow, example) -> report.append('\n').append(arrow).append(", e.g. ").append(example));
        assertTrue(violations.isEmpty(), "dependencies docs/architecture.md does not allow:" + report);
    }

    @Test
    void theTableAllowsNoCycle() {
        List<String> order = new ArrayList<>();
        Set<String> done = new HashSet<>();
        for (String from : allowed.keySet()) {
            visit(from, new ArrayList<>(), done, order);
        }
        assertEquals(allowed.size(), order.size());
    }

    private static void visit(String node, List<String> path, Set<String> done, List<String> order) {
        if (done.contains(node)) {
            return;
        }
        assertTrue(!path.contains(node), "docs/architecture.md allows a cycle: " + String.join(" -> ", path)
                + " -> " + node);
        path.add(node);
        for (String next : allowed.getOrDefault(node, Set.of())) {
            visit(next, path, done, order);
        }
        path.remove(path.size() - 1);
        done.add(node);
        order.add(node);
    }
}
