/**
 * The JUnit Platform engine {@code agentlab-conformance}: {@link io.agentlab.engine.ConformanceTestEngine}, its
 * configuration keys ({@link io.agentlab.engine.Constants}, read by the package-private {@code EngineOptions}) and the
 * kernel-under-test SPI
 * ({@link io.agentlab.engine.KernelUnderTestFactory}). Discovery resolvers and test descriptors are package-private.
 */
package io.agentlab.engine;
