package dev.aguistate.llm.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Makes food fit a diet: in every string of the value, the ingredients the diet excludes become ones it allows
 * ("Parmesan" → "nutritional yeast", "butter" → "plant butter", "🧀" → "🌱"), whole words only, capitalized
 * as the text around them is; everything else stays as it is. A word already qualified ("plant butter",
 * "vegan mayonnaise", "gluten-free pasta") is left alone, so making a thing vegan twice changes nothing.
 *
 * <p>A list of labels gets the diet's label: an array of strings whose schema's description names one of the
 * diets' labels (the recipe's "e.g. High Protein, Vegetarian, Gluten Free"), spelled as that description spells it.
 */
final class DietEdit implements DemoEdit {

    private static final Map<String, String> MEAT_AND_FISH = swaps(
            "chicken stock", "vegetable stock", "beef stock", "vegetable stock", "fish sauce", "soy sauce",
            "minced meat", "lentils", "mince", "lentils", "chicken", "tofu", "beef", "seitan", "pork", "jackfruit",
            "bacon", "smoked tofu", "ham", "smoked tofu", "sausages", "plant sausages", "sausage", "plant sausage",
            "meat", "mushrooms", "salmon", "marinated tofu", "tuna", "chickpeas", "fish", "tofu",
            "prawns", "king oyster mushrooms", "shrimp", "king oyster mushrooms", "anchovies", "capers",
            "gelatine", "agar", "gelatin", "agar",
            "🍗", "🍄", "🍖", "🍄", "🥩", "🍄", "🥓", "🍄", "🐟", "🌱", "🐠", "🌱", "🦐", "🌱", "🍤", "🌱");

    /** Plant foods named like dairy ones map to themselves, so that "milk" does not turn "coconut milk" into oat. */
    private static final Map<String, String> DAIRY = swaps(
            "coconut milk", "coconut milk", "almond milk", "almond milk", "soy milk", "soy milk",
            "rice milk", "rice milk", "coconut cream", "coconut cream", "peanut butter", "peanut butter",
            "cocoa butter", "cocoa butter", "butter beans", "butter beans", "cream of tartar", "cream of tartar",
            "parmesan", "nutritional yeast", "parmigiano", "nutritional yeast", "pecorino", "nutritional yeast",
            "cream cheese", "cashew cream", "cheese", "cashew cheese", "cheddar", "cashew cheese",
            "mozzarella", "cashew cheese", "feta", "cashew cheese", "ricotta", "cashew cheese",
            "halloumi", "smoked tofu", "butter", "plant butter", "ghee", "coconut oil", "buttermilk", "oat milk",
            "milk", "oat milk", "sour cream", "soy yogurt", "cream", "oat cream", "yogurt", "soy yogurt",
            "yoghurt", "soy yogurt",
            "🧀", "🌱", "🥛", "🌾", "🧈", "🌱");

    private static final Map<String, String> EGGS_AND_HONEY = swaps(
            "eggs", "flax eggs", "egg", "flax egg", "honey", "maple syrup", "mayonnaise", "vegan mayonnaise",
            "🥚", "🌱", "🍯", "🍁");

    private static final Map<String, String> GLUTEN = swaps(
            "almond flour", "almond flour", "corn flour", "corn flour", "soy sauce", "tamari",
            "spaghetti", "gluten-free spaghetti", "pasta", "gluten-free pasta", "noodles", "rice noodles",
            "flour", "rice flour", "breadcrumbs", "gluten-free breadcrumbs", "bread", "gluten-free bread",
            "couscous", "quinoa", "bulgur", "quinoa", "barley", "rice", "beer", "gluten-free beer");

    static final DietEdit VEGETARIAN = new DietEdit("Vegetarian", MEAT_AND_FISH);
    static final DietEdit VEGAN = new DietEdit("Vegan",
            merged(MEAT_AND_FISH, DAIRY, EGGS_AND_HONEY, swaps("vegetarian", "vegan")));
    static final DietEdit DAIRY_FREE = new DietEdit("Dairy-free", DAIRY);
    static final DietEdit GLUTEN_FREE = new DietEdit("Gluten-free", GLUTEN);
    static final List<DietEdit> ALL = List.of(VEGAN, VEGETARIAN, GLUTEN_FREE, DAIRY_FREE);

    private static final Pattern ANY_LABEL = Pattern.compile(
            ALL.stream().map(d -> d.label.pattern()).collect(Collectors.joining("|")), Pattern.CASE_INSENSITIVE);
    /** Words that already say a food fits: the one after them is not swapped. */
    private static final Pattern QUALIFIED = Pattern.compile(
            "(?:vegan|plant|plant-based|dairy-free|gluten-free|egg-free|meat-free)[\\s-]$", Pattern.CASE_INSENSITIVE);

