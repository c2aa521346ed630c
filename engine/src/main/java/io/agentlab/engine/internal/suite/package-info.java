/**
 * The suite model and its loader: YAML read with positions, validated against the suite JSON Schema, then checked
 * for what a schema cannot say; every problem a {@link io.agentlab.engine.internal.yaml.SuiteProblem} naming
 * file:line:column.
 *
 * <p>Internal: not API, and may change in any release ({@code docs/api.md}).
 */
package io.agentlab.engine.internal.suite;
