/**
 * A suite file as the engine reads it, below the suite model and the expectations that both read it: YAML nodes with
 * their {@link io.agentlab.engine.internal.yaml.Position}s ({@link io.agentlab.engine.internal.yaml.YamlReader},
 * {@link io.agentlab.engine.internal.yaml.Node}), the problems placed on them, and the format's small words
 * (durations, role names). Its own package so {@code expect} reads nodes without depending on the suite model that
 * holds the expectations (docs/development.md#guards).
 *
 * <p>Internal: not API, and may change in any release ({@code docs/api.md}).
 */
package io.agentlab.engine.internal.yaml;
