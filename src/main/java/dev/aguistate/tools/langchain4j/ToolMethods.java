package dev.aguistate.tools.langchain4j;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.aguistate.tools.BackendTool;
import dev.aguistate.tools.ToolContext;
import dev.aguistate.tools.ToolFailure;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.agent.tool.ToolSpecifications;
import dev.langchain4j.internal.JsonSchemaElementUtils;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The langchain4j {@code @Tool} methods of an object as backend tools, so that code a team already wrote for
 * langchain4j serves an agent as it is. A tool's name is {@code @Tool(name)} or the method's; its description the
 * {@code @Tool} text; its parameters' JSON Schema is what langchain4j makes of their Java types (records, enums,
 * lists and {@code @P} descriptions included). A parameter of type {@link ToolContext} is not shown to the LLM: it
 * receives the call's context (the run's state, the caller). The method runs on a worker thread, like every
 * backend tool, so it may block; a {@code Uni} or {@code CompletionStage} it returns is awaited.
 */
public final class ToolMethods {

    private static final ObjectMapper JSON = new ObjectMapper().findAndRegisterModules();

    private ToolMethods() {}

    /**
     * The tools of {@code target}'s {@code @Tool} methods, in declaration order; {@code target} may be a CDI client
     * proxy (the annotations are read off the class it stands for).
     *
     * @throws IllegalArgumentException naming the class and the method when a method cannot be a tool
     */
    public static List<BackendTool> of(Object target) {
        return List.copyOf(byMethod(target).values());
    }

    /** The same tools by the method each calls (its {@link #describe} names it in messages). */
    static Map<Method, BackendTool> byMethod(Object target) {
        Map<Method, BackendTool> tools = new LinkedHashMap<>();
        Map<String, Method> byName = new HashMap<>();
        for (Method method : toolMethods(target.getClass())) {
            BackendTool tool = tool(target, method);
            Method earlier = byName.putIfAbsent(tool.name(), method);
            if (earlier != null) {
                throw new IllegalArgumentException("two @Tool methods are named '" + tool.name() + "': "
                        + describe(earlier) + " and " + describe(method));
            }
            tools.put(method, tool);
        }
        return tools;
    }

    /** Whether the class (or one it extends) declares a {@code @Tool} method. */
    public static boolean hasToolMethods(Class<?> type) {
        return !toolMethods(type).isEmpty();
    }

    /** The methods annotated {@code @Tool} of the class and the classes it extends; a proxy's overrides carry none. */
    private static List<Method> toolMethods(Class<?> type) {
        List<Method> methods = new ArrayList<>();
        for (Class<?> declaring = type; declaring != null && declaring != Object.class;
             declaring = declaring.getSuperclass()) {
            for (Method method : declaring.getDeclaredMethods()) {
                if (method.isAnnotationPresent(Tool.class) && !method.isBridge()) {
                    methods.add(method);
                }
            }
        }
        return methods;
    }

    private static BackendTool tool(Object target, Method method) {
        if (Modifier.isPrivate(method.getModifiers())) {
            // a CDI client proxy forwards only the methods it can override; a private one would run on the proxy
            throw bad(method, "must not be private");
        }
        List<Argument> arguments = new ArrayList<>();
        for (Parameter parameter : method.getParameters()) {
            arguments.add(argument(method, parameter));
        }
        if (arguments.stream().filter(Argument::isContext).count() > 1) {
            throw bad(method, "takes more than one ToolContext");
        }
        ToolSpecification spec;
        try {
            spec = ToolSpecifications.toolSpecificationFrom(method);
        } catch (RuntimeException e) {
            throw bad(method, "has parameters langchain4j cannot describe (" + e.getMessage() + ")");
        }
        // a method without parameters has none described
        ObjectNode parameters = spec.parameters() == null ? JSON.createObjectNode().put("type", "object")
                : JSON.valueToTree(JsonSchemaElementUtils.toMap(spec.parameters()));
        for (Argument argument : arguments) {
            if (argument.isContext()) {
                parameters.with("properties").remove(argument.name());
                removeRequired(parameters, argument.name());
            }
        }
        method.setAccessible(true);
        try {
            return BackendTool.builder(spec.name())
                    .description(spec.description())
                    .parameters(parameters)
                    .handler((args, context) -> invoke(target, method, arguments, args, context));
        } catch (IllegalArgumentException e) {
            throw bad(method, "cannot be a tool: " + e.getMessage());
        }
    }

    private static Argument argument(Method method, Parameter parameter) {
        if (ToolContext.class.equals(parameter.getType())) {
            return new Argument(parameter.getName(), null);
        }
        P annotation = parameter.getAnnotation(P.class);
        String name = annotation != null && !annotation.name().isBlank() ? annotation.name() : parameter.getName();
        if (!parameter.isNamePresent() && (annotation == null || annotation.name().isBlank())) {
            throw bad(method, "has a parameter without a name (" + parameter.getName()
                    + "): compile with -parameters (maven-compiler-plugin <parameters>true</parameters>) or name it"
                    + " with @P(name = ...)");
        }
        return new Argument(name, JSON.getTypeFactory().constructType(parameter.getParameterizedType()));
    }

    private static Object invoke(Object target, Method method, List<Argument> arguments, JsonNode args,
                                 ToolContext context) throws Exception {
        Object[] values = new Object[arguments.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = arguments.get(i).value(args, context);
        }
        try {
            return method.invoke(target, values);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof Exception failure) {
                throw failure;
            }
            throw e;
        }
    }

    private static void removeRequired(ObjectNode schema, String name) {
        JsonNode required = schema.path("required");
        for (int i = required.size() - 1; i >= 0; i--) {
            if (name.equals(required.get(i).asText())) {
                schema.withArray("required").remove(i);
            }
        }
    }

    private static IllegalArgumentException bad(Method method, String problem) {
        return new IllegalArgumentException("@Tool method " + describe(method) + " " + problem);
    }

    /** {@code com.example.OrderTools#lookupOrder}. */
    static String describe(Method method) {
        return method.getDeclaringClass().getName() + "#" + method.getName();
    }

    /** A parameter of a tool method: an argument of the LLM's, by name and type, or (type null) the call's context. */
    private record Argument(String name, JavaType type) {

        boolean isContext() {
            return type == null;
        }

        Object value(JsonNode arguments, ToolContext context) throws ToolFailure {
            if (isContext()) {
                return context;
            }
            JsonNode value = arguments.get(name);
            if (value == null || value.isNull()) {
                if (type.isPrimitive()) {
                    throw new ToolFailure(ToolFailure.Kind.INVALID_ARGUMENTS, "missing argument '" + name + "'", null);
                }
                return null;
            }
            try {
                return JSON.treeToValue(value, type);
            } catch (Exception e) {
                throw new ToolFailure(ToolFailure.Kind.INVALID_ARGUMENTS, "argument '" + name + "' is not a "
                        + type.getRawClass().getSimpleName() + ": " + value, e);
            }
        }
    }
}
