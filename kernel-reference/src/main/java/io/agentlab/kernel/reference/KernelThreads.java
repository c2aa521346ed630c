package io.agentlab.kernel.reference;

/**
 * Makes the threads every kernel of the process shares: the pool's and the timer's (docs/kernel.md#threads).
 *
 * <p>Such a thread serves other kernels, other sessions, after the caller whose task made it start, so it takes
 * nothing from that caller: no inheritable thread-locals, the kit's class loader as its context loader, and it is a
 * daemon, so an idle kit never keeps a process alive.
 */
final class KernelThreads {

    private KernelThreads() {
    }

    /** A new, unstarted shared thread named {@code name} that runs {@code task}. */
    static Thread newThread(String name, Runnable task) {
        Thread thread = new Thread(null, task, name, 0, false);
        thread.setDaemon(true);
        thread.setContextClassLoader(KernelThreads.class.getClassLoader());
        return thread;
    }
}
