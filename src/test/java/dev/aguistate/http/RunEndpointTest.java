package dev.aguistate.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.testing.EventStreamVerifier;
import dev.aguistate.testing.RunRequests;
import dev.aguistate.testing.SseClient;
import dev.aguistate.testing.StubResponse;
import dev.aguistate.testing.StubbedLlmProfile;
import dev.aguistate.testing.StubbedLlmTestBase;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Golden event streams of the run loop, driven by the real langchain4j client against the OpenAI-wire stub. */
@QuarkusTest
@TestProfile(StubbedLlmProfile.class)
class RunEndpointTest extends StubbedLlmTestBase {


    @Test
    void textAnswerStreamsAsOneMessageWithUsage() {
        stub.enqueue(StubResponse.stream().text("Hel", "lo", " world").usage(12, 7).build());
        RunRequests request = RunRequests.fresh().user("Say hello");

        SseClient.Stream stream = client.run("/agui", request.json());

        assertEquals(200, stream.response().statusCode());
        assertEquals("text/event-stream", stream.response().headers().firstValue("content-type").orElseThrow());
        assertEquals("no-cache", stream.response().headers().firstValue("cache-control").orElseThrow());
        assertEquals("no", stream.response().headers().firstValue("x-accel-buffering").orElseThrow());
        assertFalse(stream.raw().contains("\r"), "frames are LF-only");
        String run = stream.raw().substring("id: ".length(), stream.raw().indexOf('.'));
        assertTrue(run.matches("[0-9a-z]{1,13}"), "the run named by a short number in base 36: " + stream.raw());
        assertTrue(stream.raw().startsWith("id: " + run + ".1\ndata: {\"type\":\"RUN_STARTED\""), stream.raw());
        String[] frames = stream.raw().split("\n\n");
        for (int i = 0; i < frames.length; i++) {
            assertTrue(frames[i].startsWith("id: " + run + "." + (i + 1) + "\ndata: "),
                    "every frame carries its cursor, numbered from 1: " + frames[i]);
        }
        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        assertEquals("1.0", stream.events().get(0).path("protocolVersion").asText(), "the producer's AG-UI version");
        assertFalse(stream.events().get(0).has("metadata"), "tracing is off unless configured");
        assertEquals(List.of("RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_CONTENT",
                "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"), stream.types());
        assertEquals("Hello world", stream.ofType("TEXT_MESSAGE_CONTENT").stream()
                .map(e -> e.get("delta").asText()).collect(Collectors.joining()));
        assertEquals("assistant", stream.ofType("TEXT_MESSAGE_START").get(0).get("role").asText());
        JsonNode finished = stream.last();
        assertEquals("success", finished.at("/outcome/type").asText());
        assertEquals(12, finished.at("/usage/0/inputTokens").asInt());
        assertEquals(7, finished.at("/usage/0/outputTokens").asInt());
        assertEquals(19, finished.at("/usage/0/totalTokens").asInt());
    }

