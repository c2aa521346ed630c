/**
 * The AG-UI audit stream ({@code docs/design.md#audit-events}): typed events for a whole turn, an SSE encoder/decoder
 * and a stream checker whose rules are named and documented.
 */
package io.agentlab.kernel.runtime.audit;
