package dev.aguistate.testing;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.agent.ConfirmationMessages;
import dev.aguistate.agent.SummaryPolicy;
import dev.aguistate.state.JsonType;
import dev.aguistate.state.StateSchema;
import dev.aguistate.tools.BackendTool;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Map;

/** Agents for tests: tools that misbehave on purpose, and tools that read and write state. */
public class TestAgents {

    static final StateSchema NOTEBOOK = StateSchema.builder()
            .key("title", "The notebook's title", JsonType.STRING)
            .key("notes", "Notes, oldest first", JsonType.ARRAY)
            .key("pages", "Number of pages", JsonType.INTEGER)
            .build();

    /** State tools and backend tools that read and write the NOTEBOOK state. */
    static AgentDefinition.Builder notebook(String name) {
        return AgentDefinition.builder(name)
                .description("test agent with state")
                .instructions("Keep the notebook.")
                .state(NOTEBOOK)
                .tool(BackendTool.builder("add_note")
                        .description("Add a note")
                        .stringParameter("text", "the note", true)
                        .outputToState("notes", "added")
                        .handler((args, context) -> JsonNodeFactory.instance.objectNode()
                                .set("added", JsonNodeFactory.instance.arrayNode().add(args.get("text").asText()))))
                .tool(BackendTool.builder("describe_title")
                        .description("Describe the notebook's title")
                        .stringParameter("title", "filled from state", true)
                        .stringParameter("style", "how to describe it", false)
                        .inputFromState("title", "title")
                        .handler((args, context) -> "The title is " + args.get("title").asText()))
                .tool(BackendTool.builder("count_pages_wrongly")
                        .description("Writes text where the schema wants an integer")
                        .outputToState("pages", null)
                        .handler((args, context) -> "many"))
                .tool(BackendTool.stateTool("set_title", "Set the title",
                        RunRequests.parse("{\"type\":\"object\",\"properties\":{\"title\":{\"type\":\"string\"}}}"),
                        "Title updated.", Map.of("title", "title")))
                .tool(clock());
    }

    @Produces
    @Singleton
    AgentDefinition notebook() {
        return notebook("notebook").build();
    }

    /** What the confirming notebook asks and tells the LLM. */
    public static final ConfirmationMessages CONFIRMING_MESSAGES = new ConfirmationMessages("Use this page?",
            "The user said yes.", "The user said no; the page stays as it was.");

    static BackendTool setPage() {
        return BackendTool.stateTool("set_page", "Set a page",
                RunRequests.parse("{\"type\":\"object\",\"properties\":{\"page\":{\"type\":\"object\"}}}"),
                "Page set.", Map.of("page", "page"));
    }

    static BackendTool clock() {
        return BackendTool.builder("clock").description("Unrelated to state").handler((args, context) -> "12:00");
    }

    /** The notebook whose title, and a whole-arguments draft, are predicted while the tools' arguments stream. */
    @Produces
    @Singleton
    AgentDefinition predictiveNotebook() {
        return AgentDefinition.builder("predictive-notebook")
                .state(StateSchema.FREE_FORM)
                .tool(setPage())
                .tool(BackendTool.stateTool("save_draft", "Save a draft",
                        RunRequests.parse("{\"type\":\"object\"}"), "Draft saved.", Map.of("draft", "*")))
                .tool(clock())
                .predict("page", "set_page", "page")
                .predict("draft", "save_draft", "*")
                .build();
    }

    /** A predicted page that waits for the user's approval before it is set; the clock needs none. */
    @Produces
    @Singleton
    AgentDefinition confirmingNotebook() {
        return AgentDefinition.builder("confirming-notebook")
                .state(StateSchema.FREE_FORM)
                .tool(setPage())
                .tool(clock())
                .predict("page", "set_page", "page")
                .requireConfirmation()
                .confirmationMessages(CONFIRMING_MESSAGES)
                .build();
    }

    /** The notebook in two-phase mode: the LLM writes the new state as JSON, then a summary. */
    @Produces
    @Singleton
    AgentDefinition twoPhaseNotebook() {
        return AgentDefinition.builder("two-phase-notebook").state(NOTEBOOK).twoPhaseState().build();
    }

    /** Free-form state written by state tools into each scope: the thread's, the user's, the app's, the run's. */
    @Produces
    @Singleton
    AgentDefinition scoped() {
        AgentDefinition.Builder agent = AgentDefinition.builder("scoped").state(StateSchema.FREE_FORM)
                .serverOwned("plan");
        Map.of("note", "set_note", "user:lang", "set_lang", "app:banner", "set_banner", "temp:scratch", "set_scratch",
                        "plan", "set_plan")
                .forEach((key, tool) -> agent.tool(BackendTool.stateTool(tool, "Set " + key,
                        RunRequests.parse("{\"type\":\"object\",\"properties\":{\"value\":{}}}"), "Set.",
                        Map.of(key, "value"))));
        return agent.build();
    }

    /** The input budget of the {@code budgeted} agent: a few turns of a long conversation fit. */
    public static final int SMALL_INPUT_BUDGET = 700;

    /** A stateless agent with a clock whose requests must fit {@link #SMALL_INPUT_BUDGET} tokens. */
    @Produces
    @Singleton
    AgentDefinition budgeted() {
        return AgentDefinition.builder("budgeted").instructions("Answer briefly.").stateless().tool(clock())
                .maxInputTokens(SMALL_INPUT_BUDGET).build();
    }

    /** The model the {@code summarizing} agent's summaries are written by: requests for it are the summarizer's. */
    public static final String SUMMARY_MODEL = "gpt-summary";
    /** The {@code summarizing} agent's policy: summaries once 8 messages are pending, the latest 4 kept as they are. */
    public static final SummaryPolicy SUMMARIZING = new SummaryPolicy(8, 0, 4, SUMMARY_MODEL);

    /** A stateless agent whose threads are summarized by {@link #SUMMARY_MODEL} ({@link #SUMMARIZING}). */
    @Produces
    @Singleton
    AgentDefinition summarizing() {
        return AgentDefinition.builder("summarizing").instructions("Answer briefly.").stateless().tool(clock())
                .summarize(SUMMARIZING).build();
    }

    /** For the long-conversation benchmark: gpt-4o-mini's default budget, no summaries. */
    @Produces
    @Singleton
    AgentDefinition longPlain() {
        return AgentDefinition.builder("long-plain").instructions("You plan trips.").stateless().tool(clock())
                .maxInputTokens(105_216).build();
    }

    /** For the long-conversation benchmark: the same, with summaries once 40 messages are pending, 10 kept. */
    @Produces
    @Singleton
    AgentDefinition longSummarized() {
        return AgentDefinition.builder("long-summarized").instructions("You plan trips.").stateless().tool(clock())
                .maxInputTokens(105_216).summarize(new SummaryPolicy(40, 0, 10, SUMMARY_MODEL)).build();
    }

    /** Keeps no state at all: only a clock. */
    @Produces
    @Singleton
    AgentDefinition stateless() {
        return AgentDefinition.builder("stateless").stateless().tool(clock()).build();
    }

    @Produces
    @Singleton
    AgentDefinition strictNotebook() {
        return notebook("strict-notebook").raiseOnToolFailure(true).build();
    }

    @Produces
    @Singleton
    AgentDefinition faultyTools() {
        return AgentDefinition.builder("faulty-tools")
                .description("test agent with a tool that throws")
                .tool(BackendTool.builder("explode")
                        .description("always fails")
                        .handler((args, context) -> {
                            throw new IllegalStateException("the fuse was lit");
                        }))
                .build();
    }
}
