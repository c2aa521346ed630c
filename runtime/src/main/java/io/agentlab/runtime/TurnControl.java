package io.agentlab.runtime;

/**
 * A turn's stop requests ({@code docs/design.md#provider-interrupt-vs-delete}): the user's interrupt keeps the partial
 * answer, a deletion keeps nothing. Either one interrupts the thread running the turn, so a blocked model call or
 * batch wait returns at once.
 */
final class TurnControl {

    private boolean interrupted;
    private boolean deleted;
    private Thread runner;

    /** The turn now runs on the current thread. */
    synchronized void bind() {
        runner = Thread.currentThread();
    }

    /** The turn has ended: a late stop request must not reach the thread's next task. */
    synchronized void release() {
        runner = null;
        Thread.interrupted();
    }

    synchronized void interrupt() {
        interrupted = true;
        wake();
    }

    synchronized void delete() {
        deleted = true;
        wake();
    }

    synchronized boolean stopped() {
        return interrupted || deleted;
    }

    synchronized boolean deleted() {
        return deleted;
    }

    private void wake() {
        if (runner != null) {
            runner.interrupt();
        }
    }
}
