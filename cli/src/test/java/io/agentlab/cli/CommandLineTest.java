package io.agentlab.cli;

import static io.agentlab.cli.Run.run;
import static io.agentlab.cli.Run.suites;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import org.junit.jupiter.api.io.TempDir;

/** The command line as users of JUnit's console launcher and promptfoo expect: exit codes, one-line errors, filters. */
class CommandLineTest {

    @TempDir
    Path temp;

    private String[] fast(String... args) {
        List<String> all = new java.util.ArrayList<>(List.of(args));
        all.addAll(List.of("--speed", "0", "--no-gates", "--config", "agentlab.report.control=false"));
        if (!all.contains("--progress")) {
            all.addAll(List.of("--progress", "plain"));
        }
        if (!all.contains("--report")) {
            all.addAll(List.of("--report", temp.resolve("report").toString()));
        }
        return all.toArray(String[]::new);
    }

    @Test
    @DisplayName("every command's --help exits 0 and prints its usage, nothing on the command's stderr (picocli's own "
            + "warnings: BadValuesTest#helpHasNoPicocliWarnings, in a JVM of its own)")
    void helpIsClean() {
        for (String command : AgentLab.commandLine().getSubcommands().keySet()) {
            Run help = run(command, "--help");
            assertThat(help.code()).as(command).isZero();
            assertThat(help.err()).as(command).isEmpty();
            assertThat(help.out()).as(command).contains("Usage:");
        }
    }

    @Test
    @DisplayName("a command line naming a subcommand builds only that one, with the same usage as the full command "
            + "line's (docs/performance.md#start-up)")
    void onlyTheNamedSubcommandIsBuilt() {
        for (String command : AgentLab.commandLine().getSubcommands().keySet()) {
            if (command.equals("help")) {
                continue;
            }
            CommandLine lazy = AgentLab.commandLine(new String[] {command, "--help"});
            assertThat(lazy.getSubcommands().keySet()).as(command).containsExactly(command);
            assertThat(lazy.getSubcommands().get(command).getUsageMessage()).as(command)
                    .isEqualTo(AgentLab.commandLine().getSubcommands().get(command).getUsageMessage());
        }
        assertThat(AgentLab.commandLine(new String[] {"rnu"}).getSubcommands())
                .as("a name that is no subcommand builds them all, so the closest can be suggested").hasSize(9);
    }

    @Test
    @DisplayName("run --runtime: the first line names the subject over the wire and that cases run one at a time, "
            + "--parallel ignored; a runtime that never answers fails the cases (exit 1) within the ready bound")
    void overTheWire() throws IOException {
        Run run = run(fast("run", "--suites", suites("passing"), "--runtime", "http://127.0.0.1:9", "--parallel", "4",
                "--config", "agentlab.runtime.ready-timeout=1s"));
        assertThat(run.out().lines().findFirst()).get().asString().endsWith("; over the wire: http://127.0.0.1:9, "
                + "one case at a time (--parallel 4 ignored: a runtime over the wire is served one turn at a time, "
                + "docs/wire.md#one-turn-at-a-time)");
        assertThat(run.code()).as(run.out() + run.err()).isEqualTo(1);
        assertThat(run.out()).contains("was not ready within 1 s");
        // the engine's console header (System.out, not this writer) and the report name the subject
        assertThat(Files.readString(temp.resolve("report/report.md")))
                .contains("| subject | over the wire: http://127.0.0.1:9 |");
    }

    @Test
    @DisplayName("every bad command line exits 2 with one clear line naming what is wrong, never a stack trace")
    void badCommandLines() {
        List<List<String>> cases = List.of(
                List.of("run", "--modes", "dual,tools"),
                List.of("run", "--speed", "-1"),
                List.of("run", "--speed", "fast"),
                List.of("run", "--suites", "/no/such/folder"),
                List.of("run", "--suites", suites("empty")),
                List.of("run", "--suites", suites("broken")),
                List.of("run", "--config", "agentlab.replay.sped=0"),
                List.of("run", "--config", "no-equals-sign"),
                List.of("run", "--shard", "3/2"),
                List.of("run", "--tag", "smoke &"),
                List.of("run", "--case", "no-such-case", "--suites", suites("passing")),
                List.of("run", "--rerun-failed", temp.resolve("none.json").toString()),
                List.of("run", "--provider", "cloud"),
                List.of("run", "--parallel", "0"),
                List.of("run", "--parallel", "65"),
                List.of("run", "--unknown-option"),
                List.of("validate", "--suites", "/no/such/folder"),
                List.of("merge", temp.resolve("no-shard").toString()),
                List.of("resolve", "--event", "device.volume.adjust", "--now", "yesterday", "louder"),
                List.of("resolve", "--event", "device.volume.adjust", "--timezone", "Mars/Olympus", "louder"),
                List.of("check-stream", "not-a-url", "--run-id", "r1"));
        for (List<String> args : cases) {
            Run run = run(args.toArray(String[]::new));
            assertThat(run.code()).as("%s: %s", args, run.err()).isEqualTo(2);
            assertThat(run.err().lines().toList()).as("%s", args).hasSize(1).allSatisfy(line -> assertThat(line)
                    .startsWith("agentlab " + args.get(0) + ": ").doesNotContain("Exception", "\tat "));
        }
        assertThat(run("run", "--modes", "dual").err()).contains("--modes: unknown invocation mode 'dual'");
        assertThat(run("run", "--speed", "-1").err()).contains("--speed", "expected a number from 0 to 10");
        assertThat(run("run", "--parallel", "0").err()).contains("--parallel", "from 1 to 64, got '0'");
        assertThat(run("run", "--suites", suites("empty")).err()).contains("nothing to run");
        assertThat(run("run", "--config", "agentlab.replay.sped=0").err())
                .contains("did you mean 'agentlab.replay.speed'?");
        assertThat(run("resolve", "--event", "device.volume.adjust", "--now", "yesterday", "louder").err())
                .contains("--now: ", "'yesterday'");
        assertThat(run("resolve", "--event", "device.volume.adjust", "--timezone", "Mars/Olympus", "x").err())
                .contains("--timezone: ", "Mars/Olympus");
        assertThat(run("check-stream", "not-a-url", "--run-id", "r1").err()).contains("URL|FILE: ");
    }

