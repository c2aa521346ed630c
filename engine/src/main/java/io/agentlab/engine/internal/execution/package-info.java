/**
 * Running a case in a mode ({@link io.agentlab.engine.internal.execution.CaseRunner}), checking its expectations
 * ({@link io.agentlab.engine.internal.execution.ExpectationCheck}) and comparing the modes
 * ({@link io.agentlab.engine.internal.execution.Parity}).
 *
 * <p>Internal: not API, and may change in any release ({@code docs/api.md}).
 */
package io.agentlab.engine.internal.execution;
