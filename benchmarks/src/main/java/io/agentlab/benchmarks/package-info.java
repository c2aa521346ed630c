/**
 * JMH benchmarks and measurement mains for the kernel, the stream parsers, the runtime and the engine; run them all
 * with {@code benchmarks/run.sh}, which prints and commits a dated table under {@code benchmarks/results/}.
 */
package io.agentlab.benchmarks;
