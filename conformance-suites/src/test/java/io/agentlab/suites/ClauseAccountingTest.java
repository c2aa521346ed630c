package io.agentlab.suites;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Every clause of {@code docs/design.md} is accounted for, as the Reactive Streams TCK marks its untested rules
 * (docs/suites.md#every-clause-accounted-for): a shipped suite case's {@code clause:} cites it, or a test does (any
 * tracked file under a {@code src/test/} folder), or a marker right under the clause says why the suites do not verify
 * it. A marker on a clause a shipped case cites is stale. Only {@code clause:} values count for the suites: a suite's
 * {@code spec:} and YAML comments give no verdict of their own. The table of who verifies what is
 * {@code docs/clause-accounting.md}; regenerate it with {@code -Dtest=ClauseAccountingTest
 * -Dagentlab-build.regenerate-docs=true}.
 */
class ClauseAccountingTest {

    /** The shipped suites, relative to the repository. */
    static final String SUITES = "conformance-suites/src/main/resources/agentlab/suites/";
    /** The committed table, relative to the repository; a copy is always written to {@link #GENERATED}. */
    static final String TABLE = "docs/clause-accounting.md";
    static final Path GENERATED = Path.of("target/clause-accounting.md");
    /** The system property that rewrites the committed table instead of comparing with it. */
    static final String REGENERATE = "agentlab-build.regenerate-docs";

    /** Why a clause is not verified by the suites; each kind is defined in docs/suites.md. */
    static final Set<String> KINDS = Set.of("non-goal", "process", "benchmark", "review", "plugin-authors", "gap");
    /**
     * {@code *Not verified by the suites (<kind>): <why>; checked by <what>.*} (something outside the suites and the
     * tests checks it) or {@code …; left to <who>.*} (nothing does).
     */
    static final Pattern MARKER = Pattern.compile(
            "\\*Not verified by the suites \\(([a-z-]+)\\): (.+); (checked by|left to) (.+)\\.\\*");
    static final String MARKER_START = "*Not verified";
    private static final Pattern ANCHOR = Pattern.compile("<a id=\"([a-z0-9-]+)\"></a>");
    /** A case's subject: its {@code clause:} starts with the citation (docs/suite-format.md). */
    private static final Pattern LEADING = Pattern.compile("^\\s*(?:docs/)?design\\.md#([A-Za-z0-9_-]+)");

    private static Path root;
    private static Accounting accounting;

    @BeforeAll
    static void account() throws IOException {
        root = RepositoryCitationsTest.repositoryRoot();
        List<Path> files = RepositoryCitationsTest.trackedFiles(root);
        YAMLMapper yaml = new YAMLMapper();
        List<Case> cases = new ArrayList<>();
        Map<String, List<String>> tests = new TreeMap<>();
        for (Path file : files) {
            String name = root.relativize(file).toString().replace('\\', '/');
            if (name.startsWith(SUITES) && name.endsWith(".suite.yaml")) {
                JsonNode suite = yaml.readTree(Files.readString(file, StandardCharsets.UTF_8));
                for (JsonNode testCase : suite.path("cases")) {
                    cases.add(new Case(suite.path("id").asString() + "/" + testCase.path("id").asString(),
                            testCase.path("clause").asString()));
                }
            } else if (name.contains("/src/test/")) {
                // two files of one module may share a name (cli's failing/ and passing/ suites): keep both texts
                tests.merge(testName(name), RepositoryCitationsTest.lines(file), (a, b) -> {
                    List<String> both = new ArrayList<>(a);
                    both.addAll(b);
                    return both;
                });
            }
        }
        assertThat(cases).as("cases of the shipped suites").isNotEmpty();
        accounting = Accounting.of(RepositoryCitationsTest.lines(root.resolve("docs/design.md")), cases, tests);
    }

