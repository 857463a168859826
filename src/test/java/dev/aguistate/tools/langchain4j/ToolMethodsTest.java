package dev.aguistate.tools.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.aguistate.tools.BackendTool;
import dev.aguistate.tools.ToolContext;
import dev.aguistate.tools.ToolFailure;
import dev.aguistate.tools.ToolInvoker;
import dev.aguistate.tools.ToolOutcome;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/** langchain4j {@code @Tool} methods read as backend tools, and called the way a run calls every backend tool. */
@Execution(ExecutionMode.CONCURRENT)
class ToolMethodsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    enum Speed { STANDARD, EXPRESS }

    record Address(String city, String zip) {}

    public static class Shipping {
        volatile Thread ranOn;

        @Tool("Ships an order to an address.")
        public String ship(@P("the order's number") String orderNumber, Address to, Speed speed, ToolContext context) {
            ranOn = Thread.currentThread();
            return orderNumber + " to " + to.city() + " " + to.zip() + ", " + speed;
        }

        @Tool(name = "eta", value = "When an order arrives.")
        public Uni<String> arrival(String orderNumber) {
            return Uni.createFrom().item(orderNumber + " arrives Monday").onItem().delayIt().by(Duration.ofMillis(20));
        }

        @Tool("How much shipping costs.")
        public CompletionStage<Map<String, Integer>> cost(int parcels) {
            return CompletableFuture.supplyAsync(() -> Map.of("euros", 5 * parcels));
        }

        public String notATool() {
            return "";
        }
    }

    @Test
    void nameDescriptionAndSchemaComeFromTheAnnotationsAndTheJavaTypes() throws Exception {
        Map<String, BackendTool> tools = byName(new Shipping());

        assertEquals(List.of("cost", "eta", "ship"), tools.keySet().stream().sorted().toList());
        BackendTool ship = tools.get("ship");
        assertEquals("Ships an order to an address.", ship.description());
        assertEquals(JSON.readTree("""
                {"type":"object","properties":{
                  "orderNumber":{"type":"string","description":"the order's number"},
                  "to":{"type":"object","properties":{"city":{"type":"string"},
                                                      "zip":{"type":"string"}},
                        "required":["city","zip"]},
                  "speed":{"type":"string","enum":["STANDARD","EXPRESS"]}},
                 "required":["orderNumber","to","speed"]}"""), ship.parameters(),
                "the ToolContext parameter is not the LLM's to fill");
        assertEquals("When an order arrives.", tools.get("eta").description());
        assertEquals(JSON.readTree("{\"type\":\"integer\"}"), tools.get("cost").parameters().at("/properties/parcels"));
    }

    @Test
    void argumentsAreBoundToRecordsAndEnumsAndTheMethodRunsOnAWorkerThread() {
        Shipping shipping = new Shipping();

        ToolOutcome outcome = call(byName(shipping).get("ship"),
                "{\"orderNumber\":\"A-17\",\"to\":{\"city\":\"Lyon\",\"zip\":\"69001\"},\"speed\":\"EXPRESS\"}");

        assertEquals("A-17 to Lyon 69001, EXPRESS", text(outcome));
        assertNotEquals(Thread.currentThread(), shipping.ranOn);
    }

    @Test
    void aUniOrCompletionStageIsAwaited() {
        Map<String, BackendTool> tools = byName(new Shipping());

        assertEquals("A-17 arrives Monday", text(call(tools.get("eta"), "{\"orderNumber\":\"A-17\"}")));
        assertEquals("{\"euros\":15}", text(call(tools.get("cost"), "{\"parcels\":3}")));
    }

    @Test
    void anArgumentOfTheWrongTypeIsTheLlmsToCorrect() {
        ToolOutcome outcome = call(byName(new Shipping()).get("ship"),
                "{\"orderNumber\":\"A-17\",\"to\":{\"city\":\"Lyon\"},\"speed\":\"BY_DRONE\"}");

        ToolOutcome.Failure failure = assertInstanceOf(ToolOutcome.Failure.class, outcome);
        assertEquals(ToolFailure.Kind.INVALID_ARGUMENTS, failure.failure().kind());
        assertEquals("Error: argument 'speed' is not a Speed: \"BY_DRONE\"", failure.content().text());
    }

    @Test
    void anExceptionOfTheMethodIsTheToolsFailure() {
        Object failing = new Object() {
            @Tool("Always fails.")
            public String broken() {
                throw new IllegalStateException("the order service is down");
            }
        };

        ToolOutcome.Failure failure = assertInstanceOf(ToolOutcome.Failure.class,
                call(ToolMethods.of(failing).get(0), "{}"));
        assertEquals("tool broken failed: the order service is down", failure.failure().getMessage());
    }

    static class PrivateTool {
        @Tool("hidden")
        private String secret() {
            return "";
        }
    }

    static class TwoContexts {
        @Tool("two contexts")
        public String both(ToolContext first, ToolContext second) {
            return "";
        }
    }

    static class SameName {
        @Tool(name = "find", value = "by number")
        public String byNumber(String number) {
            return number;
        }

        @Tool(name = "find", value = "by customer")
        public String byCustomer(String customer) {
            return customer;
        }
    }

    @Test
    void aMethodThatCannotBeAToolIsNamedWithItsClass() {
        assertEquals("@Tool method " + PrivateTool.class.getName() + "#secret must not be private",
                assertThrows(IllegalArgumentException.class, () -> ToolMethods.of(new PrivateTool())).getMessage());
        assertEquals("@Tool method " + TwoContexts.class.getName() + "#both takes more than one ToolContext",
                assertThrows(IllegalArgumentException.class, () -> ToolMethods.of(new TwoContexts())).getMessage());
        String clash = assertThrows(IllegalArgumentException.class, () -> ToolMethods.of(new SameName())).getMessage();
        assertTrue(clash.startsWith("two @Tool methods are named 'find': "), clash);
        for (String method : List.of("#byNumber", "#byCustomer")) {
            assertTrue(clash.contains(SameName.class.getName() + method), clash);
        }
    }

    private static Map<String, BackendTool> byName(Object target) {
        return ToolMethods.of(target).stream().collect(Collectors.toMap(BackendTool::name, Function.identity()));
    }

    private static ToolOutcome call(BackendTool tool, String arguments) {
        return ToolInvoker.invoke(tool, arguments, Map.of(), null).await().atMost(Duration.ofSeconds(10));
    }

    private static String text(ToolOutcome outcome) {
        ToolOutcome.Success success = assertInstanceOf(ToolOutcome.Success.class, outcome, () -> outcome.toString());
        return success.content().text();
    }
}
