package io.agentlab.engine.wire;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectDirectory;

import io.agentlab.engine.ConformanceTestEngine;
import io.agentlab.engine.Constants;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.EventType;

/**
 * Every shipped suite (module conformance-suites, read from its sources: that module depends on this one) run through
 * the engine at replay speed 0, in-process or against a runtime over the wire, and each test's verdict: the proofs
 * of docs/wire.md#parity and docs/wire.md#a-second-runtime.
 */
final class ShippedSuites {

    /** The shipped suites' folder. */
    static final Path SUITES = Path.of("../conformance-suites/src/main/resources/agentlab/suites");
    /** The recordings the shipped suites name that the engine's class path does not hold. */
    static final Path RECORDINGS = Path.of("../conformance-suites/src/main/resources/recordings");
    /**
     * How a test skipped because the wire shows nothing it expects is told apart: the engine's reason
     * (ModeDescriptor#skipReason, and ParityDescriptor's that quotes it).
     */
    static final String NOT_OBSERVABLE_SKIP = "nothing this test expects can be judged over the wire";
    /** The key of a report entry naming a part of an expectation the wire could not show. */
    static final String NOT_OBSERVABLE_ENTRY = "not-observable";

    private ShippedSuites() {
    }

    /** A test's verdict, as the report and the tables name it. */
    enum Status {
        PASSED("passed"), FAILED("failed"), ABORTED("aborted"), NOT_OBSERVABLE("skipped (not observable)"),
        SKIPPED("skipped");

        final String label;

        Status(String label) {
            this.label = label;
        }
    }

    /**
     * One test of a shipped case: its suite, case and mode ({@code parity} for the case's parity test), verdict, the
     * first line of its failure or skip reason, and how many not-observable parts it reported.
     */
    record Verdict(String suite, String caseId, String mode, Status status, String detail, int notObservableParts) {
        String key() {
            return suite + "/" + caseId + " [" + mode + "]";
        }
    }

    /** The ids of the shipped suites, by file name. */
    static List<String> suiteFiles() {
        try (Stream<Path> files = Files.list(SUITES)) {
            return files.map(file -> file.getFileName().toString()).filter(name -> name.endsWith(".suite.yaml"))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Runs every shipped suite, in-process when {@code runtimeCommand} is empty, else against the runtime that command
     * starts; reports go to {@code report}.
     */
    static Map<String, Verdict> run(Path report, Optional<String> runtimeCommand, Map<String, String> extra) {
        EngineTestKit.Builder kit = EngineTestKit.engine(ConformanceTestEngine.ENGINE_ID)
                .configurationParameter(Constants.REPLAY_SPEED, "0")
                .configurationParameter(Constants.CONTROL_RUNS, "false")
                .configurationParameter(Constants.GATES_ENABLED, "false")
                .configurationParameter(Constants.REPORT_DIRECTORY, report.toString())
                .configurationParameter(Constants.RECORDING_DIRECTORIES, RECORDINGS.toAbsolutePath().toString())
                .selectors(selectDirectory(SUITES.toFile()));
        runtimeCommand.ifPresent(command -> kit.configurationParameter(Constants.RUNTIME_COMMAND, command));
        extra.forEach(kit::configurationParameter);
        return verdicts(kit.execute());
    }

    /** Each case test's verdict by {@link Verdict#key()}, sorted. */
    static Map<String, Verdict> verdicts(EngineExecutionResults results) {
        Map<UniqueId, Integer> parts = new LinkedHashMap<>();
        results.allEvents().stream().filter(event -> event.getType() == EventType.REPORTING_ENTRY_PUBLISHED)
                .forEach(event -> {
                    ReportEntry entry = event.getRequiredPayload(ReportEntry.class);
                    if (entry.getKeyValuePairs().containsKey(NOT_OBSERVABLE_ENTRY)) {
                        parts.merge(event.getTestDescriptor().getUniqueId(), 1, Integer::sum);
                    }
                });
        Map<String, Verdict> verdicts = new TreeMap<>();
        for (Event event : results.allEvents().list()) {
            if (!event.getTestDescriptor().isTest()
                    || event.getType() != EventType.FINISHED && event.getType() != EventType.SKIPPED) {
                continue;
            }
            UniqueId id = event.getTestDescriptor().getUniqueId();
            Map<String, String> segments = new LinkedHashMap<>();
            id.getSegments().forEach(segment -> segments.put(segment.getType(), segment.getValue()));
            if (!segments.containsKey("case")) {
                continue; // not a case's test (a gate, a control)
            }
            String mode = segments.getOrDefault("mode", id.getLastSegment().getType());
            Status status;
            String detail;
            if (event.getType() == EventType.SKIPPED) {
                detail = event.getRequiredPayload(String.class);
                status = detail.contains(NOT_OBSERVABLE_SKIP) ? Status.NOT_OBSERVABLE : Status.SKIPPED;
            } else {
                TestExecutionResult result = event.getRequiredPayload(TestExecutionResult.class);
                status = switch (result.getStatus()) {
                    case SUCCESSFUL -> Status.PASSED;
                    case FAILED -> Status.FAILED;
                    case ABORTED -> Status.ABORTED;
                };
                detail = result.getThrowable().map(Throwable::getMessage).orElse("");
            }
            Verdict verdict = new Verdict(segments.getOrDefault("suite", "?"), segments.get("case"), mode, status,
                    detail == null ? "" : detail, parts.getOrDefault(id, 0));
            verdicts.put(verdict.key(), verdict);
        }
        return verdicts;
    }

    /** The lines of {@code detail} past the first that name a cause ({@code  - ...}), joined, or its first line. */
    static String brief(String detail) {
        List<String> causes = new ArrayList<>();
        for (String line : detail.split("\n")) {
            if (line.startsWith("  - ")) {
                causes.add(line.substring(4));
            }
        }
        String text = causes.isEmpty() ? detail.lines().findFirst().orElse("") : String.join("; ", causes);
        return cell(text.length() > 300 ? text.substring(0, 300) + "…" : text);
    }

    /** {@code text} safe in a Markdown table cell. */
    static String cell(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }

    /** The verdicts sorted by suite, case, then mode with parity last. */
    static Comparator<Verdict> order() {
        return Comparator.comparing(Verdict::suite).thenComparing(Verdict::caseId)
                .thenComparing(verdict -> verdict.mode().equals("parity") ? "~" : verdict.mode());
    }
}