    /** A test file as the table names it: its module, then its class file or its resource path. */
    static String testName(String path) {
        String module = path.substring(0, path.indexOf("/src/test/"));
        String rest = path.substring(module.length() + "/src/test/".length());
        if (rest.startsWith("java/")) {
            rest = rest.substring(rest.lastIndexOf('/') + 1);
        } else if (rest.startsWith("resources/")) {
            rest = rest.substring("resources/".length());
        }
        return module + "/" + rest;
    }

    @Test
    @DisplayName("every clause of docs/design.md is cited by a suite case or a test, or marked; no marker is stale")
    void everyClauseAccountedFor() {
        assertThat(accounting.clauses()).as("clauses of docs/design.md").isNotEmpty();
        assertThat(accounting.problems()).as("clauses not accounted for (docs/suites.md#every-clause-accounted-for)")
                .isEmpty();
    }

    @Test
    @DisplayName("docs/clause-accounting.md is the table this test generates (regenerate: -Dagentlab-build.regenerate-docs=true)")
    void tableIsCurrent() throws IOException {
        String table = accounting.table();
        Files.createDirectories(GENERATED.toAbsolutePath().getParent());
        Files.writeString(GENERATED, table, StandardCharsets.UTF_8);
        Path committed = root.resolve(TABLE);
        if (Boolean.getBoolean(REGENERATE)) {
            Files.writeString(committed, table, StandardCharsets.UTF_8);
        }
        assertThat(Files.isRegularFile(committed) ? Files.readString(committed, StandardCharsets.UTF_8)
                .replace("\r\n", "\n") : "").as(TABLE + " is stale: compare with " + GENERATED.toAbsolutePath()
                + ", regenerate with -Dtest=ClauseAccountingTest -D" + REGENERATE + "=true").isEqualTo(table);
    }

    @Test
    @DisplayName("the check fails on a clause nobody cites or marks, on a stale marker and on a malformed one")
    void checkCanFail() {
        String cite = "docs/design" + ".md#"; // in parts: these synthetic anchors must not count as citations here
        List<String> design = List.of(
                "<a id=\"alpha\"></a>", "**`alpha`** — cited by a test.",
                "<a id=\"beta\"></a>", "**`beta`** — marked.", "",
                "*Not verified by the suites (non-goal): not built", "here; left to nobody.*",
                "<a id=\"gamma\"></a>", "**`gamma`** — cited by a case, and marked.",
                "*Not verified by the suites (gap): no case yet; left to the suite authors.*",
                "<a id=\"delta\"></a>", "**`delta`** — cited by nobody.",
                "<a id=\"epsilon\"></a>", "**`epsilon`** — a marker of no known kind and one without a reason.",
                "*Not verified by the suites (hope): it works; checked by luck.*",
                "*Not verified by the suites: somebody checks it.*");
        Accounting synthetic = Accounting.of(design, List.of(new Case("s/c1", cite + "gamma the subject")),
                Map.of("m/ATest.java", List.of("/** Checks {@code " + cite + "alpha}. */")));

        assertThat(synthetic.problems()).containsExactly(
                "docs/design.md:10: clause gamma is cited by suite case s/c1, so its marker is stale: remove it",
                "docs/design.md:15: unknown kind 'hope' (known: " + new TreeSet<>(KINDS) + ")",
                "docs/design.md:16: a marker must read '*Not verified by the suites (<kind>): <why>; "
                        + "checked by <what>.*' or '…; left to <who>.*'",
                "docs/design.md:11: clause delta is cited by no suite case and no test and carries no marker",
                "docs/design.md:13: clause epsilon is cited by no suite case and no test and carries no marker");
        assertThat(synthetic.clauses()).extracting(Clause::anchor)
                .containsExactly("alpha", "beta", "gamma", "delta", "epsilon");
        assertThat(synthetic.clauses().get(0).tests()).containsExactly("m/ATest.java");
        assertThat(synthetic.clauses().get(1).marker()).isEqualTo(
                new Marker("non-goal", "not built here", "left to", "nobody", 6));
        String link = "](design" + ".md#";
        assertThat(synthetic.table()).contains("| [`alpha`" + link + "alpha) | tests only |  | m/ATest.java |  |",
                "| [`gamma`" + link + "gamma) | suite | s/c1 |  | *stale:* gap: no case yet; left to the suite authors |");
    }

