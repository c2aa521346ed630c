package io.agentlab.report;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * What a launch covered, against what its selected suites hold (docs/engine.md#partial-launches). A launch is
 * <em>partial</em> when some selected suite did not run whole: cases were selected by unique id (an IDE's or
 * Surefire's rerun), or a filter applied after discovery removed tests (tags, {@code --case}, {@code --rerun-failed},
 * {@code --shard}, any post-discovery filter). A partial launch writes its reports under {@code partial/} and leaves
 * the whole-run gates alone ({@code agentlab.gates.on-partial}).
 *
 * @param suites             each selected suite, in discovery order
 * @param selectedByUniqueId whether discovery already selected less than whole suites (unique-id selectors)
 * @param filtered           whether filters removed tests after discovery
 */
@API(status = EXPERIMENTAL, since = "0.2")
public record Coverage(List<Suite> suites, boolean selectedByUniqueId, boolean filtered) {

    /**
     * One selected suite.
     *
     * @param id           the suite's id
     * @param cases        the cases it holds
     * @param casesCovered the cases with at least one test in the launch
     * @param tests        its tests in the configured modes (mode and parity tests)
     * @param testsCovered its tests in the launch
     */
    public record Suite(String id, int cases, int casesCovered, int tests, int testsCovered) {
        /** Whether some of its tests are not in the launch. */
        public boolean partial() {
            return testsCovered < tests;
        }
    }

    /** Copies the list. */
    public Coverage {
        suites = List.copyOf(suites);
    }

    /** Whether some selected suite did not run whole. */
    public boolean partial() {
        return suites.stream().anyMatch(Suite::partial);
    }

    /** What the launch covered, in one line for the console and the reports. */
    public String describe() {
        int cases = suites.stream().mapToInt(Suite::cases).sum();
        int tests = suites.stream().mapToInt(Suite::tests).sum();
        if (!partial()) {
            return "whole suites: " + suites.size() + " suite(s), " + cases + " case(s), " + tests + " test(s)";
        }
        List<String> touched = suites.stream().filter(suite -> suite.testsCovered() > 0).map(Suite::id).toList();
        return "partial launch: " + suites.stream().mapToInt(Suite::casesCovered).sum() + " of " + cases + " case(s) ("
                + suites.stream().mapToInt(Suite::testsCovered).sum() + " of " + tests + " test(s)) in "
                + touched.size() + " of " + suites.size() + " selected suite(s) " + touched + "; " + how()
                + "; gates and the baseline judge whole runs only (docs/engine.md#partial-launches)";
    }

    private String how() {
        if (selectedByUniqueId && filtered) {
            return "selected by unique id and filtered after discovery";
        }
        return selectedByUniqueId ? "selected by unique id (a rerun)"
                : "filtered after discovery (tags, --case, --rerun-failed, --shard or another post-discovery filter)";
    }

    /** As {@code metrics.json} writes it under {@code coverage}; {@code agentlab baseline} reads {@code partial}. */
    public Map<String, Object> toMap() {
        Map<String, Object> map = new LinkedHashMap<>();
        map.put("partial", partial());
        map.put("description", describe());
        map.put("selectedByUniqueId", selectedByUniqueId);
        map.put("filtered", filtered);
        map.put("suites", suites.stream().map(suite -> {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("id", suite.id());
            entry.put("cases", suite.cases());
            entry.put("casesCovered", suite.casesCovered());
            entry.put("tests", suite.tests());
            entry.put("testsCovered", suite.testsCovered());
            return entry;
        }).toList());
        return map;
    }
}
