/**
 * Where a run keeps what it has measured while it goes: files of JSON lines by group (a suite), read back in the
 * order a report wants, so the reports of a run of any length are assembled from disk rather than from memory
 * ({@code docs/performance.md#memory}).
 *
 * <p>Internal: not API, and may change in any release ({@code docs/api.md}).
 */
package io.agentlab.report.spool;
