/**
 * One rule of a conformance catalogue ({@link io.agentlab.kernel.api.rule.Rule}), shared by the kit's catalogues: the
 * plugin contract's, the adapter contracts' and the AG-UI checker's. It depends on nothing but the JDK, so any
 * catalogue can use it without a dependency (docs/api.md#rules).
 */
package io.agentlab.kernel.api.rule;
