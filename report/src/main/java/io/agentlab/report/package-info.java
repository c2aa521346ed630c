/**
 * What a run's results are, for the tools that start runs and read them (the runner, the command line, the Maven
 * goal): {@link io.agentlab.report.TestOutcome}, one test and how it ended. Its own package, below both the
 * engine's root package and its reports, so neither depends on the other through it
 * (docs/development.md#guards).
 */
package io.agentlab.report;
