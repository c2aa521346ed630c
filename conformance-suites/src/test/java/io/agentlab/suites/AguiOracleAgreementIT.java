package io.agentlab.suites;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClasspathResource;

import io.agentlab.engine.ConformanceTestEngine;
import io.agentlab.contracts.AguiEndpointContract;
import io.agentlab.contracts.AguiEndpointContract.Report;
import io.agentlab.contracts.AguiEndpointContract.Settings;
import io.agentlab.agui.AguiProfile;
import io.agentlab.agui.AguiStreamChecker.Violation;
import io.agentlab.runtime.llm.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.launcher.EngineFilter;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import tools.jackson.databind.JsonNode;

/**
 * The official AG-UI 1.0 client as the oracle of the kit's checker. {@code oracles/agui} pins {@code @ag-ui/core} and
 * {@code @ag-ui/client} 1.0.0; this test installs them with {@code npm ci} and hands them every audit stream the
 * suites wrote (both modes, the AG-UI 1.0 profile and the social dialect) and variants of them, deliberately broken
 * or valid-but-unusual ({@link AguiStreamVariants}), multi-run ones among them (several runs in one stream, runs
 * without messages, snapshot-only runs, retransmissions, with and without reused ids). The kit's AG-UI 1.0 checker
 * and the official client must give the same verdict on every stream, except where the kit is deliberately stricter
 * (docs/runtime.md#strictness): the client takes a stream, accepting a run the stream left open or merging a run's
 * message or tool call into an earlier run's, and the kit rejects it for the rule the strictness list names. Every
 * AG-UI 1.0 stream of the suites must pass both; every broken variant must fail both, the kit naming the rule it was
 * broken for; every strictness variant must be taken by the client and rejected by the kit for its rule; every valid
 * variant must pass both. 200 random changes and 100 random multi-run threads, from a seed printed with any
 * disagreement ({@code -Dagentlab-build.agui-oracle.seed=N} replays it), need only agreement. Runs after the suites
 * (failsafe, {@code mvn verify}); writes {@code target/agui-oracle/agreement.md}.
 *
 * <p>Needs {@code node} and {@code npm} on the PATH. {@code -Dagentlab-build.agui-oracle=required} (CI) fails without them;
 * the default {@code auto} skips, saying so loudly; {@code off} skips on purpose.
 */
class AguiOracleAgreementIT {

    private static final Path AUDIT = Path.of("target/agentlab-audit");
    private static final Path WORK = Path.of("target/agui-oracle");
    private static final int RANDOM_VARIANTS = 200;
    private static final int RANDOM_RUN_VARIANTS = 100;

    /**
     * Where the kit is deliberately stricter than the client (docs/runtime.md#strictness): what the client does with
     * such a stream ({@code client} of verdicts.mjs) and the violation that must say so: a run the stream left open
     * (the client accepts it), a run's message or tool call merged into an earlier run's, two messages under one id.
     */
    private static final Map<String, java.util.function.Predicate<Violation>> STRICTNESS = Map.of(
            "accepted", v -> v.rule().equals("AGUI1-07"),
            "merged", v -> v.rule().equals("AGUI1-14") && v.message().contains("the client merges"),
            "duplicated", v -> (v.rule().equals("AGUI1-14") || v.rule().equals("AGUI1-15"))
                    && v.message().contains("two messages with"));
    /** The rules of the strictness list: a stream the client takes is rejected for these or it is a disagreement. */
    private static final List<String> STRICT_RULES = List.of("AGUI1-07", "AGUI1-14", "AGUI1-15");

    private record Sample(String group, String thread, Path file) {
    }

    /**
     * One checker's verdict on a stream.
     *
     * @param ok         whether it passes
     * @param client     the official client's own behaviour ({@code accepted}, {@code merged}, {@code duplicated},
     *                   {@code warned}, {@code rejected}); null for the kit
     * @param detail     why not, in one line
     * @param violations the kit's AGUI1 violations (empty for the official client)
     */
    private record Verdict(boolean ok, String client, String detail, List<Violation> violations) {
    }

    /** How the two verdicts on one stream relate. */
    private sealed interface Agreement {
        /** Both pass. */
        record BothPass() implements Agreement {
        }

