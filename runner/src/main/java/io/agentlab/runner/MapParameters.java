package io.agentlab.runner;

import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.platform.engine.ConfigurationParameters;

/** Configuration parameters from a map, for reading gates outside an engine run ({@code agentlab merge}). */
record MapParameters(Map<String, String> values) implements ConfigurationParameters {

    @Override
    public Optional<String> get(String key) {
        return Optional.ofNullable(values.get(key));
    }

    @Override
    public Optional<Boolean> getBoolean(String key) {
        return get(key).map(value -> Boolean.parseBoolean(value.strip()));
    }

    @Override
    public Set<String> keySet() {
        return values.keySet();
    }
}
