/**
 * The runtime's AG-UI audit stream ({@code docs/design.md#audit-events}): a whole turn as typed AG-UI events. The
 * event model, codec and checker are AG-UI protocol support and live in {@code io.agentlab.agui}.
 */
package io.agentlab.runtime.audit;
