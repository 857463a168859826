package dev.aguistate.http;

import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The HTTP methods each path of the JAX-RS resources takes, read from their annotations, for the {@code Allow} header
 * of a 405: JAX-RS refuses a method without saying which ones the path does take. HEAD comes with GET and OPTIONS
 * with every path, as JAX-RS answers them.
 */
final class ResourceMethods {

    private record Route(Pattern path, Set<String> methods) {}

    private final List<Route> routes;

    private ResourceMethods(List<Route> routes) {
        this.routes = routes;
    }

    static ResourceMethods of(Collection<Class<?>> resources) {
        Map<String, Set<String>> methodsByPath = new LinkedHashMap<>();
        for (Class<?> resource : resources) {
            Path root = resource.getAnnotation(Path.class);
            for (Method method : resource.getMethods()) {
                Optional<String> verb = httpMethod(method);
                if (root == null || verb.isEmpty()) {
                    continue;
                }
                Path sub = method.getAnnotation(Path.class);
                Set<String> methods = methodsByPath.computeIfAbsent(
                        template(root.value() + (sub == null ? "" : "/" + sub.value())),
                        path -> new TreeSet<>(Set.of("OPTIONS")));
                methods.add(verb.get());
                if (verb.get().equals("GET")) {
                    methods.add("HEAD");
                }
            }
        }
        return new ResourceMethods(methodsByPath.entrySet().stream()
                .map(e -> new Route(Pattern.compile(e.getKey()), e.getValue())).toList());
    }

    /** {@code GET, HEAD, OPTIONS} for a path a resource serves; empty for any other path. */
    Optional<String> allowedOn(String path) {
        return routes.stream().filter(r -> r.path().matcher(path).matches()).findFirst()
                .map(r -> String.join(", ", r.methods()));
    }

    private static Optional<String> httpMethod(Method method) {
        for (Annotation annotation : method.getAnnotations()) {
            HttpMethod verb = annotation.annotationType().getAnnotation(HttpMethod.class);
            if (verb != null) {
                return Optional.of(verb.value());
            }
        }
        return Optional.empty();
    }

    /** {@code /threads/{threadId}} → {@code /threads/[^/]+}; {@code {name: regex}} keeps its regex. */
    private static String template(String path) {
        return Pattern.compile("/+").splitAsStream(path).filter(s -> !s.isEmpty())
                .map(segment -> segment.startsWith("{") && segment.endsWith("}")
                        ? (segment.contains(":") ? segment.substring(segment.indexOf(':') + 1, segment.length() - 1)
                                .trim() : "[^/]+")
                        : Pattern.quote(segment))
                .collect(Collectors.joining("/", "/", "/?"));
    }
}
