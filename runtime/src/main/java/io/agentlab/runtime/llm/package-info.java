/**
 * OpenAI-compatible Chat Completions streaming: wire types, the stream accumulator shared by every provider, the
 * OkHttp client, a scripted in-process provider and the provider registry (the seam, {@code
 * docs/design.md#provider-registry-seam}).
 */
package io.agentlab.runtime.llm;
