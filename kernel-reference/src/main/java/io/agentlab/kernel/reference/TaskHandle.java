package io.agentlab.kernel.reference;

/**
 * One kernel task's thread, so a timeout or a cancellation can interrupt exactly that task and nothing after it.
 * The interrupt flag is cleared under the same lock that guards interrupting, so a late interrupt can never leak
 * into the next task a pooled thread runs.
 */
final class TaskHandle {

    private Thread thread;
    private boolean cancelled;

    /** Binds the current thread; false if the task was cancelled before it began (it must then not run). */
    synchronized boolean begin() {
        if (cancelled) {
            return false;
        }
        thread = Thread.currentThread();
        return true;
    }

    /** Unbinds the thread and clears any interrupt aimed at this task. */
    synchronized void end() {
        thread = null;
        Thread.interrupted();
    }

    /** Prevents a start, or interrupts the running task. Idempotent. */
    synchronized void cancel() {
        cancelled = true;
        if (thread != null) {
            thread.interrupt();
        }
    }
}
