package dev.aguistate.http;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.impl.ConnectionBase;

/**
 * Writes each chunk of a chunked HTTP/1.1 response body as one buffer (size line, data, CRLF), the bytes Netty's
 * response encoder would write for it, in one write instead of three.
 *
 * <p>Why: the encoder writes a chunk as three buffers, and unless the write's promise is the channel's own void
 * promise it ties them together with a {@code PromiseCombiner} and a new promise per buffer. Vert.x writes a response
 * chunk with a void promise of its own (failures not fired down the pipeline), so every frame of an event stream paid
 * for those objects. This handler sits just above the encoder (toward the application) for one response: it frames a
 * non-empty body chunk itself and hands it on below the encoder with the same promise, so a failed write fails as it
 * did. Everything else (the head, the first chunk Vert.x sends with the head, an empty chunk, the last chunk and its
 * trailers) goes through the encoder as before; with compression on, the chunks it frames are the compressor's.
 * After the response's last chunk it removes itself, so a later response on the same connection is untouched.
 */
final class OneBufferChunks extends ChannelOutboundHandlerAdapter {

    static final String NAME = "agui-one-buffer-chunks";
    /** Vert.x's name for its HTTP/1.x response encoder in a server connection's pipeline. */
    static final String ENCODER = "httpEncoder";

    private static final short CRLF = ('\r' << 8) | '\n';

    private final ChannelHandlerContext encoder;
    private boolean chunked;

    private OneBufferChunks(ChannelHandlerContext encoder) {
        this.encoder = encoder;
    }

    /**
     * Puts the handler above the encoder of this request's connection, for the response about to be written; does
     * nothing where it does not apply (HTTP/2, a HEAD request, a connection that is not Vert.x's HTTP/1.x one).
     * Called on the connection's event loop, before the response's head is written.
     */
    static void install(HttpServerRequest request) {
        if (request.version() == HttpVersion.HTTP_2 || request.method() == HttpMethod.HEAD
                || !(request.connection() instanceof ConnectionBase connection)) {
            return;
        }
        install(connection.channelHandlerContext().pipeline());
    }

    static void install(ChannelPipeline pipeline) {
        ChannelHandlerContext encoder = pipeline.context(ENCODER);
        if (encoder != null && pipeline.get(NAME) == null) {
            pipeline.addAfter(ENCODER, NAME, new OneBufferChunks(encoder));
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (chunked && msg instanceof HttpContent content && !(msg instanceof LastHttpContent)
                && !(msg instanceof HttpMessage) && content.content().isReadable()) {
            ByteBuf chunk;
            try {
                chunk = framed(ctx, content.content());
            } finally {
                content.release();
            }
            encoder.write(chunk, promise); // below the encoder: the bytes it would have written
            return;
        }
        if (msg instanceof HttpResponse head) {
            chunked = HttpUtil.isTransferEncodingChunked(head);
        }
        ctx.write(msg, promise);
        if (msg instanceof LastHttpContent) {
            ctx.pipeline().remove(this);
        }
    }

    /** {@code <size in lowercase hex>\r\n<data>\r\n}, as the encoder frames a chunk. */
    private static ByteBuf framed(ChannelHandlerContext ctx, ByteBuf data) {
        int length = data.readableBytes();
        int digits = (Integer.SIZE - Integer.numberOfLeadingZeros(length) + 3) / 4;
        ByteBuf chunk = ctx.alloc().buffer(digits + 2 + length + 2);
        for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) {
            chunk.writeByte(Character.forDigit((length >>> shift) & 0xF, 16));
        }
        chunk.writeShort(CRLF);
        chunk.writeBytes(data, data.readerIndex(), length);
        chunk.writeShort(CRLF);
        return chunk;
    }
}
