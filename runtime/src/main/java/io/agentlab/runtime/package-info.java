/**
 * The turn runtime ({@code docs/design.md#modes-same-batch}): one runtime for both invocation modes. It streams
 * ChatAgent's first answer to the user, hands the events to the kernel only when the stream ends (the first answer
 * never waits for events), applies the kernel's continuation decision, keeps the conversation with visibility masks,
 * emits the AG-UI audit stream and measures every figure of {@code docs/design.md#metrics-per-mode} one turn yields.
 */
package io.agentlab.runtime;
