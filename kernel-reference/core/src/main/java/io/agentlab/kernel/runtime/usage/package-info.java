/** Provider usage normalization and cost (seeds/001 §5): provider fields first, pricing-catalog fallback second. */
package io.agentlab.kernel.runtime.usage;
