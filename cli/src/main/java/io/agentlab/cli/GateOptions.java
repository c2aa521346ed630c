package io.agentlab.cli;

import io.agentlab.engine.ConfigurationKeys;
import io.agentlab.engine.Constants;
import io.agentlab.runner.UsageException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** The options {@code run}, {@code validate} and {@code merge} share: gates, baseline and other parameters. */
final class GateOptions {

    @Option(names = "--no-gates", description = "Skip the gates that judge the whole run.")
    boolean noGates;

    @Option(names = "--baseline", description = "A baseline file the gates compare against.")
    Path baseline;

    @Option(names = "--config", paramLabel = "KEY=VALUE",
            description = "Any other agentlab.* parameter (repeatable); an unknown key is reported with the closest one.")
    List<String> config = new ArrayList<>();

    /**
     * The parameters these options set, each {@code --config} key checked: an {@code agentlab.*} key must be one the
     * engine knows, others (such as {@code junit.*}) pass through.
     */
    Map<String, String> parameters() {
        Map<String, String> values = new LinkedHashMap<>();
        for (String pair : config) {
            int equals = pair.indexOf('=');
            if (equals < 1) {
                throw new UsageException("--config: expected KEY=VALUE, got '" + Values.oneLine(pair) + "'");
            }
            String key = pair.substring(0, equals).strip();
            ConfigurationKeys.problem(key).ifPresent(problem -> {
                throw new UsageException("--config: " + Values.oneLine(problem));
            });
            values.put(key, pair.substring(equals + 1));
        }
        if (baseline != null) {
            values.put(Constants.BASELINE_FILE, baseline.toString());
        }
        if (noGates) {
            values.put(Constants.GATES_ENABLED, "false");
        }
        return values;
    }
}
