/**
 * The AG-UI audit stream (seeds/001, DESIGN §7): typed events for a whole turn, an SSE encoder/decoder and a
 * stream checker whose rules are named and documented.
 */
package io.agentlab.kernel.runtime.audit;
