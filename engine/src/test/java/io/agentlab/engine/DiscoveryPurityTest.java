package io.agentlab.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathResource;

import io.agentlab.kernel.api.EventPlugin;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * Discovery resolves selectors into descriptors and reports discovery issues, nothing else: it starts no thread
 * (docs/engine.md#discovery); what a run warms up starts with its execution.
 */
class DiscoveryPurityTest {

    @Test
    @DisplayName("discovering suites starts no thread of the kit's")
    void discoveryStartsNoThread() {
        long started = threadsStartedDuring(() -> EngineTestKit.engine(ConformanceTestEngine.ENGINE_ID)
                .selectors(selectClasspathResource("sample-suites/volume.suite.yaml"))
                .configurationParameter(Constants.GATES_ENABLED, "true")
                // events no earlier run of this JVM offered: a warm-up kept once per JVM would start here
                .configurationParameter(Constants.KERNEL_FACTORY, FirstEventOnly.class.getName()).discover());
        assertThat(started).as("threads started by discovery").isZero();
    }

    @Test
    @DisplayName("the check counts a thread started during the action, even one that has ended")
    void checkCanFail() {
        CountDownLatch ran = new CountDownLatch(1);
        long started = threadsStartedDuring(() -> {
            Thread thread = new Thread(ran::countDown, "agentlab-seeded-warm-up");
            thread.setDaemon(true);
            thread.start();
            try {
                thread.join(); // ended before the count is read: a short warm-up is counted all the same
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertThat(ran.getCount()).as("the seeded thread ran").isZero();
        assertThat(started).isEqualTo(1);
    }

    /** The first of the service-loaded plugins alone. */
    public static final class FirstEventOnly implements KernelUnderTestFactory {
        @Override
        public List<EventPlugin> plugins() {
            return new ServiceLoaderKernelFactory().plugins().subList(0, 1);
        }
    }

    /**
     * How many threads the JVM started while {@code action} ran, ended ones included (a warm-up can be over before a
     * list of live threads is read). The JVM's own compiler threads are not counted; this class's tests run one at a
     * time, and nothing else of the kit runs beside them.
     */
    private static long threadsStartedDuring(Runnable action) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long before = threads.getTotalStartedThreadCount();
        action.run();
        return threads.getTotalStartedThreadCount() - before;
    }
}
