package io.agentlab.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.engine.ConfigurationKeys;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.apiguardian.api.API;

/**
 * What to run: the suites, the engine's configuration, the filters and where the reports go. Built with
 * {@link #builder()}, which checks every value and throws a {@link UsageException} naming the bad one.
 *
 * @param suites          suite folders or files, or {@code classpath:FOLDER}
 * @param configuration   configuration parameters ({@code agentlab.*}, and any {@code junit.*} passed through)
 * @param includeTags     JUnit tag expressions a test must match (any of them); empty: all
 * @param excludeTags     JUnit tag expressions that leave a test out
 * @param cases           case names ({@code case} or {@code suite/case}) or unique ids of nodes; empty: all
 * @param shard           this job's share of the cases
 * @param rerunFailed     a {@code results.json} whose failed cases alone are run
 * @param reportDirectory where {@code metrics.json}, {@code report.md}, {@code index.html}, {@code results.json} and
 *                        {@code junit/} go
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record RunSpec(List<String> suites, Map<String, String> configuration, List<String> includeTags,
                      List<String> excludeTags, List<String> cases, Optional<Shard> shard, Optional<Path> rerunFailed,
                      Path reportDirectory) {

    /** The shipped suites, the default selection. */
    public static final String SHIPPED_SUITES = "classpath:agentlab/suites";
    /** The prefix naming a classpath folder or file. */
    public static final String CLASSPATH = "classpath:";

    /** Copies. */
    public RunSpec {
        suites = List.copyOf(suites);
        configuration = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(configuration));
        includeTags = List.copyOf(includeTags);
        excludeTags = List.copyOf(excludeTags);
        cases = List.copyOf(cases);
    }

    /** A builder with the defaults: the shipped suites, no filter, reports in {@code agentlab-report}. */
    public static Builder builder() {
        return new Builder();
    }

    /** The spec as properties (for a forked JVM); {@link #fromProperties} reads it back. */
    public Properties toProperties() {
        Properties properties = new Properties();
        properties.setProperty("suites", String.join(",", suites));
        properties.setProperty("include-tags", String.join(",", includeTags));
        properties.setProperty("exclude-tags", String.join(",", excludeTags));
        properties.setProperty("cases", String.join(",", cases));
        shard.ifPresent(s -> properties.setProperty("shard", s.toString()));
        rerunFailed.ifPresent(p -> properties.setProperty("rerun-failed", p.toString()));
        properties.setProperty("report", reportDirectory.toString());
        configuration.forEach((key, value) -> properties.setProperty("config." + key, value));
        return properties;
    }

    /** Reads {@link #toProperties()}. */
    public static RunSpec fromProperties(Properties properties) {
        Builder builder = builder().suites(list(properties.getProperty("suites")))
                .includeTags(list(properties.getProperty("include-tags")))
                .excludeTags(list(properties.getProperty("exclude-tags")))
                .cases(list(properties.getProperty("cases")))
                .reportDirectory(Path.of(properties.getProperty("report", "agentlab-report")));
        Optional.ofNullable(properties.getProperty("shard")).map(Shard::parse).ifPresent(builder::shard);
        Optional.ofNullable(properties.getProperty("rerun-failed")).map(Path::of).ifPresent(builder::rerunFailed);
        for (String name : properties.stringPropertyNames()) {
            if (name.startsWith("config.")) {
                builder.configuration(name.substring("config.".length()), properties.getProperty(name));
            }
        }
        return builder.build();
    }

    private static List<String> list(String value) {
        return value == null || value.isBlank() ? List.of()
                : Arrays.stream(value.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }

    /** Builds a {@link RunSpec}, checking each value. */
    public static final class Builder {
        private final List<String> suites = new ArrayList<>();
        private final Map<String, String> configuration = new LinkedHashMap<>();
        private final List<String> includeTags = new ArrayList<>();
        private final List<String> excludeTags = new ArrayList<>();
        private final List<String> cases = new ArrayList<>();
        private Shard shard;
        private Path rerunFailed;
        private Path reportDirectory = Path.of("agentlab-report");

        private Builder() {
        }

        /** Suite folders or files, or {@code classpath:FOLDER}; none given means the shipped suites. */
        public Builder suites(Collection<String> values) {
            suites.addAll(values);
            return this;
        }

        /**
         * One configuration parameter. An {@code agentlab.*} key must be one the engine knows; other keys (such as
         * {@code junit.*}) pass through.
         */
        public Builder configuration(String key, String value) {
            ConfigurationKeys.problem(key).ifPresent(problem -> {
                throw new UsageException(problem);
            });
            configuration.put(key, value);
            return this;
        }

        /** Tag expressions to include (JUnit syntax, e.g. {@code smoke}, {@code en & !slow}). */
        public Builder includeTags(Collection<String> values) {
            includeTags.addAll(values);
            return this;
        }

        /** Tag expressions to exclude. */
        public Builder excludeTags(Collection<String> values) {
            excludeTags.addAll(values);
            return this;
        }

        /** Case names or unique ids. */
        public Builder cases(Collection<String> values) {
            cases.addAll(values);
            return this;
        }

        /** This job's share. */
        public Builder shard(Shard value) {
            shard = value;
            return this;
        }

        /** Run only the cases that failed in this results file. */
        public Builder rerunFailed(Path value) {
            rerunFailed = value;
            return this;
        }

        /** Where the reports go. */
        public Builder reportDirectory(Path value) {
            reportDirectory = value;
            return this;
        }

        /** The spec; a suite folder or file that does not exist is a {@link UsageException}. */
        public RunSpec build() {
            List<String> selected = suites.isEmpty() ? List.of(SHIPPED_SUITES) : suites;
            for (String suite : selected) {
                if (!suite.startsWith(CLASSPATH) && !Files.exists(Path.of(suite))) {
                    throw new UsageException("--suites: no such folder or file: " + Path.of(suite).toAbsolutePath());
                }
            }
            if (rerunFailed != null && !Files.exists(rerunFailed)) {
                throw new UsageException("--rerun-failed: no results of a last run at " + rerunFailed.toAbsolutePath()
                        + " (run once first, or name the results.json)");
            }
            checkReportFolder(reportDirectory);
            return new RunSpec(selected, configuration, includeTags, excludeTags, cases, Optional.ofNullable(shard),
                    Optional.ofNullable(rerunFailed), reportDirectory);
        }

        /**
         * The report folder must be one the run can write, known before anything runs: else a whole run ends in two
         * stack traces with the previous report left in place (docs/cli.md#accepted-values).
         */
        private static void checkReportFolder(Path folder) {
            Path existing = folder.toAbsolutePath();
            while (existing != null && !Files.exists(existing)) {
                existing = existing.getParent(); // the folder is made by the run: what counts is where it would be
            }
            if (existing == null) {
                return;
            }
            if (existing.equals(folder.toAbsolutePath()) && !Files.isDirectory(existing)) {
                throw new UsageException("--report: '" + folder + "' is a file; give a folder for the report");
            }
            if (!Files.isDirectory(existing)) {
                throw new UsageException("--report: cannot make '" + folder + "': '" + existing + "' is a file");
            }
            if (!Files.isWritable(existing)) {
                throw new UsageException("--report: cannot write into '" + existing + "'"
                        + (existing.equals(folder.toAbsolutePath()) ? "" : " to make '" + folder + "'")
                        + " (no write permission); give another folder with --report");
            }
        }
    }
}
