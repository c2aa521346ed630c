package io.agentlab.engine;

import io.agentlab.engine.internal.execution.CaseRun;
import io.agentlab.engine.internal.suite.Suite;
import io.agentlab.kernel.api.InvocationMode;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.platform.engine.TestTag;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.engine.support.descriptor.AbstractTestDescriptor;

/**
 * A case: one child per mode, then a parity node. The children run in order on the case's thread, so the parity
 * node sees both runs. Unique id segment {@code [case:<id>]}.
 */
final class CaseDescriptor extends AbstractTestDescriptor implements ConformanceNode {

    static final String SEGMENT = "case";

    private final Suite suite;
    private final Suite.Case testCase;
    private final Map<InvocationMode, CaseRun> runs = new EnumMap<>(InvocationMode.class);

    CaseDescriptor(UniqueId uniqueId, Suite suite, Suite.Case testCase) {
        super(uniqueId, testCase.title(), Sources.of(suite.origin(), testCase.at()));
        this.suite = suite;
        this.testCase = testCase;
    }

    Suite suite() {
        return suite;
    }

    Suite.Case testCase() {
        return testCase;
    }

    synchronized void recordRun(CaseRun run) {
        runs.put(run.mode(), run);
    }

    synchronized Optional<CaseRun> run(InvocationMode mode) {
        return Optional.ofNullable(runs.get(mode));
    }

    /**
     * Lets the case's runs go once its children (the modes, then parity) have finished: nothing reads them later, and
     * each holds every turn's requests, streams and audit events. What the report needs of a turn is its
     * {@code TurnRecord}, kept by the metrics (docs/performance.md#memory-per-case).
     */
    @Override
    public synchronized void after(ConformanceContext context) {
        runs.clear();
    }

    /** The modes this case runs in under {@code configured}. */
    List<InvocationMode> modes(List<InvocationMode> configured) {
        return modes(testCase, configured);
    }

    /** The modes {@code testCase} runs in under {@code configured}. */
    static List<InvocationMode> modes(Suite.Case testCase, List<InvocationMode> configured) {
        List<InvocationMode> modes = new ArrayList<>();
        for (InvocationMode mode : testCase.modes()) {
            if (configured.contains(mode)) {
                modes.add(mode);
            }
        }
        return modes;
    }

    /** How many tests {@code testCase} has under {@code configured}: one per mode, and parity when both run. */
    static int tests(Suite.Case testCase, List<InvocationMode> configured) {
        int modes = modes(testCase, configured).size();
        return modes + (modes == 2 ? 1 : 0);
    }

    @Override
    public Type getType() {
        return Type.CONTAINER;
    }

    @Override
    public Set<TestTag> getTags() {
        List<String> names = new ArrayList<>(suite.tags());
        names.addAll(testCase.tags());
        return Sources.tags(names);
    }

    @Override
    public String getLegacyReportingName() {
        return suite.id() + "." + testCase.id();
    }

    @Override
    public SkipResult shouldBeSkipped(ConformanceContext context) {
        if (context.settings().provider() == EngineOptions.Provider.SYNTHESIZED
                && testCase.turns().stream().anyMatch(turn -> !turn.recordings().isEmpty())) {
            return SkipResult.skip(Constants.PROVIDER + "=synthesized, and this case is answered by "
                    + "recordings");
        }
        return SkipResult.doNotSkip();
    }

    @Override
    public ExecutionMode getExecutionMode() {
        return ExecutionMode.CONCURRENT;
    }
}
