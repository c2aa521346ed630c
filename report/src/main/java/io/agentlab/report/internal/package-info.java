/**
 * The after-run reports: console tables, {@code report.md}, {@code index.html}, {@code results.json}, the comparison
 * with a previous run, the capability-growth curve and the control matrix.
 *
 * <p>Internal: not API, and may change in any release ({@code docs/api.md}).
 */
package io.agentlab.report.internal;