    @Test
    void requestReachesTheLlmWithConfiguredModelKeyAndHeaders() {
        stub.enqueue(StubResponse.stream().text("ok").build());
        client.run("/agui", RunRequests.fresh().user("hi").json());

        JsonNode sent = stub.lastRequest();
        assertEquals("gpt-test", sent.get("model").asText());
        assertTrue(sent.get("stream").asBoolean());
        assertEquals("Bearer test-key", stub.requestHeaders().get(0).get("authorization"));
        assertEquals("present", stub.requestHeaders().get(0).get("x-test-header"));
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 42, 1234})
    void backendToolRunsAndTheLlmSummarizes(long seed) {
        String arguments = "{\"location\":\"Paris\"}";
        stub.enqueue(StubResponse.stream().toolCall("call_1", "get_weather", arguments)
                .randomArgumentSplits(seed).splitFramesAtBytes(seed).usage(20, 5, 16, 3).build());
        stub.enqueue(StubResponse.stream().text("It is ", "mild in Paris.").usage(40, 8, 32, 0).build());
        RunRequests request = RunRequests.fresh().user("Weather in Paris?");

        SseClient.Stream stream = client.run("/agui/chat", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        List<String> types = stream.types();
        assertEquals("RUN_STARTED", types.get(0));
        assertEquals(List.of("TOOL_CALL_START"), types.subList(1, 2));
        int end = types.indexOf("TOOL_CALL_END");
        assertTrue(types.subList(2, end).stream().allMatch("TOOL_CALL_ARGS"::equals), types.toString());
        assertEquals(List.of("TOOL_CALL_END", "TOOL_CALL_RESULT", "TEXT_MESSAGE_START"), types.subList(end, end + 3));
        assertEquals(List.of("TEXT_MESSAGE_END", "RUN_FINISHED"), types.subList(types.size() - 2, types.size()));

        JsonNode start = stream.ofType("TOOL_CALL_START").get(0);
        assertEquals("call_1", start.get("toolCallId").asText());
        assertEquals("get_weather", start.get("toolCallName").asText());
        assertEquals(arguments, stream.ofType("TOOL_CALL_ARGS").stream().map(e -> e.get("delta").asText())
                .collect(Collectors.joining()));
        JsonNode result = stream.ofType("TOOL_CALL_RESULT").get(0);
        assertEquals("call_1", result.get("toolCallId").asText());
        JsonNode weather = RunRequests.parse(result.get("content").asText());
        assertEquals("Paris", weather.get("location").asText());
        String summaryId = stream.ofType("TEXT_MESSAGE_START").get(0).get("messageId").asText();
        assertNotEquals(start.get("parentMessageId").asText(), summaryId, "each LLM call is its own assistant message");
        ObjectNode counts = stream.last().at("/usage/0").deepCopy();
        counts.remove(List.of("provider", "model"));
        assertEquals(RunRequests.parse("""
                {"inputTokens":60,"outputTokens":13,"totalTokens":73,"cachedInputTokens":48,"reasoningTokens":3}"""),
                counts, "usage sums both LLM calls, with OpenAI's cached and reasoning details");

        // The second LLM call sees the assistant's tool call and the tool's result.
        assertEquals(2, stub.requests().size());
        JsonNode messages = stub.requests().get(1).get("messages");
        JsonNode assistant = messages.get(messages.size() - 2);
        assertEquals("assistant", assistant.get("role").asText());
        assertEquals("call_1", assistant.at("/tool_calls/0/id").asText());
        assertEquals(arguments, assistant.at("/tool_calls/0/function/arguments").asText());
        JsonNode toolMessage = messages.get(messages.size() - 1);
        assertEquals("tool", toolMessage.get("role").asText());
        assertEquals("call_1", toolMessage.get("tool_call_id").asText());
        assertEquals(result.get("content").asText(), toolMessage.get("content").asText());
    }

    @Test
    void parallelToolCallsAllRunAndAnswerInOrder() {
        stub.enqueue(StubResponse.stream()
                .toolCall("call_a", "get_weather", "{\"location\":\"Paris\"}")
                .toolCall("call_b", "get_weather", "{\"location\":\"Berlin\"}")
                .argumentChunks(3, 1, 5).build());
        stub.enqueue(StubResponse.stream().text("Both done.").build());
        RunRequests request = RunRequests.fresh().user("Weather in Paris and Berlin?");

        SseClient.Stream stream = client.run("/agui", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        List<JsonNode> starts = stream.ofType("TOOL_CALL_START");
        assertEquals(List.of("call_a", "call_b"), starts.stream().map(s -> s.get("toolCallId").asText()).toList());
        assertEquals(starts.get(0).get("parentMessageId"), starts.get(1).get("parentMessageId"),
                "parallel calls belong to one assistant message");
        List<JsonNode> results = stream.ofType("TOOL_CALL_RESULT");
        assertEquals(List.of("call_a", "call_b"), results.stream().map(r -> r.get("toolCallId").asText()).toList());
        assertTrue(results.get(1).get("content").asText().contains("Berlin"));
        JsonNode messages = stub.requests().get(1).get("messages");
        assertEquals(2, messages.get(messages.size() - 3).get("tool_calls").size());
        assertEquals("call_b", messages.get(messages.size() - 1).get("tool_call_id").asText());
    }

    @Test
    void frontendToolEndsTheRunAndTheNextRunContinues() {
        String parameters = """
                {"type":"object","properties":{"background":{"type":"string","description":"CSS colour",
                 "x-ui-hint":"colour-picker"}},"required":["background"]}""";
        stub.enqueue(StubResponse.stream().text("Sure.").toolCall("call_fe", "change_background",
                "{\"background\":\"blue\"}").randomArgumentSplits(7).build());
        RunRequests first = RunRequests.fresh().user("Make it blue")
                .tool("change_background", "Change the page background", parameters);

        SseClient.Stream run1 = client.run("/agui", first.json());

        EventStreamVerifier.verify(run1.events(), first.threadId(), first.runId());
        assertTrue(run1.ofType("TOOL_CALL_RESULT").isEmpty(), "the client executes frontend tools");
        assertEquals(List.of("TOOL_CALL_END", "TEXT_MESSAGE_END", "RUN_FINISHED"),
                run1.types().subList(run1.types().size() - 3, run1.types().size()));
        assertEquals(1, stub.requests().size());
        JsonNode offered = toolNamed(stub.lastRequest(), "change_background");
        assertEquals(RunRequests.parse(parameters), offered.at("/function/parameters"),
                "the client's JSON Schema reaches the LLM untouched");
        assertEquals("get_weather", toolNamed(stub.lastRequest(), "get_weather").at("/function/name").asText());

        String messageId = run1.ofType("TOOL_CALL_START").get(0).get("parentMessageId").asText();
        stub.enqueue(StubResponse.stream().text("The background is now blue.").build());
        RunRequests second = RunRequests.of(first.threadId(), "run-2")
                .tool("change_background", "Change the page background", parameters);
        second.messages().addAll(first.messages());
        second.message(RunRequests.parse("""
                {"id":"%s","role":"assistant","content":"Sure.","toolCalls":[{"id":"call_fe","type":"function",
                 "function":{"name":"change_background","arguments":"{\\"background\\":\\"blue\\"}"}}]}"""
                .formatted(messageId)));
        second.message(RunRequests.parse("""
                {"id":"tool-1","role":"tool","toolCallId":"call_fe","content":"Background changed to blue"}"""));

        SseClient.Stream run2 = client.run("/agui", second.json());

        EventStreamVerifier.verify(run2.events(), second.threadId(), "run-2");
        assertTrue(run2.ofType("TOOL_CALL_START").isEmpty());
        JsonNode messages = stub.lastRequest().get("messages");
        JsonNode toolMessage = messages.get(messages.size() - 1);
        assertEquals("call_fe", toolMessage.get("tool_call_id").asText());
        assertEquals("Background changed to blue", toolMessage.get("content").asText());
    }

    @Test
    void aReloadOfAThreadWaitingOnAFrontendCallStillNamesTheCallAsPending() {
        stub.enqueue(StubResponse.stream().text("Sure.").toolCall("call_fe", "change_background",
                "{\"background\":\"blue\"}").build());
        RunRequests first = RunRequests.fresh().user("Make it blue")
                .tool("change_background", "Change the page background", "{\"type\":\"object\",\"properties\":{}}");
        SseClient.Stream run1 = client.run("/agui", first.json());
        assertEquals(RunRequests.JSON.valueToTree(List.of("call_fe")), run1.last().at("/outcome/pendingToolCallIds"));

        RunRequests reload = RunRequests.of(first.threadId(), "run-reload");
        SseClient.Stream restated = client.run("/agui", reload.json());

        EventStreamVerifier.verify(restated.events(), first.threadId(), "run-reload");
        assertEquals(1, stub.requests().size(), "a reload does not call the LLM");
        assertEquals("success", restated.last().at("/outcome/type").asText());
        assertEquals(RunRequests.JSON.valueToTree(List.of("call_fe")), restated.last().at("/outcome/pendingToolCallIds"),
                "the thread still waits for the page to answer the call");
        SseClient.Stream connected = client.run("/agui/chat/connect", RunRequests.of(first.threadId(), "c-1").json());
        assertEquals(RunRequests.JSON.valueToTree(List.of("call_fe")), connected.last().at("/outcome/pendingToolCallIds"),
                "so does a connect that restates the thread");

        reload = RunRequests.of(first.threadId(), "run-moved-on").user("Never mind");
        stub.enqueue(StubResponse.stream().text("OK.").build());
        SseClient.Stream movedOn = client.run("/agui", reload.json());
        assertTrue(movedOn.last().at("/outcome/pendingToolCallIds").isMissingNode(),
                "a call the user passed over is not waited for");
    }

    @Test
    void frontendToolWithoutParametersIsOfferedAsAnEmptyObjectSchema() {
        stub.enqueue(StubResponse.stream().text("ok").build());
        RunRequests request = RunRequests.fresh().user("hi").tool("refresh_page", "Reload the page", null);

        SseClient.Stream stream = client.run("/agui", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        JsonNode offered = toolNamed(stub.lastRequest(), "refresh_page");
        assertEquals("object", offered.at("/function/parameters/type").asText());
    }

    @Test
    void conversationAndContextReachTheLlmFaithfully() {
        stub.enqueue(StubResponse.stream().text("ok").build());
        RunRequests request = RunRequests.fresh()
                .context("Name of the user", "Bob")
                .context("Timezone", "Europe/Paris")
                .message(RunRequests.parse("{\"id\":\"s1\",\"role\":\"system\",\"content\":\"Client system prompt\"}"))
                .message(RunRequests.parse("{\"id\":\"d1\",\"role\":\"developer\",\"content\":\"Developer note\"}"))
                .message(RunRequests.parse("""
                        {"id":"u1","role":"user","content":[{"type":"text","text":"What is in this picture?"},
                         {"type":"image","source":{"type":"url","value":"https://example.com/cat.png"}}]}"""))
                .message(RunRequests.parse("""
                        {"id":"r1","role":"reasoning","content":"private chain of thought","encryptedValue":"xyz"}"""))
                .message(RunRequests.parse("""
                        {"id":"a1","role":"assistant","content":"Let me check.","toolCalls":[{"id":"c1","type":"function",
                         "function":{"name":"get_weather","arguments":"{\\"location\\":\\"Oslo\\"}"}}]}"""))
                .message(RunRequests.parse("{\"id\":\"t1\",\"role\":\"tool\",\"toolCallId\":\"c1\",\"content\":\"cold\"}"))
                .message(RunRequests.parse("""
                        {"id":"x1","role":"activity","activityType":"progress","content":{"percent":50}}"""))
                .user("And now?");

        SseClient.Stream stream = client.run("/agui", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        JsonNode messages = stub.lastRequest().get("messages");
        List<String> roles = new ArrayList<>();
        messages.forEach(m -> roles.add(m.get("role").asText()));
        assertEquals(List.of("system", "system", "system", "system", "user", "assistant", "tool", "user"), roles,
                "instructions, context, client system, developer, user, assistant, tool, user; "
                        + "reasoning and activity stay in the UI");
        assertTrue(messages.get(0).get("content").asText().contains("helpful assistant"), "agent instructions first");
        String context = messages.get(1).get("content").asText();
        assertTrue(context.contains("Name of the user: Bob") && context.contains("Timezone: Europe/Paris"), context);
        assertEquals("Client system prompt", messages.get(2).get("content").asText());
        assertEquals("Developer note", messages.get(3).get("content").asText());
        JsonNode multimodal = messages.get(4).get("content");
        assertEquals("What is in this picture?", multimodal.at("/0/text").asText());
        assertEquals("https://example.com/cat.png", multimodal.at("/1/image_url/url").asText());
        assertEquals("Let me check.", messages.get(5).get("content").asText());
        assertEquals("get_weather", messages.get(5).at("/tool_calls/0/function/name").asText());
        assertEquals("cold", messages.get(6).get("content").asText());
        assertEquals("And now?", messages.get(7).get("content").asText());
    }

    @Test
    void aToolResultOfContentPartsIsKeptAsSentAndItsImageReachesTheLlmAfterTheTurnsResults() {
        stub.enqueue(StubResponse.stream().text("A cat on a sofa.").build());
        String parts = """
                [{"type":"text","text":"Screenshot taken","id":"p1","metadata":{"page":"home"}},
                 {"type":"image","source":{"type":"data","value":"iVBORw0KGgo=","mimeType":"image/png"}},
                 {"type":"document","source":{"type":"url","value":"https://example.com/a.pdf","mimeType":"application/pdf"}}]""";
        RunRequests request = RunRequests.fresh().user("What is on my screen?")
                .tool("take_screenshot", "Screenshot of the page", null)
                .message(RunRequests.parse("""
                        {"id":"a1","role":"assistant","toolCalls":[
                          {"id":"c1","type":"function","function":{"name":"take_screenshot","arguments":"{}"}},
                          {"id":"c2","type":"function","function":{"name":"take_screenshot","arguments":"{}"}}]}"""))
                .message(RunRequests.parse("{\"id\":\"t1\",\"role\":\"tool\",\"toolCallId\":\"c1\",\"content\":"
                        + parts + "}"))
                .message(RunRequests.parse("{\"id\":\"t2\",\"role\":\"tool\",\"toolCallId\":\"c2\",\"content\":\"blank\"}"));

        SseClient.Stream stream = client.run("/agui", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        JsonNode messages = stub.lastRequest().get("messages");
        List<String> roles = new ArrayList<>();
        messages.forEach(m -> roles.add(m.get("role").asText()));
        assertEquals(List.of("system", "user", "assistant", "tool", "tool", "user"), roles,
                "OpenAI wants a turn's tool results together: the media follow them in a user message");
        assertEquals("c1", messages.get(3).get("tool_call_id").asText());
        assertTrue(messages.get(3).get("content").asText().startsWith("Screenshot taken"), messages.get(3).toString());
        assertEquals("blank", messages.get(4).get("content").asText());
        JsonNode media = messages.get(5).get("content");
        assertTrue(media.at("/0/text").asText().contains("c1"), media.toString());
        assertEquals("data:image/png;base64,iVBORw0KGgo=", media.at("/1/image_url/url").asText());
        assertEquals(3, media.size(), "the text note, the image, the document: " + media);
        JsonNode stored = storedThread(request.threadId()).get("messages");
        assertEquals("t1", stored.get(2).get("id").asText());
        assertEquals(RunRequests.parse("{\"c\":" + parts + "}").get("c"), stored.get(2).get("content"),
                "the tool message is stored and returned as sent");
    }

    @Test
    void aFileHandleIsKeptInTheThreadButNotGivenToTheLlm() {
        stub.enqueue(StubResponse.stream().text("Noted.").build());
        String content = """
                [{"type":"text","text":"Summarise these"},
                 {"type":"document","source":{"type":"file","value":"file-abc123","provider":"openai",
                                              "mimeType":"application/pdf"}},
                 {"type":"image","source":{"type":"file","value":"files/xyz","provider":"gemini"}},
                 {"type":"image","source":{"type":"url","value":"https://example.com/cat.png"}}]""";
        RunRequests request = RunRequests.fresh()
                .message(RunRequests.parse("{\"id\":\"u1\",\"role\":\"user\",\"content\":" + content + "}"));

        SseClient.Stream stream = client.run("/agui", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        JsonNode sent = stub.lastRequest().get("messages");
        JsonNode user = sent.get(sent.size() - 1).get("content");
        assertEquals(2, user.size(), "the text and the image by URL; the file handles are dropped: " + user);
        assertEquals("Summarise these", user.at("/0/text").asText());
        assertEquals("https://example.com/cat.png", user.at("/1/image_url/url").asText());
        assertFalse(sent.toString().contains("file-abc123") || sent.toString().contains("files/xyz"), sent.toString());
        assertEquals(RunRequests.parse("{\"c\":" + content + "}").get("c"),
                storedThread(request.threadId()).at("/messages/0/content"), "the thread keeps the parts as sent");
    }

    @Test
    void aFrontendToolCallLeftUnansweredGetsASyntheticResultForTheLlm() {
        stub.enqueue(StubResponse.stream().text("ok").build());
        RunRequests request = RunRequests.fresh().user("Make it blue")
                .message(RunRequests.parse("""
                        {"id":"a1","role":"assistant","toolCalls":[{"id":"c9","type":"function",
                         "function":{"name":"change_background","arguments":"{}"}}]}"""))
                .user("Never mind, tell me a joke");

        SseClient.Stream stream = client.run("/agui", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        assertEquals("RUN_FINISHED", stream.last().get("type").asText());
        JsonNode messages = stub.lastRequest().get("messages");
        JsonNode synthetic = messages.get(messages.size() - 2);
        assertEquals("tool", synthetic.get("role").asText());
        assertEquals("c9", synthetic.get("tool_call_id").asText());
    }

    @Test
    void aToolThatThrowsIsReportedToTheLlmAndTheRunContinues() {
        stub.enqueue(StubResponse.stream().toolCall("call_x", "explode", "{}").build());
        stub.enqueue(StubResponse.stream().text("The tool failed, sorry.").build());
        RunRequests request = RunRequests.fresh().user("Light the fuse");

        SseClient.Stream stream = client.run("/agui/faulty-tools", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        String content = stream.ofType("TOOL_CALL_RESULT").get(0).get("content").asText();
        assertTrue(content.startsWith("Error:") && content.contains("the fuse was lit"), content);
        assertFalse(content.contains("at dev.") || content.contains("IllegalStateException"), "no stack trace: " + content);
        assertEquals("RUN_FINISHED", stream.last().get("type").asText());
    }

    @Test
    void aToolTheModelInventedIsAnsweredWithAnError() {
        stub.enqueue(StubResponse.stream().toolCall("call_y", "launch_rocket", "{}").build());
        stub.enqueue(StubResponse.stream().text("I cannot do that.").build());
        RunRequests request = RunRequests.fresh().user("Launch");

        SseClient.Stream stream = client.run("/agui", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        assertEquals("Error: there is no tool named launch_rocket",
                stream.ofType("TOOL_CALL_RESULT").get(0).get("content").asText());
    }

    @Test
    void aModelThatNeverStopsCallingToolsHitsTheRoundLimit() {
        stub.setDefault(StubResponse.stream().toolCall("call_loop", "get_weather", "{\"location\":\"Rome\"}").build());
        RunRequests request = RunRequests.fresh().user("loop");

        SseClient.Stream stream = client.run("/agui", request.json());

        EventStreamVerifier.verify(stream.events(), request.threadId(), request.runId());
        assertEquals(StubbedLlmProfile.MAX_ROUNDS, stub.requests().size());
        assertEquals("RUN_ERROR", stream.last().get("type").asText());
        assertEquals("max_rounds_exceeded", stream.last().get("code").asText());
        assertEquals(StubbedLlmProfile.MAX_ROUNDS, stream.ofType("TOOL_CALL_RESULT").size());
    }

    @Test
    void twentyConcurrentRunsKeepTheirOwnIdsAndContent() {
        int runs = 20;
        List<RunRequests> requests = IntStream.range(0, runs)
                .mapToObj(i -> RunRequests.fresh().user("question " + i)).toList();
        // The stub answers each request with text naming the question it was asked.
        requests.forEach(r -> stub.enqueue(StubResponse.stream().text("reply").build()));

        List<CompletableFuture<SseClient.Stream>> streams = requests.stream()
                .map(r -> CompletableFuture.supplyAsync(() -> client.run("/agui", r.json()))).toList();

        for (int i = 0; i < runs; i++) {
            SseClient.Stream stream = streams.get(i).join();
            EventStreamVerifier.verify(stream.events(), requests.get(i).threadId(), requests.get(i).runId());
            assertEquals("RUN_FINISHED", stream.last().get("type").asText());
            assertEquals("reply", stream.ofType("TEXT_MESSAGE_CONTENT").get(0).get("delta").asText());
        }
        assertEquals(runs, stub.requests().size());
        List<String> asked = stub.requests().stream()
                .map(r -> r.get("messages").get(r.get("messages").size() - 1).get("content").asText()).sorted().toList();
        assertEquals(IntStream.range(0, runs).mapToObj(i -> "question " + i).sorted().toList(), asked,
                "each run sent its own conversation");
    }

    @Test
    void aLongConversationReachesTheLlmAsItsFirstUserMessageAndItsLatestTurns() {
        stub.enqueue(StubResponse.stream().text("ok").build());
        RunRequests request = RunRequests.fresh();
        for (int i = 0; i < 60; i++) {
            request.message(RunRequests.parse("{\"id\":\"m" + i + "\",\"role\":\"" + (i % 2 == 0 ? "user" : "assistant")
                    + "\",\"content\":\"turn " + i + "\"}"));
        }

        client.run("/agui", request.json());

        JsonNode sent = stub.lastRequest().get("messages");
        List<String> contents = new ArrayList<>();
        sent.forEach(m -> contents.add(m.get("content").asText()));
        List<String> conversation = contents.subList(1, contents.size()); // after the agent's instructions
        assertEquals(StubbedLlmProfile.CONTEXT_MAX_MESSAGES, conversation.size());
        assertEquals("turn 0", conversation.get(0), "the first user message is kept");
        assertEquals("turn 11", conversation.get(1));
        assertEquals("turn 59", conversation.get(conversation.size() - 1));
    }

    private static JsonNode toolNamed(JsonNode request, String name) {
        for (JsonNode tool : request.get("tools")) {
            if (name.equals(tool.at("/function/name").asText())) {
                return tool;
            }
        }
        throw new AssertionError("tool " + name + " not offered: " + request.get("tools"));
    }
}
