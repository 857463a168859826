package dev.aguistate.http;

import io.quarkus.smallrye.openapi.OpenApiFilter;
import io.smallrye.config.SmallRyeConfig;
import java.util.List;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.media.Schema.SchemaType;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;

/**
 * The JSON endpoints ({@link AgentsRoute}, {@link ThreadsRoute}) in the OpenAPI document ({@code /q/openapi}), under
 * {@code agui.http.root}, added when the server starts: they are routes, which the OpenAPI scanner does not see, and
 * their paths are known only then. Their bodies are described in docs/http-api.md.
 */
@OpenApiFilter(OpenApiFilter.RunStage.RUNTIME_STARTUP)
public class JsonApiPaths implements OASFilter {

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        BasePath root = BasePath.root(ConfigProvider.getConfig().unwrap(SmallRyeConfig.class)
                .getConfigMapping(HttpConfig.class));
        if (openAPI.getPaths() == null) {
            openAPI.setPaths(OASFactory.createPaths());
        }
        Parameter agent = path("agent", "the agent's name");
        Parameter threadId = path("threadId", "the thread's id");
        Parameter limit = query("limit", "how many, 1 to 100 (default 20)", SchemaType.INTEGER);
        openAPI.getPaths()
                .addPathItem(root.path("/agui/agents"), OASFactory.createPathItem().GET(operation(
                        "List the agents, their tools and whether they keep state; and the model in use", null,
                        "{agents: [AgentInfo], model: ModelInfo}")))
                .addPathItem(root.path("/agui/{agent}/capabilities"), OASFactory.createPathItem().GET(operation(
                        "One agent's AG-UI AgentCapabilities: its tools, state, human-in-the-loop, transport, identity",
                        null, "AgentCapabilities", agent)))
                .addPathItem(root.path("/threads"), OASFactory.createPathItem().GET(operation(
                        "The caller's threads, most recently updated first, without messages",
                        "Archived threads are left out unless `archived=true` (only them) or `archived=all`. Filters:"
                                + " `agent`, `metadata.<key>=<value>` (each), `q` (text in the name, any case). `limit`"
                                + " threads from `cursor` (the `nextCursor` of the page before).",
                        "{threads, nextCursor}", query("agent", "only this agent's threads", SchemaType.STRING),
                        query("archived", "false (the default), true or all", SchemaType.STRING),
                        query("q", "text in the thread's name, any case", SchemaType.STRING),
                        query("cursor", "the nextCursor of the page before", SchemaType.STRING), limit)))
                .addPathItem(root.path("/threads/{threadId}"), OASFactory.createPathItem()
                        .GET(operation("A thread's state and complete message history", null,
                                "{threadId, agent, name, archived, metadata, version, createdAt, updatedAt, state, "
                                        + "messages, ...}", threadId))
                        .PATCH(operation("Rename, archive or unarchive a thread, or change its metadata",
                                "`{\"name\", \"archived\", \"metadata\"}`, each optional: `name: null` removes the"
                                        + " name, `metadata` is merged key by key (a key set to null is removed). A run"
                                        + " in progress on the thread is not disturbed.",
                                "the thread as GET answers it", threadId))
                        .DELETE(operation("Delete a thread and its history", null, null, threadId)))
                .addPathItem(root.path("/threads/{threadId}/messages"), OASFactory.createPathItem().GET(operation(
                        "A page of a thread's messages, newest first",
                        "For long threads: `limit` messages older than the message `before` (absent: the newest). The"
                                + " answer's `nextBefore` is the `before` of the next page; it is absent on the last one.",
                        "{messages, nextBefore}", threadId,
                        query("before", "the id of the message the page ends before", SchemaType.STRING), limit)));
    }

    /** An operation that answers 200 with the JSON {@code body} (absent: 204) or an error body. */
    private static Operation operation(String summary, String description, String body, Parameter... parameters) {
        APIResponse ok = body == null ? OASFactory.createAPIResponse().description("Done")
                : OASFactory.createAPIResponse().description(body + " (docs/http-api.md)")
                .content(OASFactory.createContent().addMediaType("application/json", OASFactory.createMediaType()
                        .schema(OASFactory.createSchema().addType(SchemaType.OBJECT))));
        Operation operation = OASFactory.createOperation().summary(summary).description(description)
                .tags(List.of("agui-state-server"))
                .addParameter(OASFactory.createParameter().name("Authorization").in(Parameter.In.HEADER)
                        .description("an API key or a bearer token, when the server asks for one (docs/auth.md)"))
                .responses(OASFactory.createAPIResponses()
                        .addAPIResponse(body == null ? "204" : "200", ok)
                        .addAPIResponse("default", OASFactory.createAPIResponse()
                                .description("{status, code, message} (docs/errors.md)")));
        for (Parameter parameter : parameters) {
            operation.addParameter(parameter);
        }
        return operation;
    }

    private static Parameter path(String name, String description) {
        return OASFactory.createParameter().name(name).in(Parameter.In.PATH).required(true).description(description)
                .schema(OASFactory.createSchema().addType(SchemaType.STRING));
    }

    private static Parameter query(String name, String description, SchemaType type) {
        return OASFactory.createParameter().name(name).in(Parameter.In.QUERY).description(description)
                .schema(OASFactory.createSchema().addType(type));
    }
}
