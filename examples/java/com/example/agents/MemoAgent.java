package com.example.agents;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.agent.AgentDefinition;
import dev.aguistate.agent.ConfirmationMessages;
import dev.aguistate.state.JsonType;
import dev.aguistate.state.StateSchema;
import dev.aguistate.tools.BackendTool;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.util.Map;

/**
 * A state tool that waits for the user's approval (docs/confirmation.md): the memo streams to the page as a
 * prediction, and only an approved one becomes the state. In your project: {@code src/main/java/com/example/agents/}.
 */
public class MemoAgent {

    @Produces
    @Singleton
    AgentDefinition memo() {
        ObjectNode parameters = new ObjectMapper().createObjectNode().put("type", "object");
        parameters.putObject("properties").putObject("document").put("type", "string");
        parameters.putArray("required").add("document");
        return AgentDefinition.builder("memo")
                .instructions("You write memos. To write or change the memo, call write_document with all of it.")
                .state(StateSchema.builder().key("document", "The memo, in markdown", JsonType.STRING).build())
                .tool(BackendTool.stateTool("write_document", "Write or replace the memo", parameters,
                        "Memo written.", Map.of("document", "document")))
                .predict("document", "write_document", "document")
                .requireConfirmation()                                  // every state tool (one with outputsToState)
                // or .requireConfirmation("write_document", "send_mail") // just these backend tools
                .confirmationMessages(ConfirmationMessages.DOCUMENT)     // the wording; GENERIC by default
                .build();
    }
}
