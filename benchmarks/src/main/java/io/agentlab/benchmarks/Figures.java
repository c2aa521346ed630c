package io.agentlab.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/** Named figures a measurement main writes for {@link Report}, and the small statistics they need. */
final class Figures {

    static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();

    private final Map<String, Object> values = new LinkedHashMap<>();

    Figures put(String name, Object value) {
        values.put(name, value);
        return this;
    }

    void write(Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, JSON.writeValueAsString(values));
        values.forEach((name, value) -> System.out.println(name + " = " + value));
    }

    /** Nearest-rank percentile of {@code samples}. */
    static double percentile(List<Double> samples, double quantile) {
        List<Double> sorted = new ArrayList<>(samples);
        Collections.sort(sorted);
        int index = (int) Math.ceil(quantile * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
    }

    static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
