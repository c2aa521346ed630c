/**
 * The JUnit Platform engine {@code agentlab-conformance}: {@link io.agentlab.engine.ConformanceTestEngine}, its
 * configuration ({@link io.agentlab.engine.ConformanceSettings}) and the kernel-under-test SPI
 * ({@link io.agentlab.engine.KernelUnderTestFactory}). Discovery resolvers and test descriptors are package-private.
 */
package io.agentlab.engine;
