package dev.aguistate.llm.demo;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A change the scripted demo model can make to what the user has, asked for in plain words. Each works on any JSON
 * value, reading its schema only where it must, and knows no sample's fields: a diet ({@link DietEdit}: "make it
 * vegan"), {@link Shorten} ("make it shorter") and {@link Append} ("add a conclusion", "add a step to …").
 */
sealed interface DemoEdit permits DietEdit, DemoEdit.Shorten, DemoEdit.Append {

    /** What the demo can do, as its replies list it. */
    String HELP = "make it " + joinedWithOr(DietEdit.ALL.stream().map(DietEdit::adjective).toList())
            + ", make it shorter, or add something (\"add a conclusion\", \"add a step to …\")";

    /** What the edit does, as the demo's replies say it: "making it vegan". */
    String description();

    /** The value after the edit ({@code schema} is its JSON Schema, possibly empty); {@code value} is not changed. */
    JsonNode apply(JsonNode value, JsonNode schema);

    /** The edits the user's words ask for, in the order they are applied: diets, then shortening, then additions. */
    static List<DemoEdit> requestedIn(String said) {
        List<DemoEdit> edits = new ArrayList<>(DietEdit.ALL.stream().filter(d -> d.requestedIn(said)).toList());
        if (Shorten.REQUEST.matcher(said).find()) {
            edits.add(new Shorten());
        }
        Append.requestedIn(said).ifPresent(edits::add);
        return edits;
    }

    /** What several edits do, for one sentence: "making it vegan and making it shorter". */
    static String describe(List<DemoEdit> edits) {
        return edits.stream().map(DemoEdit::description).collect(Collectors.joining(" and "));
    }

