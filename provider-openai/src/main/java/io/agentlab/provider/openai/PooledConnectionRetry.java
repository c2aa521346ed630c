package io.agentlab.provider.openai;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.net.Proxy;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.ConnectionPool;
import okhttp3.EventListener;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.apiguardian.api.API;

/**
 * What OkHttp reported about one attempt of a call, and whether the call may be sent once more.
 *
 * <p>Servers such as llama.cpp's close a kept-alive connection shortly after each stream without saying so; a request
 * written on that dead connection in the window before the close is noticed never reached the server, so nothing was
 * processed or billed. Such a call is sent once more on a fresh connection. A call that opened its own connection, or
 * that received response headers, or that timed out (a silent server may be working on it), is never sent again
 * ({@code docs/design.md#provider-streaming-client}).
 *
 * <p>Attach an attempt with {@link #tag} and build the client with {@link #FACTORY}, or use {@link #execute} for a
 * blocking call.
 */
@API(status = INTERNAL, since = "0.1")
public final class PooledConnectionRetry extends EventListener {

    /** The event-listener factory that finds each call's attempt through its request tag. */
    public static final EventListener.Factory FACTORY = call -> {
        PooledConnectionRetry attempt = call.request().tag(PooledConnectionRetry.class);
        return attempt == null ? EventListener.NONE : attempt;
    };

    private volatile boolean connected;
    private volatile boolean headers;
    private final boolean retry;

    private PooledConnectionRetry(boolean retry) {
        this.retry = retry;
    }

    /** The first attempt of a call. */
    public static PooledConnectionRetry first() {
        return new PooledConnectionRetry(false);
    }

    /** The one further attempt, which is never retried itself. */
    public PooledConnectionRetry again() {
        return new PooledConnectionRetry(true);
    }

    /** {@code request} with this attempt attached, for a client built with {@link #FACTORY}. */
    public Request tag(Request request) {
        return request.newBuilder().tag(PooledConnectionRetry.class, this).build();
    }

    @Override
    public void connectStart(Call call, InetSocketAddress address, Proxy proxy) {
        connected = true;
    }

    @Override
    public void responseHeadersStart(Call call) {
        headers = true;
    }

    /**
     * Whether the call may be sent once more: a first attempt, on a pooled connection, that failed with an I/O error
     * other than a timeout before any response header arrived.
     */
    public boolean retryable(Throwable failure) {
        return !retry && !connected && !headers && failure instanceof IOException
                && !(failure instanceof InterruptedIOException);
    }

    /**
     * A client like {@code client} whose connections are never pooled: the retry's fresh connection is closed when its
     * response is, and nothing else can pick it up.
     */
    public static OkHttpClient freshConnections(OkHttpClient client) {
        return client.newBuilder().connectionPool(new ConnectionPool(0, 1, TimeUnit.SECONDS)).build();
    }

    /**
     * Executes {@code request} on {@code client} (built with {@link #FACTORY}), sending it once more on a fresh
     * connection when the first attempt failed on a dead pooled connection before any response arrived.
     */
    public static Response execute(OkHttpClient client, Request request) throws IOException {
        PooledConnectionRetry attempt = first();
        try {
            return client.newCall(attempt.tag(request)).execute();
        } catch (IOException e) {
            if (!attempt.retryable(e)) {
                throw e;
            }
            return freshConnections(client).newCall(attempt.again().tag(request)).execute();
        }
    }
}
