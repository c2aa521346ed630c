/**
 * Provider usage normalization and cost ({@code docs/design.md#usage-provider-first}): provider fields first,
 * pricing-catalog fallback second.
 */
package io.agentlab.runtime.usage;