    /**
     * A copy of the value with every string changed, walking the schema beside it; {@code eachList} may add to
     * every array once its items are changed.
     */
    static JsonNode withStrings(JsonNode value, JsonNode schema, UnaryOperator<String> change,
                                BiConsumer<ArrayNode, JsonNode> eachList) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        if (value.isTextual()) {
            return json.textNode(change.apply(value.asText()));
        }
        if (value.isArray()) {
            ArrayNode list = json.arrayNode();
            value.forEach(item -> list.add(withStrings(item, schema.path("items"), change, eachList)));
            eachList.accept(list, schema);
            return list;
        }
        if (value.isObject()) {
            ObjectNode object = json.objectNode();
            value.fields().forEachRemaining(f -> object.set(f.getKey(),
                    withStrings(f.getValue(), schema.path("properties").path(f.getKey()), change, eachList)));
            return object;
        }
        return value;
    }

    private static String joinedWithOr(List<String> words) {
        return String.join(", ", words.subList(0, words.size() - 1)) + " or " + words.get(words.size() - 1);
    }

    /**
     * Keeps the first sentence of every paragraph of every string; headings, lists and one-sentence paragraphs
     * stay whole, so a markdown document keeps its shape and a short text is left as it is.
     */
    record Shorten() implements DemoEdit {

        private static final Pattern REQUEST = Pattern.compile("\\b(?:shorter|shorten|concise|trim)\\b",
                Pattern.CASE_INSENSITIVE);
        private static final Pattern PARAGRAPH_BREAK = Pattern.compile("\n[ \t]*\n");
        private static final Pattern FIRST_SENTENCE = Pattern.compile("(?s)^(.+?[.!?])\\s+\\S");
        private static final Pattern LIST_ITEM = Pattern.compile("(?m)^\\s*(?:[-*+]|\\d+\\.)\\s");

        @Override
        public String description() {
            return "making it shorter";
        }

        @Override
        public JsonNode apply(JsonNode value, JsonNode schema) {
            return withStrings(value, schema, Shorten::shortened, (list, listSchema) -> { });
        }

        private static String shortened(String text) {
            String[] paragraphs = PARAGRAPH_BREAK.split(text, -1);
            boolean changed = false;
            for (int i = 0; i < paragraphs.length; i++) {
                Matcher first = FIRST_SENTENCE.matcher(paragraphs[i]);
                if (!paragraphs[i].startsWith("#") && !LIST_ITEM.matcher(paragraphs[i]).find() && first.find()) {
                    paragraphs[i] = first.group(1);
                    changed = true;
                }
            }
            return changed ? String.join("\n\n", paragraphs) : text;
        }
    }

    /**
     * Adds {@code what} where the value keeps a list: a new item of the first list of objects (its text field —
     * {@code name}, {@code title}, {@code description}, … — is {@code what}, its other fields the schema's first
     * choice or empty), else of the first list of strings that is not a list of labels, else a new markdown
     * section at the end of the first string, under a heading that says what was asked for.
     */
    record Append(String what) implements DemoEdit {

        private static final Pattern REQUEST = Pattern.compile("\\badd\\s+(.+)", Pattern.CASE_INSENSITIVE);
        private static final Pattern KIND_OF_THING = Pattern.compile("^(?:(?:a|an|the|some|one|new|more|another)\\s+)*"
                + "(?:(?:step|section|item|ingredient|paragraph|task|line|entry|chapter)s?\\b\\s*"
                + "(?:to|about|on|called|named|for|:)?\\s*)?", Pattern.CASE_INSENSITIVE);
        private static final Pattern WHERE_TO = Pattern.compile("\\s+(?:to|in|into)\\s+(?:(?:the|my|this)\\s+)?"
                + "(?:recipe|document|text|list|plan|steps|tasks|card|page|it)$|[\\s.!?]+$", Pattern.CASE_INSENSITIVE);
        private static final List<String> TEXT_FIELDS = List.of("name", "title", "description", "text", "label");
        static final String SECTION_TEXT = "*A placeholder from the scripted demo model: with an LLM configured, this "
                + "section would be written for you.*";

        static Optional<DemoEdit> requestedIn(String said) {
            Matcher request = REQUEST.matcher(said);
            if (!request.find()) {
                return Optional.empty();
            }
            String what = WHERE_TO.matcher(KIND_OF_THING.matcher(request.group(1).strip()).replaceFirst(""))
                    .replaceAll("");
            return what.isEmpty() ? Optional.empty()
                    : Optional.of(new Append(what.substring(0, 1).toUpperCase(Locale.ROOT) + what.substring(1)));
        }

        @Override
        public String description() {
            return "adding " + what;
        }

        @Override
        public JsonNode apply(JsonNode value, JsonNode schema) {
            List<Place> places = new ArrayList<>();
            placesIn(value, schema, JsonPointer.empty(), places);
            Optional<Place> place = places.stream().min(Comparator.comparingInt(Place::preference));
            if (place.isEmpty()) {
                return value;
            }
            JsonNode copy = value.deepCopy();
            JsonPointer at = place.get().at();
            JsonNode target = copy.at(at);
            if (target.isArray()) {
                ((ArrayNode) target).add(newItem((ArrayNode) target, place.get().schema().path("items")));
                return copy;
            }
            String text = target.asText();
            String extended = text + (text.endsWith("\n") ? "\n" : "\n\n") + "## " + what + "\n\n" + SECTION_TEXT;
            if (at.equals(JsonPointer.empty())) {
                return JsonNodeFactory.instance.textNode(extended);
            }
            ((ObjectNode) copy.at(at.head())).put(at.last().getMatchingProperty(), extended);
            return copy;
        }

        /** Where something can be added, by preference: 0 a list of objects, 1 a list of strings, 2 a string. */
        private record Place(JsonPointer at, JsonNode schema, int preference) {}

        private static void placesIn(JsonNode value, JsonNode schema, JsonPointer at, List<Place> places) {
            if (value.isArray() && !DietEdit.isLabelList(schema)) {
                boolean ofObjects = "object".equals(SchemaExample.type(schema.path("items")))
                        || (!value.isEmpty() && value.get(0).isObject());
                places.add(new Place(at, schema, ofObjects ? 0 : 1));
            } else if (value.isObject()) {
                value.fields().forEachRemaining(f -> placesIn(f.getValue(), schema.path("properties").path(f.getKey()),
                        at.appendProperty(f.getKey()), places));
            } else if (value.isTextual()) {
                places.add(new Place(at, schema, 2));
            }
        }

        /**
         * An item as the schema builds it (strings empty but for fixed choices, e.g. a status), else a copy of the
         * last item with its strings emptied; lists in it start empty; {@code what} is its text.
         */
        private JsonNode newItem(ArrayNode list, JsonNode itemSchema) {
            ObjectNode item;
            JsonNode built = itemSchema.has("properties") ? SchemaExample.of(itemSchema, "") : null;
            boolean fromSchema = built instanceof ObjectNode;
            if (fromSchema) {
                item = (ObjectNode) built;
            } else if (!list.isEmpty() && list.get(list.size() - 1) instanceof ObjectNode last) {
                item = last.deepCopy();
            } else {
                return JsonNodeFactory.instance.textNode(what);
            }
            List<String> texts = new ArrayList<>();
            item.fields().forEachRemaining(f -> {
                if (f.getValue().isArray()) {
                    ((ArrayNode) f.getValue()).removeAll();
                } else if (f.getValue().isTextual()) {
                    texts.add(f.getKey());
                    if (!fromSchema) {
                        f.setValue(JsonNodeFactory.instance.textNode(""));
                    }
                }
            });
            String field = TEXT_FIELDS.stream().filter(texts::contains).findFirst()
                    .orElse(texts.isEmpty() ? TEXT_FIELDS.get(0) : texts.get(0));
            return item.put(field, what);
        }
    }
}
