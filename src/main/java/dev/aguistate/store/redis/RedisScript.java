package dev.aguistate.store.redis;

import dev.aguistate.store.ClasspathText;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * A Lua script from {@code src/main/resources/redis}. It runs by its SHA-1 (EVALSHA), so its text crosses the
 * network only when the server does not know it yet: the first time, and after a restart or SCRIPT FLUSH.
 */
final class RedisScript {

    private final String source;
    private final String sha1;

    private RedisScript(String source) {
        this.source = source;
        this.sha1 = sha1(source);
    }

    /** The script {@code redis/<name>.lua}. */
    static RedisScript named(String name) {
        return new RedisScript(ClasspathText.read("/redis/" + name + ".lua"));
    }

    /** The script's reply; {@code null} when it returned nil. */
    Uni<Response> run(Redis redis, List<String> keys, List<String> args) {
        return redis.send(request(Command.EVALSHA, sha1, keys, args))
                .onFailure(RedisScript::unknownToServer)
                .recoverWithUni(() -> redis.send(request(Command.EVAL, source, keys, args)));
    }

    private static Request request(Command command, String script, List<String> keys, List<String> args) {
        Request request = Request.cmd(command).arg(script).arg(keys.size());
        keys.forEach(request::arg);
        args.forEach(request::arg);
        return request;
    }

    private static boolean unknownToServer(Throwable failure) {
        return failure.getMessage() != null && failure.getMessage().startsWith("NOSCRIPT");
    }

    private static String sha1(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-1", e);
        }
    }
}
