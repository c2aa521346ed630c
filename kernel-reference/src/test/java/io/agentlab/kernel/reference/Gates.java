package io.agentlab.kernel.reference;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.kernel.api.EventHandler;
import io.agentlab.kernel.api.EventInvocation;
import io.agentlab.kernel.api.HandlerResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Handlers that block until the test opens their gate, recording start, end and interruption in arrival order, so
 * tests observe scheduling through recorded events and latches instead of sleeps.
 */
final class Gates {

    private static final long WAIT_SECONDS = 10;

    private final Map<String, CountDownLatch> gates = new ConcurrentHashMap<>();
    private final Map<String, CountDownLatch> ends = new ConcurrentHashMap<>();
    private final BlockingQueue<String> started = new LinkedBlockingQueue<>();
    /** "start:e1", "end:e1", "interrupted:e1" in the order they happened. */
    final List<String> log = new CopyOnWriteArrayList<>();

    /** A handler that waits for {@link #open(String)} of its event id, then returns {@code result}. */
    EventHandler handler(HandlerResult result) {
        return handler(invocation -> result);
    }

    /** A handler that waits for its gate, then succeeds with its arguments as payload. */
    EventHandler echo() {
        return handler(invocation -> HandlerResult.success(Map.of("echo", invocation.arguments())));
    }

    private EventHandler handler(Function<EventInvocation, HandlerResult> result) {
        return invocation -> {
            log.add("start:" + invocation.eventId());
            started.add(invocation.eventId());
            try {
                gate(invocation.eventId()).await();
                return result.apply(invocation);
            } catch (InterruptedException e) {
                log.add("interrupted:" + invocation.eventId());
                throw e;
            } finally {
                log.add("end:" + invocation.eventId());
                ended(invocation.eventId()).countDown();
            }
        };
    }

    /**
     * Waits up to 30 s for {@code latch} where an exception cannot be thrown (a task, a continuation), keeping an
     * interrupt for the caller to see. Longer than the tests' own waits ({@link #WAIT_SECONDS}), so a blocked task
     * never lets go before the test releases it.
     */
    static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits until the handler of {@code eventId} returned or threw. */
    void awaitEnded(String eventId) throws InterruptedException {
        assertThat(ended(eventId).await(WAIT_SECONDS, TimeUnit.SECONDS)).as("handler %s to end", eventId).isTrue();
    }

    private CountDownLatch ended(String eventId) {
        return ends.computeIfAbsent(eventId, id -> new CountDownLatch(1));
    }

    void open(String eventId) {
        gate(eventId).countDown();
    }

    /** Waits until {@code count} more handlers started and returns their ids in start order. */
    List<String> awaitStarted(int count) throws InterruptedException {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String id = started.poll(WAIT_SECONDS, TimeUnit.SECONDS);
            assertThat(id).as("handler #%d to start", ids.size() + 1).isNotNull();
            ids.add(id);
        }
        return ids;
    }

    /** True if no further handler has started (checked without waiting: callers first reach a quiescent point). */
    boolean noneWaitingToStart() {
        return started.isEmpty();
    }

    private CountDownLatch gate(String eventId) {
        return gates.computeIfAbsent(eventId, id -> new CountDownLatch(1));
    }
}