    private final String name;
    private final Pattern label;
    private final Map<String, String> swaps;
    private final Pattern words;

    private DietEdit(String name, Map<String, String> swaps) {
        this.name = name;
        this.label = Pattern.compile("\\b" + name.replaceAll("[\\s-]", "[\\\\s-]?") + "\\b", Pattern.CASE_INSENSITIVE);
        this.swaps = swaps;
        this.words = Pattern.compile(swaps.keySet().stream()
                .sorted(Comparator.comparingInt(String::length).reversed())
                .map(w -> Character.isLetter(w.charAt(0)) ? "\\b" + Pattern.quote(w) + "\\b" : Pattern.quote(w))
                .collect(Collectors.joining("|")), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    }

    /** Whether the user's words ask for this diet ("make it gluten-free", "a vegan version"). */
    boolean requestedIn(String said) {
        return label.matcher(said).find();
    }

    /** The diet's name as the demo's texts say it: "vegan", "gluten-free". */
    String adjective() {
        return name.toLowerCase(Locale.ROOT);
    }

    @Override
    public String description() {
        return "making it " + adjective();
    }

    @Override
    public JsonNode apply(JsonNode value, JsonNode schema) {
        return DemoEdit.withStrings(value, schema, this::swapped, (list, listSchema) -> {
            if (isLabelList(listSchema) && !hasLabel(list)) {
                Matcher spelled = label.matcher(listSchema.path("description").asText());
                list.add(spelled.find() ? spelled.group() : name);
            }
        });
    }

    /** An array of strings whose schema's description names a diet label: where labels go, not foods. */
    static boolean isLabelList(JsonNode schema) {
        return "string".equals(SchemaExample.type(schema.path("items")))
                && ANY_LABEL.matcher(schema.path("description").asText()).find();
    }

    private boolean hasLabel(ArrayNode labels) {
        for (JsonNode existing : labels) {
            if (label.matcher(existing.asText()).matches()) {
                return true;
            }
        }
        return false;
    }

    private String swapped(String text) {
        Matcher found = words.matcher(text);
        StringBuilder out = new StringBuilder();
        int copied = 0;
        boolean title = isTitle(text);
        while (found.find()) {
            String word = found.group();
            String replacement = swaps.get(word.toLowerCase(Locale.ROOT));
            if (alreadyFits(text, found.start(), word, replacement)) {
                continue;
            }
            out.append(text, copied, found.start()).append(cased(replacement, word, text, found.start(), title));
            copied = found.end();
        }
        return copied == 0 ? text : out.append(text.substring(copied)).toString();
    }

    /** "butter" in "plant butter" or "vegan butter" already fits. */
    private static boolean alreadyFits(String text, int at, String word, String replacement) {
        int within = replacement.toLowerCase(Locale.ROOT).indexOf(word.toLowerCase(Locale.ROOT));
        if (within >= 0 && at >= within && text.regionMatches(true, at - within, replacement, 0, replacement.length())) {
            return true;
        }
        return QUALIFIED.matcher(text.substring(Math.max(0, at - 12), at)).find();
    }

    /** "Parmesan" heading a name → "Nutritional yeast"; "grated Parmesan" → "grated nutritional yeast". */
    private static String cased(String replacement, String word, String text, int at, boolean title) {
        if (title) {
            return Pattern.compile("(^|[\\s-])(\\p{Ll})").matcher(replacement)
                    .replaceAll(m -> m.group(1) + m.group(2).toUpperCase(Locale.ROOT));
        }
        String before = text.substring(0, at).stripTrailing();
        boolean startsSentence = before.isEmpty() || ".!?:-*#\n".indexOf(before.charAt(before.length() - 1)) >= 0;
        if (startsSentence && Character.isUpperCase(word.codePointAt(0))) {
            return Character.toUpperCase(replacement.charAt(0)) + replacement.substring(1);
        }
        return replacement;
    }

    /** A title ("Tomato Basil Pasta"): several words, every long one capitalized. */
    private static boolean isTitle(String text) {
        String[] words = text.strip().split("\\s+");
        if (words.length < 2) {
            return false;
        }
        for (String word : words) {
            if (word.length() > 3 && !Character.isUpperCase(word.codePointAt(0))) {
                return false;
            }
        }
        return true;
    }

    /** Pairs (from, to), in order; lower-case keys. */
    private static Map<String, String> swaps(String... pairs) {
        Map<String, String> swaps = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            swaps.put(pairs[i], pairs[i + 1]);
        }
        return swaps;
    }

    @SafeVarargs
    private static Map<String, String> merged(Map<String, String>... tables) {
        Map<String, String> merged = new LinkedHashMap<>();
        for (Map<String, String> table : tables) {
            merged.putAll(table);
        }
        return merged;
    }
}
