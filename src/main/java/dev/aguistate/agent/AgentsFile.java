package dev.aguistate.agent;

import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.MapperBuilder;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.aguistate.agent.AgentsFileModel.AgentEntry;
import dev.aguistate.agent.AgentsFileModel.Document;
import dev.aguistate.tools.BackendTool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Agents declared in a YAML or JSON file ({@code agui.agents.file}) rather than in Java: a newcomer adds a
 * state-driven agent without writing code. Format: docs/declarative-agents.md.
 */
public final class AgentsFile {

    /*
     * Strict, because a typo silently ignored is an agent quietly misbehaving: unknown fields, a field written twice
     * and empty list or map entries are errors. JSON gets its own parser although YAML reads most JSON: YAML
     * forbids the tab indentation common in JSON files.
     */
    private static final ObjectMapper YAML = strict(YAMLMapper.builder());
    private static final ObjectMapper JSON = strict(JsonMapper.builder());

    private static <M extends ObjectMapper, B extends MapperBuilder<M, B>> M strict(B builder) {
        return builder.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .defaultSetterInfo(JsonSetter.Value.forContentNulls(Nulls.FAIL))
                .build();
    }

    private AgentsFile() {}

    /**
     * The file's agents, in file order; a {@code ${NAME}} in it is the environment variable {@code NAME}.
     *
     * @throws AgentsFileException naming the file, the agent and the problem
     */
    public static List<AgentDefinition> load(Path file) {
        return load(file, name -> Optional.ofNullable(System.getenv(name)));
    }

    /**
     * The file's agents, in file order.
     *
     * @param variables what a {@code ${NAME}} in an MCP server's or HTTP tool's {@code url}, {@code command} or
     *                  {@code headers} stands for (a secret, an address per deployment)
     * @throws AgentsFileException naming the file, the agent and the problem
     */
    public static List<AgentDefinition> load(Path file, Function<String, Optional<String>> variables) {
        return load(file, variables, Map.of());
    }

    /**
     * The file's agents, in file order.
     *
     * @param variables what a {@code ${NAME}} stands for, as in {@link #load(Path, Function)}
     * @param javaTools the Java tools an agent's {@code tools} list may name, by name
     * @throws AgentsFileException naming the file, the agent and the problem
     */
    public static List<AgentDefinition> load(Path file, Function<String, Optional<String>> variables,
                                             Map<String, BackendTool> javaTools) {
        List<JsonNode> entries = inFile(file, "", () -> agentEntries(read(file)));
        Map<String, Integer> indexByName = new HashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            String name = entries.get(i).path("name").textValue();
            Integer earlier = name == null ? null : indexByName.putIfAbsent(name, i);
            if (earlier != null) {
                throw new AgentsFileException(file + ": " + AgentsFileModel.label("agents", i, name)
                        + ": the name is already used by " + AgentsFileModel.label("agents", earlier, name));
            }
        }
        // an agent is built when first needed: in file order, or earlier as another's sub-agent
        AgentDefinition[] built = new AgentDefinition[entries.size()];
        Set<String> building = new LinkedHashSet<>();
        Function<String, AgentDefinition> agent = new Function<>() {
            @Override
            public AgentDefinition apply(String name) {
                Integer i = indexByName.get(name);
                if (i == null) {
                    throw new IllegalArgumentException("there is no agent named '" + name + "' in this file");
                }
                if (built[i] == null) {
                    if (!building.add(name)) {
                        throw new IllegalArgumentException("sub-agents may not call each other in a circle: "
                                + String.join(" -> ", building) + " -> " + name);
                    }
                    JsonNode entry = entries.get(i);
                    built[i] = inFile(file, AgentsFileModel.label("agents", i, name) + ": ",
                            () -> bind(entry, AgentEntry.class).toDefinition(variables, javaTools, this));
                    building.remove(name);
                }
                return built[i];
            }
        };
        List<AgentDefinition> agents = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            JsonNode entry = entries.get(i);
            String name = entry.path("name").textValue();
            agents.add(name != null ? agent.apply(name) : inFile(file, AgentsFileModel.label("agents", i, null) + ": ",
                    () -> bind(entry, AgentEntry.class).toDefinition(variables, javaTools, agent)));
        }
        return agents;
    }

    /** Runs a step of loading; a problem it reports becomes the start-up message, prefixed with the file and where. */
    private static <T> T inFile(Path file, String where, Supplier<T> step) {
        try {
            return step.get();
        } catch (IllegalArgumentException e) {
            throw new AgentsFileException(file + ": " + where + e.getMessage());
        }
    }

    private static JsonNode read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("no such file (looked for " + file.toAbsolutePath() + ")");
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot be read (" + e + ")");
        }
        boolean json = file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".json");
        try {
            return (json ? JSON : YAML).readTree(text);
        } catch (JsonProcessingException e) {
            // SnakeYAML's own message spans lines and quotes the source; its problem and context read better
            String problem = e.getCause() instanceof MarkedYAMLException yaml
                    ? yaml.getProblem() + (yaml.getContext() == null ? "" : " " + yaml.getContext())
                    : e.getOriginalMessage();
            throw new IllegalArgumentException("not valid " + (json ? "JSON: " : "YAML: ") + problem
                    + at(e.getLocation()));
        }
    }

    private static List<JsonNode> agentEntries(JsonNode tree) {
        if (tree.isMissingNode() || tree.isNull()) {
            throw new IllegalArgumentException("the file is empty; it should declare 'agents'");
        }
        Document document = bind(tree, Document.class);
        if (document.agents() == null) {
            throw new IllegalArgumentException("missing required field 'agents'");
        }
        return document.agents();
    }

    /** Binds a tree read by either mapper: they bind alike. */
    private static <T> T bind(JsonNode node, Class<T> type) {
        try {
            return YAML.treeToValue(node, type);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(describe(e));
        }
    }

    /** Jackson's own messages name Java classes; this says where in the entry, and what was expected there. */
    private static String describe(JsonProcessingException e) {
        if (!(e instanceof JsonMappingException mapping)) {
            return e.getOriginalMessage();
        }
        List<JsonMappingException.Reference> path = mapping.getPath();
        if (e instanceof UnrecognizedPropertyException unknown) {
            return where(path.subList(0, path.size() - 1)) + "unknown field '" + unknown.getPropertyName()
                    + "' (expected " + sorted(unknown.getKnownPropertyIds()) + ")";
        }
        Class<?> expected = e instanceof MismatchedInputException mismatch ? mismatch.getTargetType() : null;
        return where(path) + "expected " + describe(expected);
    }

    /** E.g. {@code stateTools[0].writes: }; empty at the top of the entry. */
    private static String where(List<JsonMappingException.Reference> path) {
        String where = path.stream()
                .map(step -> step.getFieldName() != null ? "." + step.getFieldName() : "[" + step.getIndex() + "]")
                .collect(Collectors.joining());
        return where.isEmpty() ? "" : where.substring(where.startsWith(".") ? 1 : 0) + ": ";
    }

    private static String describe(Class<?> type) {
        if (type == null) {
            return "another value";
        }
        if (Collection.class.isAssignableFrom(type)) {
            return "a list";
        }
        if (type == String.class) {
            return "text";
        }
        if (type == boolean.class || type == Boolean.class) {
            return "true or false";
        }
        if (type == int.class || type == Integer.class) {
            return "a whole number";
        }
        return "an object";
    }

    private static String sorted(Collection<Object> names) {
        return names.stream().map(String::valueOf).sorted().collect(Collectors.joining(", "));
    }

    private static String at(JsonLocation location) {
        return location == null ? "" : " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
    }
}