        /** Both fail: the client itself rejects the stream or warns on it. */
        record BothFail() implements Agreement {
        }

        /** The client takes the stream; the kit rejects it for {@code rule}, a documented deliberate strictness. */
        record Stricter(String rule) implements Agreement {
        }

        /** They disagree. */
        record Disagree(String why) implements Agreement {
        }
    }

    /** The agreement of the kit's verdict {@code mine} with the official {@code theirs}. */
    private static Agreement compare(Verdict mine, Verdict theirs) {
        if (mine.ok() && theirs.ok()) {
            return new Agreement.BothPass();
        }
        if (mine.ok() != theirs.ok()) {
            return new Agreement.Disagree(mine.ok() ? "the kit passes what the oracle rejects"
                    : "the kit rejects what the oracle passes");
        }
        java.util.function.Predicate<Violation> says = STRICTNESS.get(theirs.client());
        if (says == null) {
            return new Agreement.BothFail(); // rejected or warned: the client itself objects
        }
        Optional<Violation> why = mine.violations().stream().filter(says).findFirst();
        boolean strictOnly = mine.violations().stream().allMatch(v -> STRICT_RULES.contains(v.rule()));
        if (why.isPresent() && strictOnly) {
            return new Agreement.Stricter(why.get().rule());
        }
        return new Agreement.Disagree("the client " + theirs.client() + " the stream; the kit's rejection is no "
                + "documented strictness (a violation must say what the client did, and none may be outside "
                + STRICT_RULES + ")");
    }

