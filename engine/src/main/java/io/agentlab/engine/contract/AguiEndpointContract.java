package io.agentlab.engine.contract;

import io.agentlab.kernel.runtime.audit.AguiSseCodec;
import io.agentlab.kernel.runtime.audit.AguiStreamChecker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.sse.EventSource;
import okhttp3.sse.EventSourceListener;
import okhttp3.sse.EventSources;

/**
 * The AG-UI endpoint contract for a service team: connects with okhttp-sse to the events URL of one run, checks the
 * stream with the stream checker (framing, ordering, ids, one terminal event, run isolation, no internal fields), then
 * reconnects with {@code Last-Event-ID} and requires exactly the frames after that id. Usable from a Jupiter test
 * ({@code assertThat(AguiEndpointContract.check(url, runId, timeout).violations()).isEmpty()}) and by
 * {@code agentlab check-stream}.
 */
public final class AguiEndpointContract {

    /**
     * What one check found.
     *
     * @param url        the events URL
     * @param frames     the frames received
     * @param violations every broken rule, the resume rule included ({@code AGUI-RESUME})
     */
    public record Report(String url, List<AguiSseCodec.Frame> frames, List<String> violations) {
        /** Copies the lists. */
        public Report {
            frames = List.copyOf(frames);
            violations = List.copyOf(violations);
        }

        /** Whether every rule holds. */
        public boolean passes() {
            return violations.isEmpty();
        }
    }

    private AguiEndpointContract() {
    }

    /**
     * Checks one run's stream and its resume.
     *
     * @throws IllegalStateException when the endpoint cannot be read (status, connection, timeout), saying which
     */
    public static Report check(String eventsUrl, String runId, Duration timeout) {
        OkHttpClient http = new OkHttpClient.Builder().readTimeout(timeout).build();
        List<AguiSseCodec.Frame> frames = read(http, eventsUrl, null, timeout);
        List<String> violations = new ArrayList<>();
        AguiStreamChecker.checkFrames(frames, runId).forEach(violation -> violations.add(violation.toString()));
        if (frames.size() >= 2 && frames.get(0).id() != null) {
            // resume after the first frame: the service must send exactly the rest, in order
            List<AguiSseCodec.Frame> resumed = read(http, eventsUrl, frames.get(0).id(), timeout);
            List<AguiSseCodec.Frame> expected = frames.subList(1, frames.size());
            if (!resumed.equals(expected)) {
                violations.add("AGUI-RESUME: after Last-Event-ID " + frames.get(0).id() + " the endpoint sent "
                        + ids(resumed) + ", expected " + ids(expected));
            }
        }
        return new Report(eventsUrl, frames, violations);
    }

    private static List<String> ids(List<AguiSseCodec.Frame> frames) {
        return frames.stream().map(AguiSseCodec.Frame::id).toList();
    }

    private static List<AguiSseCodec.Frame> read(OkHttpClient http, String url, String lastEventId, Duration timeout) {
        Request.Builder request = new Request.Builder().url(url).header("Accept", "text/event-stream");
        if (lastEventId != null) {
            request.header("Last-Event-ID", lastEventId);
        }
        List<AguiSseCodec.Frame> frames = new ArrayList<>();
        CompletableFuture<Void> done = new CompletableFuture<>();
        EventSource source = EventSources.createFactory(http).newEventSource(request.build(), new EventSourceListener() {
            @Override
            public void onEvent(EventSource eventSource, String id, String type, String data) {
                synchronized (frames) {
                    frames.add(new AguiSseCodec.Frame(id, type, data));
                }
            }

            @Override
            public void onClosed(EventSource eventSource) {
                done.complete(null);
            }

            @Override
            public void onFailure(EventSource eventSource, Throwable failure, Response response) {
                done.completeExceptionally(new IllegalStateException("cannot read " + url + ": "
                        + (response != null ? "HTTP " + response.code() : String.valueOf(failure))));
            }
        });
        try {
            done.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw (IllegalStateException) e.getCause();
        } catch (TimeoutException e) {
            source.cancel();
            throw new IllegalStateException("the stream at " + url + " did not end within " + timeout, e);
        } catch (InterruptedException e) {
            source.cancel();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading " + url, e);
        }
        synchronized (frames) {
            return List.copyOf(frames);
        }
    }
}
