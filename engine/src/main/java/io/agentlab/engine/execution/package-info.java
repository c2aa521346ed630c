/**
 * Running a case in a mode ({@link io.agentlab.engine.execution.CaseRunner}), checking its expectations
 * ({@link io.agentlab.engine.execution.ExpectationCheck}) and comparing the modes
 * ({@link io.agentlab.engine.execution.Parity}).
 */
package io.agentlab.engine.execution;