    @Test
    @DisplayName("the kit's AG-UI 1.0 checker and @ag-ui/client 1.0.0 agree on every stream of the suites and on "
            + "every variant")
    void officialClientAgrees() throws Exception {
        Path node = AguiOracleNode.tool("node");
        Path npm = AguiOracleNode.tool("npm");

        Map<String, List<Path>> agui = threads(AUDIT.resolve(AguiProfile.AGUI_1_0.id()));
        Map<String, List<Path>> social = threads(AUDIT.resolve(AguiProfile.SOCIAL_DIALECT.id()));
        long cases = caseModes();
        assertThat(agui).as("AG-UI 1.0 threads exported by ConformanceSuitesTest to " + AUDIT
                + " (run the suites first: mvn -pl conformance-suites verify)").hasSize((int) cases);
        assertThat(social).as("social-dialect threads exported by SocialDialectSuitesTest").hasSize((int) cases);

        long seed = Long.getLong("agentlab-build.agui-oracle.seed", System.nanoTime());
        List<AguiStreamVariants.Variant> variants = new ArrayList<>(AguiStreamVariants.of(bodies(agui)));
        variants.addAll(AguiStreamVariants.random(bodies(agui), seed, RANDOM_VARIANTS));
        variants.addAll(AguiStreamVariants.randomRuns(bodies(agui), seed, RANDOM_RUN_VARIANTS));
        Map<String, List<Path>> variantThreads = new TreeMap<>();
        Map<Path, AguiStreamVariants.Variant> variantOf = new LinkedHashMap<>();
        int number = 0;
        for (AguiStreamVariants.Variant variant : variants) {
            Path folder = WORK.resolve("variants").resolve(String.format("%03d", ++number));
            Files.createDirectories(folder);
            List<Path> files = new ArrayList<>();
            for (int run = 0; run < variant.streams().size(); run++) {
                Path file = folder.resolve(String.format("%03d.sse", run + 1));
                Files.writeString(file, variant.streams().get(run), StandardCharsets.UTF_8);
                files.add(file);
            }
            variantThreads.put(variant.name(), files);
            variantOf.put(files.get(files.size() - 1), variant);
        }

        List<Sample> streams = new ArrayList<>();
        agui.forEach((thread, files) -> files.forEach(f -> streams.add(new Sample("agui-1.0", thread, f))));
        social.forEach((thread, files) -> files.forEach(f -> streams.add(new Sample("social-dialect", thread, f))));
        variantThreads.forEach((thread, files) -> files.forEach(f -> streams.add(new Sample("variant", thread, f))));

        Map<Path, Verdict> official = official(node, npm, List.of(agui, social, variantThreads), streams.size());
        Map<Path, Verdict> kit = new LinkedHashMap<>();
        for (Map<String, List<Path>> group : List.of(agui, social, variantThreads)) {
            group.forEach((thread, files) -> kit.putAll(kit(files)));
        }

        List<String> disagreements = new ArrayList<>();
        List<String> expectations = new ArrayList<>();
        // group -> [streams, both pass, both fail, kit stricter]; and per strictness rule, how many streams
        Map<String, int[]> counts = new TreeMap<>();
        Map<String, Integer> stricter = new TreeMap<>();
        // variant family -> "client <what it did> / kit <verdict>" -> changed streams
        Map<String, Map<String, Integer>> families = new TreeMap<>();
        for (Sample stream : streams) {
            Verdict mine = kit.get(stream.file());
            Verdict theirs = official.get(stream.file());
            int[] count = counts.computeIfAbsent(stream.group(), g -> new int[4]);
            count[0]++;
            Agreement agreement = compare(mine, theirs);
            if (variantOf.containsKey(stream.file())) {
                String name = variantOf.get(stream.file()).name();
                String family = name.startsWith("random runs") ? "(random multi-run threads)"
                        : name.startsWith("random") ? "(random changes)" : name.substring(0, name.indexOf(" <- "));
                String kitSays = agreement instanceof Agreement.Stricter strict ? "rejects, " + strict.rule()
                        + " (documented strictness)" : agreement instanceof Agreement.Disagree ? "DISAGREES"
                        : mine.ok() ? "passes" : "rejects";
                families.computeIfAbsent(family, f -> new TreeMap<>()).merge("client " + theirs.client() + " / kit "
                        + kitSays, 1, Integer::sum);
            }
            if (agreement instanceof Agreement.Disagree disagree) {
                disagreements.add(stream.file() + " (" + stream.thread() + "): " + disagree.why()
                        + "\n      kit: " + mine.detail() + "\n      @ag-ui/client (" + theirs.client() + "): "
                        + theirs.detail());
                continue;
            } else if (agreement instanceof Agreement.Stricter strict) {
                count[3]++;
                stricter.merge(strict.rule() + " (client " + theirs.client() + ")", 1, Integer::sum);
            } else {
                count[agreement instanceof Agreement.BothPass ? 1 : 2]++;
            }
            AguiStreamVariants.Variant variant = variantOf.get(stream.file());
            AguiStreamVariants.Expected expected = variant != null ? variant.expected()
                    : stream.group().equals("agui-1.0") ? AguiStreamVariants.Expected.PASS
                    : AguiStreamVariants.Expected.EITHER;
            switch (expected) {
                case PASS -> {
                    if (!mine.ok()) {
                        expectations.add(stream.file() + " (" + stream.thread() + "): expected valid, fails both: "
                                + mine.detail() + " / " + theirs.detail());
                    }
                }
                case FAIL -> {
                    if (mine.ok() || !mine.detail().contains(variant.rule() + " ")) {
                        expectations.add(stream.file() + " (" + stream.thread() + "): broken for " + variant.rule()
                                + ", but the kit says " + mine.detail());
                    }
                }
                case STRICTER -> {
                    if (!(agreement instanceof Agreement.Stricter strict) || !strict.rule().equals(variant.rule())) {
                        expectations.add(stream.file() + " (" + stream.thread() + "): expected the client to take it "
                                + "and the kit to reject it for " + variant.rule() + " (a documented strictness), but "
                                + "the client " + theirs.client() + " it (" + theirs.detail() + ") and the kit says "
                                + mine.detail());
                    }
                }
                case EITHER -> { }
            }
        }
        for (Map.Entry<String, List<Path>> thread : social.entrySet()) {
            for (Report report : AguiEndpointContract.checkFiles(thread.getValue(), settings()
                    .withProfile(AguiProfile.SOCIAL_DIALECT))) {
                if (!report.passes()) {
                    expectations.add(report.source() + ": the social dialect's own rules reject it: "
                            + report.violations());
                }
            }
        }

        StringBuilder summary = new StringBuilder("AG-UI oracle: @ag-ui/core and @ag-ui/client 1.0.0 (oracles/agui) "
                + "against the kit's agui-1.0 checker\n\n| streams | checked | both pass | both fail | kit stricter "
                + "(documented) | disagree |\n| --- | --- | --- | --- | --- | --- |\n");
        counts.forEach((group, count) -> summary.append("| ").append(group).append(" | ").append(count[0])
                .append(" | ").append(count[1]).append(" | ").append(count[2]).append(" | ").append(count[3])
                .append(" | ").append(count[0] - count[1] - count[2] - count[3]).append(" |\n"));
        summary.append("\nkit stricter than the client (docs/runtime.md#strictness): ").append(stricter.isEmpty()
                ? "none" : stricter.toString()).append("\n");
        summary.append("\n").append(agui.size()).append(" threads (").append(cases).append(" case-mode runs of the ")
                .append("shipped suites) per profile; ").append(variants.size()).append(" variant threads: ")
                .append(count(variants, AguiStreamVariants.Expected.FAIL)).append(" broken, ")
                .append(count(variants, AguiStreamVariants.Expected.STRICTER)).append(" taken by the client and "
                        + "rejected by the kit, ")
                .append(count(variants, AguiStreamVariants.Expected.PASS)).append(" valid, ")
                .append(count(variants, AguiStreamVariants.Expected.EITHER)).append(" random (")
                .append(RANDOM_VARIANTS).append(" changed runs, ").append(RANDOM_RUN_VARIANTS)
                .append(" multi-run threads; seed ").append(seed)
                .append(")\n");
        summary.append("\n| variant family | changed streams: the client / the kit |\n| --- | --- |\n");
        families.forEach((family, cells) -> summary.append("| ").append(family).append(" | ").append(cells.entrySet()
                .stream().map(e -> e.getValue() + " × " + e.getKey()).collect(java.util.stream.Collectors.joining("; ")))
                .append(" |\n"));
        Files.writeString(WORK.resolve("agreement.md"), summary);
        // one line on the console, the tables in the file: a green build stays short (docs/development.md#build-output)
        int checked = counts.values().stream().mapToInt(count -> count[0]).sum();
        int stricterCount = counts.values().stream().mapToInt(count -> count[3]).sum();
        System.out.println("AG-UI oracle (@ag-ui/core and @ag-ui/client 1.0.0): " + checked + " streams, "
                + stricterCount + " where the kit is stricter (documented), " + disagreements.size()
                + " disagreeing; seed " + seed + "; tables in " + WORK.resolve("agreement.md").toAbsolutePath());

        if (!disagreements.isEmpty()) {
            fail(disagreements.size() + " stream(s) where the kit and the official client disagree (random variants "
                    + "from seed " + seed + "; replay with -Dagentlab-build.agui-oracle.seed=" + seed + "):\n  - "
                    + String.join("\n  - ", disagreements));
        }
        assertThat(expectations).as("streams whose verdict both give is not the one expected").isEmpty();
        assertThat(counts.values().stream().mapToInt(c -> c[0]).sum()).as("streams compared").isEqualTo(streams.size())
                .isGreaterThan(2 * (int) cases);
    }

