package io.agentlab.plugins.corpus;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.plugins.corpus.CorpusFile.Case;
import io.agentlab.plugins.corpus.CorpusFile.Expectation;
import io.agentlab.plugins.corpus.CorpusFile.Group;
import io.agentlab.plugins.corpus.CorpusRunner.Kind;
import io.agentlab.plugins.corpus.CorpusRunner.Verdict;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The resolver corpus ({@code src/test/resources/resolver-corpus}): every utterance runs through the reference kernel
 * with the real plugin and no EventAgent fallback. A case fails only when it <b>executes with values the user did not
 * ask for</b> (or loses one of several requests): the wrong-execution rate must be 0. A question where an answer was
 * expected passes — asking is safe — and is counted as "asked". At the end the figures per file and group are printed
 * and written to {@code target/resolver-corpus.md}. Multi-request cases run in both invocation modes.
 */
class ResolverCorpusTest {

    /** Tallies per "file / group", in encounter order; the dual_agent figures unless the key says tools. */
    private static final Map<String, Tally> TALLIES = new LinkedHashMap<>();

    @Test
    @DisplayName("the corpus files match corpus.schema.json, group ids are unique and there are at least 600 utterances")
    void corpusIsWellFormed() {
        int total = 0;
        for (String name : CorpusFile.FILES) {
            CorpusFile file = CorpusFile.load(name);
            Set<String> ids = new HashSet<>();
            for (Group group : file.groups()) {
                assertThat(ids.add(group.id())).as("%s: group id '%s' is used twice", name, group.id()).isTrue();
            }
            assertThat(name).startsWith(file.event().equals("device.volume.adjust") ? "volume." : "schedule.")
                    .endsWith("." + file.language() + ".yaml");
            total += file.size();
        }
        assertThat(total).as("utterances in the corpus").isGreaterThanOrEqualTo(600);
    }

    @TestFactory
    @DisplayName("resolver corpus")
    Stream<DynamicNode> corpus() {
        return CorpusFile.FILES.stream().map(name -> {
            CorpusFile file = CorpusFile.load(name);
            CorpusRunner runner = new CorpusRunner(file.event());
            List<DynamicNode> groups = new ArrayList<>();
            for (Group group : file.groups()) {
                List<DynamicNode> cases = new ArrayList<>();
                for (Case c : group.cases()) {
                    cases.add(DynamicTest.dynamicTest(c.say(), () -> {
                        assertThat(runner.checkExpectation(c)).as("the expectation of '%s' is valid for %s",
                                c.say(), file.event()).isEmpty();
                        Verdict dual = runner.dual(c);
                        tally(name, group.id(), "dual_agent").add(dual.kind());
                        if (dual.kind() == Kind.ASKED) {
                            asked(name + " | " + c.say() + " | " + dual.detail());
                        }
                        if (c.expect() instanceof Expectation.Requests) {
                            Verdict tools = runner.tools(c);
                            tally(name, group.id(), "chat_agent_tools").add(tools.kind());
                            assertThat(tools.kind()).as("chat_agent_tools: %s", tools.detail()).isNotEqualTo(Kind.WRONG);
                        }
                        assertThat(dual.kind()).as("wrong execution of '%s': %s", c.say(), dual.detail())
                                .isNotEqualTo(Kind.WRONG);
                    }));
                }
                groups.add(DynamicContainer.dynamicContainer(group.id() + " — " + group.rule(), cases));
            }
            return DynamicContainer.dynamicContainer(name, groups);
        });
    }

    private static final List<String> ASKED = new ArrayList<>();

    private static synchronized void asked(String line) {
        ASKED.add(line);
    }

    private static synchronized Tally tally(String file, String group, String mode) {
        return TALLIES.computeIfAbsent(file + "\u0000" + group + "\u0000" + mode, key -> new Tally(file, group, mode));
    }

    @AfterAll
    static void report() {
        if (TALLIES.isEmpty()) {
            return;
        }
        StringBuilder table = new StringBuilder();
        table.append("| file | group | mode | cases | correct | accuracy | wrong executions | wrong rate | asked | ask rate |\n");
        table.append("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        Map<String, Tally> perFile = new LinkedHashMap<>();
        Tally all = new Tally("all", "all", "dual_agent");
        for (Tally tally : TALLIES.values()) {
            table.append(tally.row());
            if (tally.mode.equals("dual_agent")) {
                perFile.computeIfAbsent(tally.file, file -> new Tally(file, "all", "dual_agent")).merge(tally);
                all.merge(tally);
            }
        }
        perFile.values().forEach(tally -> table.append(tally.row()));
        table.append(all.row());
        String text = "# Resolver corpus (dual_agent unless noted, no EventAgent fallback)\n\n" + table;
        System.out.println(text);
        text += "\n## Asked instead of answering\n\n| file | utterance | what happened |\n| --- | --- | --- |\n"
                + String.join("\n", ASKED.stream().map(line -> "| " + line + " |").toList()) + "\n";
        try {
            Files.writeString(Path.of("target", "resolver-corpus.md"), text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final class Tally {
        final String file;
        final String group;
        final String mode;
        int correct;
        int asked;
        int wrong;

        Tally(String file, String group, String mode) {
            this.file = file;
            this.group = group;
            this.mode = mode;
        }

        synchronized void add(Kind kind) {
            switch (kind) {
                case CORRECT -> correct++;
                case ASKED -> asked++;
                case WRONG -> wrong++;
            }
        }

        void merge(Tally other) {
            correct += other.correct;
            asked += other.asked;
            wrong += other.wrong;
        }

        String row() {
            int cases = correct + asked + wrong;
            return String.format(Locale.ROOT, "| %s | %s | %s | %d | %d | %.1f%% | %d | %.1f%% | %d | %.1f%% |%n", file,
                    group, mode, cases, correct, percent(correct, cases), wrong, percent(wrong, cases), asked,
                    percent(asked, cases));
        }

        private static double percent(int part, int whole) {
            return whole == 0 ? 0 : 100.0 * part / whole;
        }
    }
}
