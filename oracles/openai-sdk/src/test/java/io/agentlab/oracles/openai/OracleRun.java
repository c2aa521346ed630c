package io.agentlab.oracles.openai;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One run of the oracle over an export directory: the manifest's counts checked against the files found (no silent
 * zero: a missing or empty export, or fewer streams than the manifest counts, is a problem), every stream judged, and
 * the per-family figures.
 *
 * @param verdicts every stream's verdict
 * @param problems what makes the run fail: export problems first, then every disagreement
 * @param summary  the per-family table, for the build log
 */
record OracleRun(List<SdkOracle.Verdict> verdicts, List<String> problems, String summary) {

    static final List<String> FAMILIES = List.of("openai", "deepseek", "dashscope", "llamacpp");
    static final List<String> SOURCES = List.of("shipped", "synthesized");

    OracleRun {
        verdicts = List.copyOf(verdicts);
        problems = List.copyOf(problems);
    }

    /** Judges the export in {@code directory}. */
    static OracleRun of(Path directory) {
        List<String> problems = new ArrayList<>();
        Path manifestFile = directory.resolve("manifest.json");
        if (!Files.isRegularFile(manifestFile)) {
            problems.add("no export at " + directory.toAbsolutePath().normalize() + " (no manifest.json): run the "
                    + "conformance-suites tests first, e.g. mvn -B verify from the repository root");
            return new OracleRun(List.of(), problems, "no export");
        }
        JsonNode manifest;
        try {
            manifest = SdkOracle.FILES.readTree(manifestFile.toFile());
        } catch (IOException e) {
            problems.add("manifest.json is not readable JSON: " + e.getMessage());
            return new OracleRun(List.of(), problems, "no export");
        }
        // each stream is judged on its own; a parallel stream keeps the files' order in the list
        List<SdkOracle.Verdict> verdicts = SdkOracle.streamFiles(directory).parallelStream().map(SdkOracle::judge)
                .toList();
        Map<String, Map<String, int[]>> found = new TreeMap<>();
        for (SdkOracle.Verdict verdict : verdicts) {
            found.computeIfAbsent(verdict.family(), f -> new TreeMap<>())
                    .computeIfAbsent(verdict.source(), s -> new int[1])[0]++;
        }
        int expectedTotal = manifest.path("streams").asInt(0);
        if (expectedTotal <= 0) {
            problems.add("the manifest counts no stream");
        }
        if (verdicts.size() != expectedTotal) {
            problems.add("found " + verdicts.size() + " stream files, the manifest counts " + expectedTotal);
        }
        for (String family : FAMILIES) {
            for (String source : SOURCES) {
                int expected = manifest.path("families").path(family).path(source).asInt(0);
                int got = found.getOrDefault(family, Map.of()).getOrDefault(source, new int[1])[0];
                if (expected <= 0) {
                    problems.add("the manifest counts no " + source + " " + family + " stream");
                }
                if (got != expected) {
                    problems.add(family + " " + source + ": found " + got + " stream files, the manifest counts "
                            + expected);
                }
            }
        }
        verdicts.stream().filter(v -> v.outcome() == SdkOracle.Outcome.DISAGREE).map(SdkOracle.Verdict::toString)
                .forEach(problems::add);
        return new OracleRun(verdicts, problems, summary(directory, verdicts, manifest));
    }

    private static String summary(Path directory, List<SdkOracle.Verdict> verdicts, JsonNode manifest) {
        StringBuilder out = new StringBuilder("[openai-sdk oracle] com.openai:openai-java over ")
                .append(verdicts.size()).append(" streams in ").append(directory.toAbsolutePath().normalize())
                .append(" (").append(manifest.path("skipped").size()).append(" shipped recordings without a stream or refused by the loader); ")
                .append(verdicts.stream().mapToInt(SdkOracle.Verdict::toolCalls).sum()).append(" tool calls and ")
                .append(verdicts.stream().filter(SdkOracle.Verdict::usage).count()).append(" usage objects compared\n");
        out.append(String.format("[openai-sdk oracle] %-17s %-12s %7s %12s %7s %12s %12s %9s%n", "family", "source",
                "streams", "accumulated", "folded", "early-finish", "both-reject", "disagree"));
        // the families every export has, then any other a recording names (openai-compatible servers)
        List<String> families = new ArrayList<>(FAMILIES);
        verdicts.stream().map(SdkOracle.Verdict::family).distinct().sorted().filter(f -> !families.contains(f))
                .forEach(families::add);
        for (String family : families) {
            for (String source : SOURCES) {
                Map<SdkOracle.Outcome, Integer> outcomes = new EnumMap<>(SdkOracle.Outcome.class);
                int streams = 0;
                for (SdkOracle.Verdict verdict : verdicts) {
                    if (verdict.family().equals(family) && verdict.source().equals(source)) {
                        streams++;
                        outcomes.merge(verdict.outcome(), 1, Integer::sum);
                    }
                }
                if (streams == 0 && !FAMILIES.contains(family)) {
                    continue;
                }
                out.append(String.format("[openai-sdk oracle] %-17s %-12s %7d %12d %7d %12d %12d %9d%n", family, source,
                        streams, outcomes.getOrDefault(SdkOracle.Outcome.ACCUMULATED, 0),
                        outcomes.getOrDefault(SdkOracle.Outcome.FOLDED, 0),
                        outcomes.getOrDefault(SdkOracle.Outcome.EARLY_FINISH, 0),
                        outcomes.getOrDefault(SdkOracle.Outcome.BOTH_REJECT, 0),
                        outcomes.getOrDefault(SdkOracle.Outcome.DISAGREE, 0)));
            }
        }
        verdicts.stream().filter(v -> !v.notes().isEmpty() && v.outcome() != SdkOracle.Outcome.DISAGREE)
                .forEach(v -> out.append("[openai-sdk oracle] note: ").append(v).append('\n'));
        return out.toString().stripTrailing();
    }
}
