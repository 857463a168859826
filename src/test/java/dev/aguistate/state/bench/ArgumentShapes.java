package dev.aguistate.state.bench;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.protocol.AgUiJson;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Deterministic tool arguments of a given size, shaped like what LLMs stream into predictive state: a structured
 * recipe (many short strings, nested arrays of objects, emoji as raw UTF-16) and a markdown document (one long
 * string full of escapes).
 */
public enum ArgumentShapes {
    RECIPE("update_recipe", "recipe") {
        @Override
        ObjectNode arguments(int targetBytes) {
            Random random = new Random(42);
            ObjectNode recipe = NODES.objectNode()
                    .put("title", "Roasted Vegetable Lasagna with Caf\u00e9-Style Béchamel")
                    .put("skill_level", "Intermediate");
            recipe.putArray("special_preferences").add("Vegetarian").add("High Protein").add("Spicy");
            recipe.put("cooking_time", "45 min");
            ArrayNode ingredients = recipe.putArray("ingredients");
            ArrayNode instructions = recipe.putArray("instructions");
            ObjectNode arguments = NODES.objectNode().set("recipe", recipe);
            for (int step = 1; bytes(arguments) < targetBytes; step++) {
                ingredients.addObject()
                        .put("icon", ICONS[random.nextInt(ICONS.length)])
                        .put("name", words(random, 1 + random.nextInt(3)))
                        .put("amount", (1 + random.nextInt(500)) + " g");
                instructions.add("Step " + step + ": " + words(random, 8 + random.nextInt(12)) + ".");
            }
            return arguments;
        }
    },
    DOCUMENT("write_document", "document") {
        @Override
        ObjectNode arguments(int targetBytes) {
            Random random = new Random(7);
            StringBuilder markdown = new StringBuilder("# A \"streamed\" document\n\n");
            for (int section = 1; markdown.length() < targetBytes; section++) {
                markdown.append("## Section ").append(section).append("\n\n")
                        .append(words(random, 30 + random.nextInt(30))).append(".\n\n")
                        .append("- item with a tab\tand a path C:\\temp\\file").append(section).append('\n')
                        .append("- quote: \"").append(words(random, 4)).append("\" \u2014 na\u00efve caf\u00e9 \uD83D\uDE00\n\n");
            }
            return NODES.objectNode().put("document", markdown.toString());
        }
    };

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String[] ICONS = {"\uD83E\uDD55", "\uD83E\uDDC5", "\uD83C\uDF45", "\uD83E\uDDC0", "\uD83C\uDF3F"};
    private static final String[] WORDS = ("fold the roasted peppers into warm ricotta then season with salt pepper "
            + "and fresh basil before layering sheets of pasta over the simmering tomato sauce").split(" ");

    /** The tool whose arguments these are, and the argument a predictive mapping would name. */
    public final String tool;
    public final String argument;

    ArgumentShapes(String tool, String argument) {
        this.tool = tool;
        this.argument = argument;
    }

    abstract ObjectNode arguments(int targetBytes);

    /** The arguments as an LLM streams them: compact JSON of at least {@code targetBytes} UTF-8 bytes. */
    public String json(int targetBytes) {
        return AgUiJson.write(arguments(targetBytes));
    }

    /** Fixed-size fragments, as a provider streams them (a fragment may split an escape or a surrogate pair). */
    public static List<String> chunks(String text, int size) {
        List<String> chunks = new ArrayList<>();
        for (int start = 0; start < text.length(); start += size) {
            chunks.add(text.substring(start, Math.min(text.length(), start + size)));
        }
        return chunks;
    }

    static int bytes(Object json) {
        return AgUiJson.write(json).getBytes(StandardCharsets.UTF_8).length;
    }

    private static String words(Random random, int count) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < count; i++) {
            text.append(i == 0 ? "" : " ").append(WORDS[random.nextInt(WORDS.length)]);
        }
        return text.toString();
    }
}