    private static long count(List<AguiStreamVariants.Variant> variants, AguiStreamVariants.Expected expected) {
        return variants.stream().filter(v -> v.expected() == expected).count();
    }

    private static Settings settings() {
        return Settings.defaults().withTimeout(Duration.ofSeconds(60));
    }

    /** The kit's AG-UI 1.0 verdict on each stream of one thread: its AGUI1 rules (ENDPOINT rules have no counterpart in a client). */
    private static Map<Path, Verdict> kit(List<Path> files) {
        Map<Path, Verdict> verdicts = new LinkedHashMap<>();
        List<Report> reports = AguiEndpointContract.checkFiles(files, settings());
        for (int i = 0; i < files.size(); i++) {
            Report report = reports.get(i);
            if (report instanceof AguiEndpointContract.Unreadable unreadable) {
                throw new IllegalStateException(files.get(i) + " is unreadable to the kit: " + unreadable.problem());
            }
            List<Violation> protocol = report.violations().stream().filter(v -> v.rule().startsWith("AGUI1-")).toList();
            verdicts.put(files.get(i), new Verdict(protocol.isEmpty(), null, protocol.isEmpty() ? "passes"
                    : protocol.stream().map(Violation::toString).limit(3).toList().toString(), protocol));
        }
        return verdicts;
    }

