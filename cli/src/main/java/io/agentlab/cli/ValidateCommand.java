package io.agentlab.cli;

import io.agentlab.runner.ConformanceRunner;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code agentlab validate}: discovers the suites as {@code run} would and reports every problem (file:line:column,
 * field), running nothing. Exit code 0 when there is none, 1 when there are problems, 2 on bad usage.
 */
@Command(name = "validate", mixinStandardHelpOptions = true,
        description = "Check suite files and configuration without running anything.")
final class ValidateCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    SuiteOptions options;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        ConformanceRunner.Validation validation = ConformanceRunner.validate(options.spec().build());
        validation.warnings().forEach(warning -> out.println(ConformanceRunner.label(warning)));
        validation.problems().forEach(problem -> out.println("problem: " + problem));
        out.printf("%d suites, %d cases, %d tests; %s%n", validation.suites(), validation.cases(), validation.tests(),
                validation.problems().isEmpty() ? "no problems" : validation.problems().size() + " problem(s)");
        out.flush();
        return validation.problems().isEmpty() ? 0 : 1;
    }
}