    @Test
    @DisplayName("a suite file's problem: run exits 2 and validate exits 1, each naming file:line:column")
    void suiteProblems() {
        Run run = run(fast("run", "--suites", suites("broken")));
        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err()).contains("bad.suite.yaml:6:5", "'turns'");
        Run validate = run("validate", "--suites", suites("broken"));
        assertThat(validate.code()).isEqualTo(1);
        assertThat(validate.out()).contains("problem: ", "bad.suite.yaml:6:5", "1 problem(s)");
        Run valid = run("validate", "--suites", suites("passing"), "--no-gates");
        assertThat(valid.code()).isZero();
        assertThat(valid.out()).contains("1 suites, 1 cases, 3 tests; no problems");
    }

    @Test
    @DisplayName("progress: a counter with elapsed time rewritten in place on a terminal, plain lines otherwise")
    void progress() {
        Run terminal = run(fast("run", "--suites", suites("failing"), "--progress", "terminal"));
        assertThat(terminal.code()).isEqualTo(1);
        assertThat(terminal.out()).contains("\r\u001B[K[1/3] 0:0", "[3/3] 0:0").contains(" FAIL wrong-level [dual_agent]\n")
                .doesNotContain("  ok    ");
        Run plain = run(fast("run", "--suites", suites("passing")));
        assertThat(plain.out()).contains("  ok    set-to-thirty [dual_agent]\n").doesNotContain("\u001B[K");
    }

    @Test
    @DisplayName("--parallel: cases run at once with the same verdicts, counts and report as one at a time")
    void parallelEqualsSerial() throws IOException {
        Run serial = run(fast("run", "--suites", suites("failing"), "--suites", suites("passing"), "--parallel", "1",
                "--report", temp.resolve("serial").toString()));
        Run parallel = run(fast("run", "--suites", suites("failing"), "--suites", suites("passing"), "--parallel",
                "4", "--report", temp.resolve("parallel").toString()));
        assertThat(parallel.code()).isEqualTo(serial.code()).isEqualTo(1);
        assertThat(parallel.out()).contains("6 tests: 4 passed, 2 failed");
        assertThat(parallel.out().lines().filter(line -> line.startsWith("  ")).sorted().toList())
                .as("one line per test, the same lines in any order")
                .isEqualTo(serial.out().lines().filter(line -> line.startsWith("  ")).sorted().toList());
        assertThat(Files.readString(temp.resolve("parallel").resolve("results.json")))
                .contains("\"wrong-level\"", "\"set-to-thirty\"");
    }

    @Test
    @DisplayName("--case, --tag and --rerun-failed: the last run's failures, from its results.json")
    void filtersAndRerun() {
        Path report = temp.resolve("report");
        Run first = run(fast("run", "--suites", suites("failing"), "--suites", suites("passing")));
        assertThat(first.code()).isEqualTo(1);
        assertThat(first.out()).contains("6 tests: 4 passed, 2 failed");
        Run rerun = run(fast("run", "--suites", suites("failing"), "--suites", suites("passing"), "--rerun-failed"));
        assertThat(rerun.out()).contains("wrong-level [dual_agent]", "3 tests: 1 passed, 2 failed")
                .doesNotContain("set-to-thirty");
        Run one = run(fast("run", "--suites", suites("failing"), "--suites", suites("passing"), "--case",
                "cli-volume/set-to-thirty"));
        assertThat(one.code()).isZero();
        assertThat(one.out()).contains("3 tests: 3 passed");
        assertThat(run(fast("run", "--suites", suites("passing"), "--rerun-failed")).out())
                .contains("nothing failed in the last run");
        Run tagged = run(fast("run", "--suites", suites("passing"), "--exclude-tag", "volume"));
        assertThat(tagged.code()).isEqualTo(2);
        assertThat(report.resolve("results.json")).exists();
    }

    @Test
    @DisplayName("two shards of a run and merge: the whole run's tests, exit 0")
    void shardsAndMerge() {
        Path one = temp.resolve("s1");
        Path two = temp.resolve("s2");
        Run first = run(fast("run", "--suites", suites("passing"), "--suites", suites("failing"), "--shard", "1/2",
                "--report", one.toString()));
        Run second = run(fast("run", "--suites", suites("passing"), "--suites", suites("failing"), "--shard", "2/2",
                "--report", two.toString()));
        assertThat(first.code() + second.code()).isEqualTo(1); // the failing case is in one of them
        Run merged = run("merge", one.toString(), two.toString(), "--out", temp.resolve("all").toString());
        assertThat(merged.code()).isEqualTo(1);
        assertThat(merged.out()).contains("merged 2 shards", "6 tests: 4 passed, 2 failed");
    }
}
