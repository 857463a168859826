package dev.aguistate.store.redis;

import dev.aguistate.store.ThreadKey;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.redis.client.Command;
import io.vertx.mutiny.redis.client.Redis;
import io.vertx.mutiny.redis.client.Request;
import io.vertx.mutiny.redis.client.Response;
import java.util.ArrayList;
import java.util.List;

/**
 * Moves the threads that a server from before owner keys stored ({@code agui:thread:<id>}, one namespace for all
 * users) to their owner's key ({@link RedisThreadStore}), keeping their contents and expiry; runs at start-up, before
 * the store serves. A thread whose owner's key is taken already (by a thread a new server stored since) is left
 * where it is and expires. The claims and summarizing locks of the old keys are not moved: they lapse within
 * {@code agui.store.lock-ttl}. Old and new servers cannot share a Redis: stop the old replicas first.
 */
public final class RedisKeyUpgrade {

    private static final String LEGACY_THREAD = "agui:thread:";
    /** Keys looked at per SCAN step. */
    private static final int SCAN_COUNT = 1000;

    private final Redis redis;

    public RedisKeyUpgrade(Redis redis) {
        this.redis = redis;
    }

    /** Moves every thread stored under an old key; how many it moved. */
    public Uni<Integer> moveUnownedThreads() {
        return step("0", 0);
    }

    private Uni<Integer> step(String cursor, int movedSoFar) {
        return redis.send(Request.cmd(Command.SCAN).arg(cursor).arg("MATCH").arg(LEGACY_THREAD + "*")
                        .arg("COUNT").arg(SCAN_COUNT))
                .chain(page -> {
                    List<String> keys = new ArrayList<>();
                    page.get(1).forEach(key -> keys.add(key.toString()));
                    String next = page.get(0).toString();
                    return Multi.createFrom().iterable(keys).onItem().transformToUniAndConcatenate(this::move)
                            .collect().asList().map(moves -> (int) moves.stream().filter(moved -> moved).count())
                            .chain(moved -> next.equals("0") ? Uni.createFrom().item(movedSoFar + moved)
                                    : step(next, movedSoFar + moved));
                });
    }

    /** RENAMENX: the owner's key is written only if nothing is there yet. */
    private Uni<Boolean> move(String legacyKey) {
        String threadId = legacyKey.substring(LEGACY_THREAD.length());
        return redis.send(Request.cmd(Command.HGET).arg(legacyKey).arg("owner")).chain((Response owner) -> owner == null
                ? Uni.createFrom().item(false)
                : redis.send(Request.cmd(Command.RENAMENX).arg(legacyKey)
                                .arg(RedisThreadStore.threadKey(new ThreadKey(owner.toString(), threadId))))
                        .map(renamed -> renamed.toInteger() == 1));
    }
}