    /** Installs the oracle with npm ci and asks it for one verdict per stream. */
    private static Map<Path, Verdict> official(Path node, Path npm, List<Map<String, List<Path>>> groups,
                                               int expected) throws IOException, InterruptedException {
        Files.createDirectories(WORK);
        Path packages = AguiOracleNode.install(npm, List.of("verdicts.mjs"));

        Path root = Path.of("target").toAbsolutePath();
        List<Map<String, Object>> threads = new ArrayList<>();
        for (Map<String, List<Path>> group : groups) {
            group.forEach((thread, files) -> threads.add(Map.of("name", thread, "streams", files.stream()
                    .map(f -> Map.of("name", f.toString(), "file", root.relativize(f.toAbsolutePath()).toString()))
                    .toList())));
        }
        Path manifest = root.resolve("agui-oracle-manifest.json");
        Files.writeString(manifest, Json.write(Map.of("threads", threads)));
        Path output = WORK.resolve("verdicts.jsonl");
        AguiOracleNode.run(List.of(node.toString(), packages.resolve("verdicts.mjs").toAbsolutePath().toString(),
                manifest.toString()), WORK, output, true);

        Map<Path, Verdict> verdicts = new LinkedHashMap<>();
        int summary = -1;
        try (Stream<String> lines = Files.lines(output)) {
            for (String line : (Iterable<String>) lines::iterator) {
                JsonNode verdict = Json.tree(line);
                if (verdict.has("summary")) {
                    summary = verdict.path("summary").path("checked").asInt();
                    continue;
                }
                if ("oracle".equals(verdict.path("stage").asString())) {
                    fail("the oracle script failed on " + verdict.path("stream").asString() + ": "
                            + verdict.path("reason").asString());
                }
                verdicts.put(Path.of(verdict.path("stream").asString()), new Verdict(verdict.path("ok").asBoolean(),
                        verdict.path("client").asString(), verdict.path("ok").asBoolean() ? "passes"
                        : verdict.path("stage").asString() + ": " + verdict.path("reason").asString(), List.of()));
            }
        }
        assertThat(summary).as("streams the oracle reports it checked (" + output + ")").isEqualTo(expected);
        assertThat(verdicts).as("one verdict per stream").hasSize(expected);
        return verdicts;
    }

    /** The threads under {@code directory}: each {@code <suite>/<case>/<mode>} folder, its runs in order. */
    private static Map<String, List<Path>> threads(Path directory) throws IOException {
        Map<String, List<Path>> threads = new TreeMap<>();
        if (!Files.isDirectory(directory)) {
            return threads;
        }
        try (Stream<Path> files = Files.walk(directory)) {
            files.filter(f -> f.toString().endsWith(".sse")).sorted().forEach(f -> threads.computeIfAbsent(
                    directory.relativize(f.getParent()).toString(), k -> new ArrayList<>()).add(f));
        }
        return threads;
    }

    private static Map<String, List<String>> bodies(Map<String, List<Path>> threads) throws IOException {
        Map<String, List<String>> bodies = new TreeMap<>();
        for (Map.Entry<String, List<Path>> thread : threads.entrySet()) {
            List<String> streams = new ArrayList<>();
            for (Path file : thread.getValue()) {
                streams.add(Files.readString(file));
            }
            bodies.put(thread.getKey(), streams);
        }
        return bodies;
    }

    /** How many cases run in how many modes: the engine's own discovery of the shipped suites, counted independently. */
    private static long caseModes() {
        TestPlan plan = LauncherFactory.create().discover(LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClasspathResource("agentlab/suites"))
                .filters(EngineFilter.includeEngines(ConformanceTestEngine.ENGINE_ID)).build());
        List<TestIdentifier> all = new ArrayList<>();
        plan.getRoots().forEach(root -> all.addAll(plan.getDescendants(root)));
        return all.stream().filter(id -> UniqueId.parse(id.getUniqueId()).getLastSegment().getType().equals("mode"))
                .count();
    }
}
