package dev.aguistate.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A TCP proxy on 127.0.0.1 in front of a real server (Redis, PostgreSQL) that misbehaves the way networks and
 * servers do, on command:
 *
 * <ul>
 *   <li>{@link #pass()}: forwards both ways, and delivers what a stall held (a healed network). The start state.</li>
 *   <li>{@link #stall()}: accepts connections and bytes but forwards nothing, either way, on open and new
 *       connections alike: a server that went silent without going down. Clients see no error, only no answer.</li>
 *   <li>{@link #cut()}: closes every open connection at once; what a stall held is lost. Connections made later are
 *       served as the mode says.</li>
 *   <li>{@link #failOver()}: the connections open now stay silent for good while new ones pass: a server replaced,
 *       or a network path that dropped its flows, without telling the clients.</li>
 *   <li>{@link #down()}: closes every open connection, and each new one as soon as it is made, until
 *       {@link #pass()}: a server that stopped. Clients fail at once.</li>
 * </ul>
 *
 * Each connection has two pumps, one per direction; a pump holds a chunk it read until the mode lets it through
 * (the rest waits in the socket buffers).
 */
public final class FaultyTcpProxy implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(FaultyTcpProxy.class.getName());
    private static final int CHUNK = 16 * 1024;

    /** One proxied connection. */
    private final class Link {
        final Socket client;
        final Socket server;
        boolean abandoned; // guarded by FaultyTcpProxy.this
        boolean closed; // guarded by FaultyTcpProxy.this

        Link(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        /** {@code requests}: from the client to the server. */
        void pump(Socket from, Socket to, boolean requests) {
            byte[] chunk = new byte[CHUNK];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int read = in.read(chunk); read >= 0; read = in.read(chunk)) {
                    if (!awaitPassage(this, requests)) {
                        return;
                    }
                    out.write(chunk, 0, read);
                    out.flush();
                }
            } catch (IOException endOfConnection) {
                // either side closed, or cut() did
            } finally {
                close(this);
            }
        }
    }

    private final URI server;
    private final ServerSocket listener;
    private final ExecutorService threads = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "faulty-tcp-proxy");
        thread.setDaemon(true);
        return thread;
    });
    private final Set<Link> links = new HashSet<>(); // guarded by this
    private boolean stalled; // guarded by this
    private boolean down; // guarded by this
    private int heldRequests; // guarded by this: pumps holding bytes on their way to the server
    private volatile boolean closed;

    private FaultyTcpProxy(URI server, ServerSocket listener) {
        this.server = server;
        this.listener = listener;
        threads.execute(this::acceptLoop);
    }

    /**
     * A proxy on a free port of 127.0.0.1 in front of the server that {@code url} names
     * ({@code redis://host:port}, {@code postgresql://user@host:port/db}).
     */
    public static FaultyTcpProxy inFrontOf(String url) {
        URI server = URI.create(url);
        try {
            ServerSocket listener = new ServerSocket();
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            return new FaultyTcpProxy(server, listener);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot bind the proxy", e);
        }
    }

    /** The server's URL with the proxy's address in place of the server's: what a client should use. */
    public String url() {
        try {
            return new URI(server.getScheme(), server.getUserInfo(), "127.0.0.1", listener.getLocalPort(),
                    server.getPath(), server.getQuery(), server.getFragment()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException(server.toString(), e);
        }
    }

    public synchronized void pass() {
        stalled = false;
        down = false;
        notifyAll();
    }

    public synchronized void stall() {
        down = false;
        stalled = true;
    }

    public synchronized void cut() {
        Set.copyOf(links).forEach(this::close);
    }

    public synchronized void down() {
        down = true;
        stalled = false;
        cut();
    }

    public synchronized void failOver() {
        links.forEach(link -> link.abandoned = true);
        pass();
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(listener);
        cut();
        threads.shutdownNow();
    }

    private void acceptLoop() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                if (!closed) {
                    LOG.log(System.Logger.Level.ERROR, "the proxy stopped accepting connections", e);
                }
                return;
            }
            if (isDown()) {
                closeQuietly(client);
                continue;
            }
            try {
                Socket upstream = new Socket(server.getHost(), server.getPort());
                client.setTcpNoDelay(true);
                upstream.setTcpNoDelay(true);
                Link link = new Link(client, upstream);
                synchronized (this) {
                    links.add(link);
                }
                threads.execute(() -> link.pump(client, upstream, true));
                threads.execute(() -> link.pump(upstream, client, false));
            } catch (IOException | RejectedExecutionException e) {
                closeQuietly(client);
            }
        }
    }

    private synchronized boolean isDown() {
        return down;
    }

    /**
     * Waits until a stall holds bytes on their way to the server: a request was sent and will get no answer.
     *
     * @throws AssertionError when none is held within {@code timeout}
     */
    public synchronized void awaitHeldRequest(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (heldRequests == 0) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0) {
                throw new AssertionError("the proxy held no request within " + timeout);
            }
            try {
                wait(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /** Waits until the link may forward; false when it was closed meanwhile. */
    private synchronized boolean awaitPassage(Link link, boolean request) {
        boolean held = false;
        while ((stalled || link.abandoned) && !link.closed) {
            if (!held && request) {
                held = true;
                heldRequests++;
                notifyAll();
            }
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        if (held) {
            heldRequests--;
        }
        return !link.closed && !Thread.currentThread().isInterrupted();
    }

    private synchronized void close(Link link) {
        link.closed = true;
        links.remove(link);
        closeQuietly(link.client);
        closeQuietly(link.server);
        notifyAll();
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // closing is all that is left to do
        }
    }
}
