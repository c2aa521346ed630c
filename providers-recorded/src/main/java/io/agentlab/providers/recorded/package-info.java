/**
 * Recorded provider streams ({@code docs/design.md#provider-recordings}): the {@link
 * io.agentlab.providers.recorded.Recording} format, timing-faithful replay on WireMock ({@link
 * io.agentlab.providers.recorded.TimedReplay}), and the {@link io.agentlab.providers.recorded.StreamSynthesizer} with
 * token counts computed from the request received.
 */
package io.agentlab.providers.recorded;
