/**
 * The suite model and its loader: YAML read with positions, validated against the suite JSON Schema, then checked
 * for what a schema cannot say; every problem a {@link io.agentlab.engine.suite.SuiteProblem} naming file:line:column.
 */
package io.agentlab.engine.suite;
