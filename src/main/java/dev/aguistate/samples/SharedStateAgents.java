package dev.aguistate.samples;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.agent.ConfirmationMessages;
import dev.aguistate.state.JsonType;
import dev.aguistate.state.MergeHandlers;
import dev.aguistate.state.StateKey;
import dev.aguistate.state.StateSchema;
import dev.aguistate.tools.BackendTool;
import dev.aguistate.tools.ToolContext;
import io.quarkus.arc.lookup.LookupIfProperty;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The AG-UI dojo's shared-state samples: a recipe card and a document, each filled in live while the LLM
 * writes the state tool's arguments, and a task list worked through step by step (with a slow research tool that
 * shows its progress as an activity). The tools' parameter schemas carry
 * an {@code examples} entry, which the scripted demo model writes when no LLM is configured and the user asks for a
 * new recipe, document or plan; asked for a change, it edits the current state instead.
 */
public class SharedStateAgents {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Which samples ask the user before applying a change ({@code agui.samples.require-confirmation}, a list of
     * sample names, or {@code none}).
     */
    private final Set<String> confirmed;

    SharedStateAgents(@ConfigProperty(name = "agui.samples.require-confirmation", defaultValue = "document")
                      Set<String> confirmed) {
        this.confirmed = confirmed;
    }

    @Produces
    @Singleton
    @LookupIfProperty(name = "agui.samples.enabled", stringValue = "true")
    AgentDefinition recipe() {
        return sample("recipe", ConfirmationMessages.RECIPE, "update_recipe")
                .description("A recipe assistant whose recipe card fills in while it writes (shared, predictive state).")
                .instructions("""
                        You are a helpful recipe assistant. The current recipe is in the shared state and the user \
                        may have edited it. To create or change the recipe, call update_recipe with the COMPLETE \
                        recipe, keeping everything the user did not ask to change. Use an emoji as each \
                        ingredient's icon. After updating, summarize the change in one or two sentences; do not \
                        repeat the recipe.""")
                .state(StateSchema.builder()
                        .key("recipe", "The recipe shown on the user's recipe card", JsonType.OBJECT)
                        .build())
                .tool(BackendTool.stateTool("update_recipe", "Create or replace the recipe on the card",
                        resource("recipe-tool-parameters.json"), "Recipe updated.", Map.of("recipe", "recipe")))
                .predict("recipe", "update_recipe", "recipe")
                .build();
    }

    @Produces
    @Singleton
    @LookupIfProperty(name = "agui.samples.enabled", stringValue = "true")
    AgentDefinition document() {
        return sample("document", ConfirmationMessages.DOCUMENT, "write_document")
                .description("A writer whose document appears as it is written (shared, predictive state).")
                .instructions("""
                        You are a writing assistant. The current document (markdown) is in the shared state and the \
                        user may have edited it. To write or change it, call write_document with the COMPLETE new \
                        document. Afterwards do not repeat the document: summarize your changes in at most two \
                        sentences.""")
                .state(StateSchema.builder()
                        .key("document", "The markdown document the user sees", JsonType.STRING)
                        .build())
                .tool(BackendTool.stateTool("write_document", "Write or replace the whole document",
                        resource("document-tool-parameters.json"), "Document written.",
                        Map.of("document", "document")))
                .predict("document", "write_document", "document")
                .build();
    }

    /**
     * Agentic generative UI: the plan streams into {@code steps} as the LLM writes it, then the tool works through
     * it and each finished step reaches the client as one small STATE_DELTA. Its {@code research} tool takes a
     * while and shows how far it has got ({@link ToolContext#progress}: ACTIVITY_SNAPSHOT, then ACTIVITY_DELTAs).
     */
    @Produces
    @Singleton
    @LookupIfProperty(name = "agui.samples.enabled", stringValue = "true")
    AgentDefinition tasks(@ConfigProperty(name = "agui.samples.task-step-delay", defaultValue = "600ms")
                          Duration stepDelay) {
        return sample("tasks", ConfirmationMessages.TASK_PLANNING, "execute_steps")
                .description("Plans a task as steps and works through them while you watch (agentic generative UI).")
                .instructions("""
                        You help the user get things done. For any task, call execute_steps with 4 to 8 short, \
                        concrete steps in the imperative, all with status "pending"; the tool carries them out. \
                        Afterwards say in one sentence that the task is done. When the user asks you to research \
                        something, call research with the topic and sum up what it found in two sentences.""")
                .state(StateSchema.builder()
                        .key(new StateKey("steps", EnumSet.of(JsonType.ARRAY), "The plan's steps and their status",
                                null, MergeHandlers.REPLACE))
                        .build())
                .tool(BackendTool.builder("execute_steps")
                        .description("Carry out a plan, step by step")
                        .parameters(resource("tasks-tool-parameters.json"))
                        .handler((args, context) -> executeSteps(args, context, stepDelay)))
                .tool(BackendTool.builder("research")
                        .description("Research a topic in several sources; takes a while and shows its progress")
                        .stringParameter("topic", "What to research", true)
                        .handler((args, context) -> research(args.path("topic").asText(""), context, stepDelay)))
                .predict("steps", "execute_steps", "steps")
                .build();
    }

    /** A sample whose state tool waits for the user's approval if the sample is listed. */
    private AgentDefinition.Builder sample(String name, ConfirmationMessages messages, String stateTool) {
        AgentDefinition.Builder agent = AgentDefinition.builder(name);
        if (confirmed.contains(name)) {
            agent.requireConfirmation(stateTool).confirmationMessages(messages);
        }
        return agent;
    }

    private static String executeSteps(JsonNode args, ToolContext context, Duration stepDelay)
            throws InterruptedException {
        if (!args.path("steps").isArray()) {
            throw new IllegalArgumentException("steps must be an array of {description, status}");
        }
        ArrayNode steps = args.get("steps").deepCopy();
        steps.forEach(step -> ((ObjectNode) step).put("status", "pending"));
        context.updateState("steps", steps);
        for (JsonNode step : steps) {
            Thread.sleep(stepDelay.toMillis()); // stands in for the real work of a step
            ((ObjectNode) step).put("status", "completed");
            context.updateState("steps", steps.deepCopy());
        }
        return "Completed all " + steps.size() + " steps.";
    }

    /** How many sources {@code research} reads. */
    private static final int SOURCES = 5;

    /** Stands in for a slow tool: reads {@link #SOURCES} sources, a step delay each, and reports each one. */
    private static String research(String topic, ToolContext context, Duration stepDelay)
            throws InterruptedException {
        context.progress(0, "Looking for sources on " + topic);
        for (int source = 1; source <= SOURCES; source++) {
            Thread.sleep(stepDelay.toMillis()); // stands in for reading a source
            context.progress((double) source / SOURCES, "Read source " + source + " of " + SOURCES);
        }
        return "Read " + SOURCES + " sources on " + topic + ": they agree it is a rich topic worth a closer look.";
    }

    private static JsonNode resource(String name) {
        try (InputStream in = SharedStateAgents.class.getResourceAsStream("/samples/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing sample resource /samples/" + name);
            }
            return JSON.readTree(in);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("sample resource /samples/" + name + " is not JSON", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
