package com.example.agents;

import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.tools.BackendTool;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * Agents as tools (docs/subagents.md): the desk hands research to a researcher agent with a tool of its own. In your
 * project: {@code src/main/java/com/example/agents/}.
 */
public class ResearchDesk {

    @Produces
    @Singleton
    AgentDefinition desk() {
        AgentDefinition researcher = AgentDefinition.builder("researcher")
                .description("Looks into a question and reports what it found.")
                .instructions("Answer the task in a few sentences. Search the archive first.")
                .tool(BackendTool.builder("search_archive")
                        .stringParameter("query", "What to look for", true)
                        .handler((args, context) -> Archive.search(args.path("query").asText())))
                .stateless()
                .build();
        return AgentDefinition.builder("desk")
                .instructions("Hand every question that needs facts to the researcher, then answer with what it found.")
                .subagent(researcher)   // offered to the desk's LLM as the tool "researcher", taking a "task"
                .build();
    }

    /** Stands in for your own search. */
    static final class Archive {
        static String search(String query) {
            return "Nothing in the archive mentions " + query + ".";
        }
    }
}
