/**
 * What a suite expects after a turn: one {@link io.agentlab.engine.expect.Expectation} per key of a turn's
 * {@code expect} block, each kind reading itself from YAML and checking itself against the turn as it ran. The kinds
 * are listed once, in {@link io.agentlab.engine.expect.ExpectationKinds}.
 */
package io.agentlab.engine.expect;
