package io.agentlab.report.internal;

import io.agentlab.report.TestOutcome;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/**
 * The page's data block, {@code <script type="application/json" id="agentlab-data">}: the run, the counts, and every
 * listed test in the order of its row ({@code data-test} is its index) with what the page's script filters by — suite
 * (absent for a gate, whose group is {@code gates}), name, kind, mode, tags, status and message
 * (docs/engine.md#html-report). Written by Jackson, then made safe inside a script element: {@code <}, {@code >},
 * {@code &}, U+2028 and U+2029 only ever occur in JSON strings, where their {@code \}{@code u} escapes mean the same,
 * so no message can close the element ({@code </script>}) or break a script that reads it as JavaScript.
 */
final class ReportData {

    /** The version of the block's shape; a reader of an older page can tell. */
    static final int FORMAT = 1;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private ReportData() {
    }

    /** The block's JSON for {@code report}, whose rows list {@code rows} in this order. */
    static String of(RunReport report, List<TestOutcome> rows) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("format", FORMAT);
        data.put("run", report.metadata().toMap());
        Map<String, Long> counts = new LinkedHashMap<>();
        for (TestOutcome.Status status : TestOutcome.Status.values()) {
            counts.put(status.wireName(), report.count(status));
        }
        data.put("counts", counts);
        data.put("gates", RunReport.GATES);
        List<Map<String, Object>> tests = new ArrayList<>();
        for (TestOutcome test : rows) {
            // what the filter reads, nothing more: the block travels in every page (docs/performance.md#html-report)
            Map<String, Object> entry = new LinkedHashMap<>();
            test.suite().ifPresent(suite -> entry.put("suite", suite));
            entry.put("name", test.name());
            entry.put("kind", test.kind());
            entry.put("mode", test.mode());
            entry.put("tags", test.tags());
            entry.put("status", test.status().wireName());
            test.message().ifPresent(message -> entry.put("message", message));
            tests.add(entry);
        }
        data.put("tests", tests);
        return scriptSafe(JSON.writeValueAsString(data));
    }

    /** {@code json} with every character that could end or break a script element as its JSON escape. */
    static String scriptSafe(String json) {
        StringBuilder out = new StringBuilder(json.length() + 64);
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            switch (c) {
                case '<' -> out.append("\\u003c");
                case '>' -> out.append("\\u003e");
                case '&' -> out.append("\\u0026");
                case '\u2028' -> out.append("\\u2028");
                case '\u2029' -> out.append("\\u2029");
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
