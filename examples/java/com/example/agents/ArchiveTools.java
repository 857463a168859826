package com.example.agents;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.aguistate.tools.ToolContext;
import dev.langchain4j.agent.tool.Tool;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A slow {@code @Tool} method that shows its progress and its partial results while it runs (docs/activity.md); an
 * agents file names it ({@code tools: [searchArchive]}). In your project: {@code src/main/java/com/example/agents/}.
 */
@ApplicationScoped
public class ArchiveTools {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> BOXES = List.of("1990s", "2000s", "2010s", "2020s");

    @Tool("Searches the archive's boxes for a name; slow, and shows how far it has got.")
    public String searchArchive(String name, ToolContext context) {
        List<String> hits = new ArrayList<>();
        for (int box = 0; box < BOXES.size(); box++) {
            context.progress((double) box / BOXES.size(), "Searching the " + BOXES.get(box) + " box");
            hits.addAll(searchBox(BOXES.get(box), name));
            context.activity("archive-hits", JSON.valueToTree(Map.of("name", name, "hits", hits)));
        }
        context.progress(1, "Searched " + BOXES.size() + " boxes");
        return hits.isEmpty() ? "Nothing mentions " + name + "." : String.join("\n", hits);
    }

    /** Stands in for the slow part: a search of one box. */
    private List<String> searchBox(String box, String name) {
        return box.startsWith("20") ? List.of("A letter of the " + box + " mentions " + name) : List.of();
    }
}
