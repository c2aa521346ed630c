/**
 * AG-UI 1.0 protocol support ({@code docs/design.md#audit-events}, {@code docs/runtime.md#agui-profiles}): typed
 * events, an SSE encoder and decoder, the profiles a stream is judged by, and a stream checker whose rules are named
 * and documented. Depends on the kernel API and Jackson only.
 */
package io.agentlab.agui;
