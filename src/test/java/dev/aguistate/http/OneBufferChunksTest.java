package dev.aguistate.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelPromise;
import io.netty.channel.VoidChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseEncoder;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.net.impl.ConnectionBase;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * {@link OneBufferChunks} against Netty's response encoder alone: the same bytes on the wire, one buffer per chunk.
 */
@Execution(ExecutionMode.CONCURRENT)
class OneBufferChunksTest {

    /** Chunk sizes around the hex digit boundaries, and an empty chunk (which the encoder writes as it likes). */
    private static final int[] SIZES = {1, 15, 16, 255, 256, 300, 0, 4095, 4096, 70_000};

    @Test
    void aChunkedResponseIsTheSameBytesInOneWritePerChunk() {
        byte[][] bodies = bodies();
        Written plain = write(false, chunkedHead(), bodies, true);
        Written framed = write(true, chunkedHead(), bodies, true);

        assertArrayEquals(plain.bytes, framed.bytes);
        assertTrue(new String(framed.bytes, StandardCharsets.ISO_8859_1).contains("\r\n1000\r\n"),
                "the 4,096-byte chunk is sized in lowercase hex");
        for (int i = 0; i < SIZES.length; i++) {
            if (SIZES[i] > 0) {
                assertEquals(3, plain.writesPerChunk.get(i), "the encoder alone: size line, data, CRLF");
                assertEquals(1, framed.writesPerChunk.get(i), "framed above the encoder: one buffer");
            }
        }
    }

    /**
     * In Vert.x's own HTTP/1.x server: the handler finds the encoder by the name Vert.x gives it (an upgrade that
     * renames it would leave every frame unframed, silently), and the client reads the chunks it framed.
     */
    @Test
    void itSitsInVertxsOwnServerPipelineAndTheClientReadsItsChunks() throws Exception {
        Vertx vertx = Vertx.vertx();
        try {
            CompletableFuture<Boolean> installed = new CompletableFuture<>();
            HttpServer server = vertx.createHttpServer().requestHandler(request -> {
                OneBufferChunks.install(request);
                installed.complete(((ConnectionBase) request.connection()).channelHandlerContext().pipeline()
                        .get(OneBufferChunks.NAME) != null);
                HttpServerResponse response = request.response().setChunked(true);
                response.write("data: one\n\n");
                response.write("data: two\n\n");
                response.end();
            }).listen(0).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);

            java.net.http.HttpResponse<String> answer = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()
                    .send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.actualPort() + "/")).build(),
                            java.net.http.HttpResponse.BodyHandlers.ofString());

            assertTrue(installed.get(10, TimeUnit.SECONDS), "no " + OneBufferChunks.ENCODER + " in Vert.x's pipeline");
            assertEquals("data: one\n\ndata: two\n\n", answer.body());
            assertEquals("chunked", answer.headers().firstValue("transfer-encoding").orElse(null));
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void itLeavesTheConnectionAfterTheResponsesLastChunk() {
        EmbeddedChannel channel = channel(true);
        channel.writeOutbound(chunkedHead());
        channel.writeOutbound(new DefaultHttpContent(Unpooled.wrappedBuffer(new byte[] {'a'})));
        assertNotNull(channel.pipeline().get(OneBufferChunks.NAME));
        channel.writeOutbound(LastHttpContent.EMPTY_LAST_CONTENT);
        assertNull(channel.pipeline().get(OneBufferChunks.NAME));
        channel.finishAndReleaseAll();
    }

    @Test
    void aResponseWithAContentLengthGoesThroughTheEncoderUnchanged() {
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        byte[][] bodies = {"abc".getBytes(StandardCharsets.US_ASCII), "de".getBytes(StandardCharsets.US_ASCII)};
        head.headers().set(HttpHeaderNames.CONTENT_LENGTH, 5);
        HttpResponse again = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        again.headers().set(HttpHeaderNames.CONTENT_LENGTH, 5);

        Written plain = write(false, head, bodies, true);
        Written framed = write(true, again, bodies, true);

        assertArrayEquals(plain.bytes, framed.bytes);
        assertTrue(new String(framed.bytes, StandardCharsets.ISO_8859_1).endsWith("\r\n\r\nabcde"));
    }

    @Test
    void aFramedChunkFailsTheWritesOwnPromise() {
        EmbeddedChannel channel = channel(true);
        channel.writeOutbound(chunkedHead());
        channel.close();
        ChannelPromise promise = channel.newPromise();
        channel.writeAndFlush(new DefaultHttpContent(Unpooled.wrappedBuffer(new byte[] {'a'})), promise);
        assertTrue(promise.isDone());
        assertFalse(promise.isSuccess());
        channel.finishAndReleaseAll();
    }

    private record Written(byte[] bytes, List<Integer> writesPerChunk) {}

    /** Writes a response as Vert.x does (a void promise of its own per chunk) and collects what reaches the socket. */
    private static Written write(boolean framed, HttpResponse head, byte[][] bodies, boolean end) {
        EmbeddedChannel channel = channel(framed);
        ByteArrayOutputStream wire = new ByteArrayOutputStream();
        channel.writeOutbound(head);
        drain(channel, wire);
        List<Integer> writesPerChunk = new ArrayList<>();
        for (byte[] body : bodies) {
            channel.writeAndFlush(new DefaultHttpContent(Unpooled.wrappedBuffer(body)),
                    new VoidChannelPromise(channel, false));
            writesPerChunk.add(drain(channel, wire));
        }
        if (end) {
            channel.writeOutbound(new DefaultLastHttpContent());
            drain(channel, wire);
        }
        channel.finishAndReleaseAll();
        return new Written(wire.toByteArray(), writesPerChunk);
    }

    private static EmbeddedChannel channel(boolean framed) {
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.pipeline().addLast(OneBufferChunks.ENCODER, new HttpResponseEncoder());
        if (framed) {
            OneBufferChunks.install(channel.pipeline());
        }
        return channel;
    }

    /** The buffers written since the last call, appended to {@code wire}; how many there were. */
    private static int drain(EmbeddedChannel channel, ByteArrayOutputStream wire) {
        int count = 0;
        for (Object out = channel.readOutbound(); out != null; out = channel.readOutbound()) {
            ByteBuf buffer = (ByteBuf) out;
            byte[] bytes = new byte[buffer.readableBytes()];
            buffer.readBytes(bytes);
            buffer.release();
            wire.writeBytes(bytes);
            count++;
        }
        return count;
    }

    private static HttpResponse chunkedHead() {
        HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        head.headers().set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
        return head;
    }

    private static byte[][] bodies() {
        Random random = new Random(31);
        byte[][] bodies = new byte[SIZES.length][];
        for (int i = 0; i < SIZES.length; i++) {
            bodies[i] = new byte[SIZES[i]];
            random.nextBytes(bodies[i]);
        }
        return bodies;
    }
}
