package io.agentlab.its.mutation;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The detection matrix (docs/mutation-matrix.md#matrix): mutant → the tests that caught it, the kill rate per family,
 * written as Markdown and JSON, and checked against the committed docs/mutation-matrix.md.
 */
public final class Matrix {

    /** The committed matrix, relative to the repository root. */
    public static final String DOC = "docs/mutation-matrix.md";
    /** Where the generated section of the doc begins. */
    public static final String BEGIN = "<!-- mutation-matrix:begin -->";
    /** Where it ends. */
    public static final String END = "<!-- mutation-matrix:end -->";
    /** Where the generated over-the-wire table of the doc begins (docs/mutation-matrix.md#over-the-wire). */
    public static final String WIRE_BEGIN = "<!-- mutation-wire:begin -->";
    /** Where it ends. */
    public static final String WIRE_END = "<!-- mutation-wire:end -->";
    private static final Pattern WIRE_ROW = Pattern.compile(
            "^\\| `([a-z0-9-]+)` \\| [^|]+ \\| [^|]+ \\| (caught|escapes) \\|", Pattern.MULTILINE);
    private static final Pattern ROW = Pattern.compile(
            "^\\| `([a-z0-9-]+)` \\| [^|]+ \\| [^|]+ \\| (caught|survived|equivalent) \\|", Pattern.MULTILINE);
    private static final int NAMED = 4;
    private static final Pattern CAUGHT_ROW = Pattern.compile(
            "^\\| `([a-z0-9-]+)` \\| [^|]+ \\| [^|]+ \\| caught \\| ([^\\n]*)\\|$", Pattern.MULTILINE);
    private static final Pattern NAMED_TEST = Pattern.compile("`([^`]+ \\[[a-z_]+\\])`");

    private final MutationHarness.Outcome outcome;

    public Matrix(MutationHarness.Outcome outcome) {
        this.outcome = outcome;
    }

    /** The status the matrix shows: an equivalent mutant that survived shows {@code equivalent}. */
    static String status(MutationHarness.Result result) {
        return result.mutant().equivalent().isPresent() && !result.verdict().caught() ? "equivalent"
                : result.verdict().status();
    }

    /** Non-equivalent mutants caught, over non-equivalent mutants. */
    public double killRate() {
        long judged = outcome.results().stream().filter(r -> r.mutant().equivalent().isEmpty()).count();
        long caught = outcome.results().stream().filter(r -> r.mutant().equivalent().isEmpty())
                .filter(r -> r.verdict().caught()).count();
        return judged == 0 ? 1.0 : (double) caught / judged;
    }

    /** The generated section of docs/mutation-matrix.md, between its markers. */
    public String markdown() {
        StringBuilder md = new StringBuilder(BEGIN).append('\n');
        List<MutationHarness.Result> results = outcome.results();
        long equivalents = results.stream().filter(r -> r.mutant().equivalent().isPresent()).count();
        long judged = results.size() - equivalents;
        long caught = results.stream().filter(r -> r.mutant().equivalent().isEmpty() && r.verdict().caught()).count();
        md.append("\n### Kill rate\n\n**").append(caught).append(" of ").append(judged)
                .append(" non-equivalent mutants caught by the shipped suites alone (").append(percent(killRate()))
                .append(")**; ").append(equivalents).append(" equivalent, excluded; ").append(results.size())
                .append(" in the catalogue.\n\n");
        md.append("| family | mutants | caught | survived | equivalent | kill rate |\n");
        md.append("| --- | ---: | ---: | ---: | ---: | ---: |\n");
        Map<String, List<MutationHarness.Result>> families = new TreeMap<>();
        results.forEach(r -> families.computeIfAbsent(r.mutant().family(), f -> new ArrayList<>()).add(r));
        families.forEach((family, list) -> {
            long eq = list.stream().filter(r -> status(r).equals("equivalent")).count();
            long c = list.stream().filter(r -> r.mutant().equivalent().isEmpty() && r.verdict().caught()).count();
            long s = list.stream().filter(r -> status(r).equals("survived")).count();
            md.append("| ").append(family).append(" | ").append(list.size()).append(" | ").append(c).append(" | ")
                    .append(s).append(" | ").append(eq).append(" | ")
                    .append(c + s == 0 ? "–" : percent((double) c / (c + s))).append(" |\n");
        });
        md.append("\n### Matrix\n\n| mutant | family | clause | status | caught by |\n| --- | --- | --- | --- | --- |\n");
        for (MutationHarness.Result r : results) {
            Mutant m = r.mutant();
            md.append("| `").append(m.id()).append("` | ").append(m.family()).append(" | [")
                    .append(m.clause().substring("docs/design.md#".length())).append("](")
                    .append(m.clause().substring("docs/".length())).append(") | ").append(status(r)).append(" | ")
                    .append(caughtBy(r.verdict())).append(" |\n");
        }
        md.append("\n### Survivors and what would catch them\n\n");
        boolean any = false;
        for (MutationHarness.Result r : results) {
            if (status(r).equals("survived")) {
                any = true;
                md.append("- `").append(r.mutant().id()).append("` (").append(r.mutant().clause()).append("): ")
                        .append(oneLine(r.mutant().bug())).append(" — would be caught by: ")
                        .append(oneLine(r.mutant().missingTest().orElse("(no idea recorded yet)"))).append('\n');
            }
        }
        if (!any) {
            md.append("None.\n");
        }
        md.append("\n### Equivalent mutants\n\n");
        any = false;
        for (MutationHarness.Result r : results) {
            if (r.mutant().equivalent().isPresent()) {
                any = true;
                md.append("- `").append(r.mutant().id()).append("`: ").append(oneLine(r.mutant().bug()))
                        .append(" Equivalent because ").append(oneLine(r.mutant().equivalent().get())).append('\n');
            }
        }
        if (!any) {
            md.append("None.\n");
        }
        return md.append('\n').append(END).append('\n').toString();
    }

    private static String caughtBy(Verdict verdict) {
        if (verdict instanceof Verdict.Caught caught) {
            List<String> tests = caught.tests();
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < Math.min(NAMED, tests.size()); i++) {
                text.append(i == 0 ? "" : ", ").append('`').append(tests.get(i)).append('`');
            }
            if (tests.size() > NAMED) {
                text.append(" and ").append(tests.size() - NAMED).append(" more");
            }
            return text.toString();
        }
        if (verdict instanceof Verdict.Hung hung) {
            return "the run never finished (killed after " + hung.seconds() + " s)";
        }
        if (verdict instanceof Verdict.Broke broke) {
            return "the run failed before any verdict (exit " + broke.exitCode() + ")";
        }
        return "–";
    }

    /** The matrix as JSON: every mutant with every catching test, the kill rate, the times. */
    public String json() {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("format", "agentlab-mutation-matrix/1");
        root.put("killRate", Math.round(killRate() * 1000) / 1000.0);
        root.put("baseline", Map.of("tests", outcome.baselineTests(), "seconds", outcome.baselineTook().toSeconds(),
                "noise", outcome.baselineNoise()));
        root.put("seconds", outcome.took().toSeconds());
        List<Map<String, Object>> mutants = new ArrayList<>();
        for (MutationHarness.Result r : outcome.results()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", r.mutant().id());
            m.put("family", r.mutant().family());
            m.put("clause", r.mutant().clause());
            m.put("file", r.mutant().file());
            m.put("bug", r.mutant().bug());
            m.put("status", status(r));
            m.put("caughtBy", r.verdict() instanceof Verdict.Caught c ? c.tests() : List.of());
            m.put("noise", r.verdict() instanceof Verdict.Survived s ? s.noise() : List.of());
            m.put("seconds", r.took().toSeconds());
            r.mutant().missingTest().ifPresent(t -> m.put("missingTest", t));
            r.mutant().equivalent().ifPresent(t -> m.put("equivalent", t));
            mutants.add(m);
        }
        root.put("mutants", mutants);
        return JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build().writeValueAsString(root);
    }

    /** Writes matrix.md and matrix.json into {@code folder}. */
    public void write(Path folder) throws IOException {
        Files.createDirectories(folder);
        Files.writeString(folder.resolve("matrix.md"), "# Mutation matrix (fresh run)\n\n" + markdown());
        Files.writeString(folder.resolve("matrix.json"), json());
    }

    /**
     * What differs from the committed doc: a mutant whose status changed, one missing from either side, an
     * equivalent that was caught (its reason is wrong). Empty when the fresh run agrees.
     */
    public List<String> problems(String committedDoc) {
        List<String> problems = new ArrayList<>();
        Map<String, String> committed = new LinkedHashMap<>();
        Matcher matcher = ROW.matcher(section(committedDoc));
        while (matcher.find()) {
            committed.put(matcher.group(1), matcher.group(2));
        }
        for (MutationHarness.Result r : outcome.results()) {
            String fresh = status(r);
            String before = committed.remove(r.mutant().id());
            if (r.mutant().equivalent().isPresent() && r.verdict().caught()) {
                problems.add(r.mutant().id() + " is marked equivalent but the suites caught it ("
                        + caughtBy(r.verdict()) + "): it is not equivalent; remove its reason");
            }
            if (before == null) {
                problems.add(r.mutant().id() + " is not in " + DOC + " (fresh status: " + fresh + ")");
            } else if (!before.equals(fresh)) {
                problems.add(r.mutant().id() + " was " + before + " in " + DOC + " and is " + fresh + " now"
                        + (fresh.equals("survived") ? ": a mutant the suites caught slips through" : ""));
            }
        }
        committed.keySet().forEach(id -> problems.add(id + " is in " + DOC + " but not in the catalogue"));
        return problems;
    }

    /**
     * The tests the committed doc names as catching each caught mutant (up to four a mutant): the harness tries
     * these first.
     */
    public static Map<String, List<String>> catchers(String committedDoc) {
        Map<String, List<String>> catchers = new LinkedHashMap<>();
        Matcher row = CAUGHT_ROW.matcher(section(committedDoc));
        while (row.find()) {
            List<String> tests = new ArrayList<>();
            Matcher test = NAMED_TEST.matcher(row.group(2));
            while (test.find()) {
                tests.add(test.group(1));
            }
            if (!tests.isEmpty()) {
                catchers.put(row.group(1), List.copyOf(tests));
            }
        }
        return catchers;
    }

    /** The case ({@code suite/case}) of a test named as the matrix names it ({@code suite/case [mode]}). */
    public static String caseOf(String test) {
        int mode = test.lastIndexOf(" [");
        return mode < 0 ? test : test.substring(0, mode);
    }

    /**
     * The over-the-wire table (docs/mutation-matrix.md#over-the-wire) of an outcome of
     * {@link MutationHarness#overTheWire}: per mutant, the tests that caught it in-process ({@code inProcess}, as the
     * doc names them), whether the wire caught it, and by which tests or why it escapes.
     */
    public String wireMarkdown(Map<String, List<String>> inProcess) {
        StringBuilder md = new StringBuilder(WIRE_BEGIN).append('\n');
        long caught = outcome.results().stream().filter(r -> r.verdict().caught()).count();
        md.append("\n**").append(caught).append(" of ").append(outcome.results().size())
                .append(" mutants caught over the wire** by the cases that caught them in-process (baseline over the ")
                .append("wire: ").append(outcome.baselineTests()).append(" tests, green).\n\n")
                .append("| mutant | family | caught in-process by | over the wire | caught over the wire by, or why it "
                        + "escapes |\n| --- | --- | --- | --- | --- |\n");
        for (MutationHarness.Result r : outcome.results()) {
            Mutant m = r.mutant();
            md.append("| `").append(m.id()).append("` | ").append(m.family()).append(" | ")
                    .append(caughtBy(new Verdict.Caught(inProcess.getOrDefault(m.id(), List.of())))).append(" | ")
                    .append(r.verdict().caught() ? "caught" : "escapes").append(" | ")
                    .append(r.verdict().caught() ? caughtBy(r.verdict())
                            : m.caughtOverTheWire() ? "(the catalogue says the wire catches it)"
                            : oneLine(m.overTheWire().orElse(""))).append(" |\n");
        }
        return md.append('\n').append(WIRE_END).append('\n').toString();
    }

    /**
     * What an over-the-wire outcome gets wrong: a mutant the catalogue says the wire catches that escaped, one it says
     * escapes that the wire caught (its reason is wrong), and a row of the doc's over-the-wire table whose status
     * differs or that is missing on either side.
     */
    public List<String> wireProblems(String committedDoc) {
        List<String> problems = new ArrayList<>();
        Map<String, String> committed = new LinkedHashMap<>();
        Matcher matcher = WIRE_ROW.matcher(section(committedDoc, WIRE_BEGIN, WIRE_END));
        while (matcher.find()) {
            committed.put(matcher.group(1), matcher.group(2));
        }
        for (MutationHarness.Result r : outcome.results()) {
            Mutant m = r.mutant();
            String fresh = r.verdict().caught() ? "caught" : "escapes";
            if (m.caughtOverTheWire() && !r.verdict().caught()) {
                problems.add(m.id() + " was caught in-process and escapes over the wire: the cases that caught it "
                        + "pass against the mutated reference service" + (r.verdict() instanceof Verdict.Survived s
                        && !s.noise().isEmpty() ? " (failed once, passed on the rerun: " + s.noise() + ")" : ""));
            } else if (!m.caughtOverTheWire() && r.verdict().caught()) {
                problems.add(m.id() + " is said to escape over the wire (" + oneLine(m.overTheWire().orElse(""))
                        + ") but the wire caught it (" + caughtBy(r.verdict()) + "): set over-the-wire: caught in "
                        + Catalogue.FILE);
            }
            String before = committed.remove(m.id());
            if (before == null) {
                problems.add(m.id() + " is not in the over-the-wire table of " + DOC + " (fresh: " + fresh + ")");
            } else if (!before.equals(fresh)) {
                problems.add(m.id() + " is '" + before + "' in the over-the-wire table of " + DOC + " and " + fresh
                        + " over the wire now");
            }
        }
        committed.keySet().forEach(id -> problems.add(id + " is in the over-the-wire table of " + DOC
                + " but not in the over-the-wire subset of " + Catalogue.FILE));
        return problems;
    }

    /** The committed doc with its over-the-wire table replaced by this run's. */
    public String wireUpdated(String committedDoc, Map<String, List<String>> inProcess) {
        return replaced(committedDoc, WIRE_BEGIN, WIRE_END, wireMarkdown(inProcess));
    }

    /** The committed doc with its generated section replaced by this run's. */
    public String updated(String committedDoc) {
        return replaced(committedDoc, BEGIN, END, markdown());
    }

    private static String replaced(String doc, String beginMarker, String endMarker, String generated) {
        int begin = doc.indexOf(beginMarker);
        int end = doc.indexOf(endMarker);
        if (begin < 0 || end < begin) {
            return doc.stripTrailing() + "\n\n" + generated;
        }
        return doc.substring(0, begin) + generated
                + doc.substring(Math.min(doc.length(), end + endMarker.length() + 1));
    }

    private static String section(String doc) {
        return section(doc, BEGIN, END);
    }

    private static String section(String doc, String beginMarker, String endMarker) {
        int begin = doc.indexOf(beginMarker);
        int end = doc.indexOf(endMarker);
        return begin < 0 || end < begin ? "" : doc.substring(begin, end);
    }

    private static String percent(double rate) {
        return String.format(Locale.ROOT, "%.1f %%", rate * 100);
    }

    private static String oneLine(String text) {
        return text.strip().replaceAll("\\s+", " ").replace("|", "\\|");
    }
}
