/**
 * The turn runtime (design §2, §4): one runtime for both invocation modes. It streams ChatAgent's first answer to the
 * user, hands the events to the kernel only when the stream ends (the first answer never waits for events), applies
 * the kernel's continuation decision, keeps the conversation with visibility masks, emits the AG-UI audit stream and
 * measures every design §8 figure one turn yields.
 */
package io.agentlab.kernel.runtime;