    /** A shipped case and its {@code clause:} text. */
    record Case(String name, String clause) {
    }

    /** A marker: its kind, its reason, whether something checks the clause ({@code checked by}) or nothing does. */
    record Marker(String kind, String reason, String verb, String who, int line) {

        /** The marker as the table shows it. */
        String text() {
            return kind + ": " + reason + "; " + verb + " " + who;
        }
    }

    /** One clause: where it is defined, the cases and tests citing it, and its marker if it has one. */
    record Clause(String anchor, int line, List<String> cases, Set<String> tests, Marker marker) {

        String status() {
            if (!cases.isEmpty()) {
                return "suite";
            }
            if (!tests.isEmpty()) {
                return marker == null ? "tests only" : "tests only; marked " + marker.kind();
            }
            return marker == null ? "unaccounted" : "marked " + marker.kind()
                    + (marker.verb().equals("left to") ? ", not verified" : ", checked elsewhere");
        }
    }

    /** The accounting of one design against one set of cases and tests; pure, so the check can be tested. */
    record Accounting(List<Clause> clauses, List<String> problems) {

        static Accounting of(List<String> design, List<Case> cases, Map<String, List<String>> tests) {
            Map<String, Integer> lines = new LinkedHashMap<>();
            Map<String, Marker> markers = new LinkedHashMap<>();
            List<String> problems = new ArrayList<>();
            String current = null;
            for (int i = 0; i < design.size(); i++) {
                String line = design.get(i).trim();
                Matcher anchor = ANCHOR.matcher(line);
                if (anchor.find()) {
                    current = anchor.group(1);
                    lines.put(current, i + 1);
                }
                if (!line.startsWith(MARKER_START)) {
                    continue;
                }
                int first = i;
                StringBuilder text = new StringBuilder(line);
                // a marker is one paragraph: wrapped like the clauses, it ends at a blank line
                while (i + 1 < design.size() && !design.get(i + 1).isBlank()
                        && !ANCHOR.matcher(design.get(i + 1)).find()
                        && !design.get(i + 1).trim().startsWith(MARKER_START)) {
                    text.append(' ').append(design.get(++i).trim());
                }
                Matcher m = MARKER.matcher(text);
                String at = "docs/design.md:" + (first + 1) + ": ";
                if (!m.matches()) {
                    problems.add(at + "a marker must read '*Not verified by the suites (<kind>): <why>; checked by "
                            + "<what>.*' or '…; left to <who>.*'");
                } else if (!KINDS.contains(m.group(1))) {
                    problems.add(at + "unknown kind '" + m.group(1) + "' (known: " + new TreeSet<>(KINDS) + ")");
                } else if (current == null) {
                    problems.add(at + "a marker before the first clause belongs to none");
                } else if (markers.containsKey(current)) {
                    problems.add(at + "clause " + current + " has a marker already");
                } else {
                    markers.put(current, new Marker(m.group(1), m.group(2), m.group(3), m.group(4), first + 1));
                }
            }
            Map<String, List<String>> byCase = new TreeMap<>();
            for (Case c : cases) {
                Matcher m = LEADING.matcher(c.clause());
                if (m.find()) {
                    byCase.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(c.name());
                }
            }
            Map<String, Set<String>> byTest = new TreeMap<>();
            tests.forEach((file, text) -> {
                for (String line : text) {
                    Matcher m = RepositoryCitationsTest.CITATION.matcher(line);
                    while (m.find()) {
                        byTest.computeIfAbsent(m.group(1), k -> new TreeSet<>()).add(file);
                    }
                }
            });
            List<Clause> clauses = new ArrayList<>();
            List<String> unaccounted = new ArrayList<>();
            lines.forEach((anchor, line) -> {
                Clause clause = new Clause(anchor, line, byCase.getOrDefault(anchor, List.of()),
                        byTest.getOrDefault(anchor, Set.of()), markers.get(anchor));
                clauses.add(clause);
                if (clause.marker() != null && !clause.cases().isEmpty()) {
                    problems.add("docs/design.md:" + clause.marker().line() + ": clause " + anchor + " is cited by "
                            + "suite case " + String.join(", ", clause.cases()) + ", so its marker is stale: remove it");
                } else if (clause.status().equals("unaccounted")) {
                    unaccounted.add("docs/design.md:" + line + ": clause " + anchor + " is cited by no suite case and "
                            + "no test and carries no marker");
                }
            });
            // the markers' problems (malformed, stale) in line order, then the clauses nobody accounts for
            List<String> all = new ArrayList<>(problems.stream().sorted(Comparator.comparingInt(Accounting::lineOf))
                    .toList());
            all.addAll(unaccounted);
            return new Accounting(List.copyOf(clauses), List.copyOf(all));
        }

        private static int lineOf(String problem) {
            String rest = problem.substring("docs/design.md:".length());
            return Integer.parseInt(rest.substring(0, rest.indexOf(':')));
        }

        /** The Markdown table of docs/clause-accounting.md. */
        String table() {
            long suite = clauses.stream().filter(c -> !c.cases().isEmpty()).count();
            long testsOnly = clauses.stream().filter(c -> c.cases().isEmpty() && !c.tests().isEmpty()).count();
            List<Clause> marked = clauses.stream().filter(c -> c.cases().isEmpty() && c.marker() != null).toList();
            List<Clause> markedOnly = marked.stream().filter(c -> c.tests().isEmpty()).toList();
            String kinds = marked.stream().collect(Collectors.groupingBy(c -> c.marker().kind(), TreeMap::new,
                    Collectors.counting())).entrySet().stream().map(e -> e.getValue() + " " + e.getKey())
                    .collect(Collectors.joining(", "));
            StringBuilder out = new StringBuilder();
            out.append("# Clause accounting\n\n")
                    .append("Generated by `ClauseAccountingTest` (module `conformance-suites`) from "
                            + "[design.md](design.md), the shipped suites' `clause:` values and every tracked file "
                            + "under a `src/test/` folder; do not edit. Regenerate with\n`mvn -pl conformance-suites "
                            + "test -Dtest=ClauseAccountingTest -D" + REGENERATE + "=true`. How a clause is "
                            + "accounted for: [suites.md](suites.md#every-clause-accounted-for).\n\n")
                    .append(clauses.size()).append(" clauses: ").append(suite)
                    .append(" cited by a shipped suite case; ").append(testsOnly)
                    .append(" cited by tests but by no suite case; ").append(markedOnly.size())
                    .append(" cited by neither and marked. ").append(marked.size())
                    .append(" clauses carry a marker (").append(kinds.isEmpty() ? "none" : kinds).append(").\n\n")
                    .append("The suites' blind spots, the clauses no shipped case cites: ")
                    .append(clauses.stream().filter(c -> c.cases().isEmpty()).map(c -> "`" + c.anchor() + "`")
                            .collect(Collectors.joining(", ")))
                    .append(".\n\n")
                    .append("| clause | verified by | suite cases | tests | not verified by the suites |\n")
                    .append("| --- | --- | --- | --- | --- |\n");
            for (Clause c : clauses) {
                String marker = c.marker() == null ? ""
                        : (c.cases().isEmpty() ? "" : "*stale:* ") + c.marker().text().replace("|", "\\|");
                out.append("| [`").append(c.anchor()).append("`](design.md#").append(c.anchor()).append(") | ")
                        .append(c.status()).append(" | ").append(String.join(", ", c.cases())).append(" | ")
                        .append(String.join(", ", c.tests())).append(" | ").append(marker).append(" |\n");
            }
            return out.toString();
        }
    }
}
