package io.agentlab.engine;

import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventKernelFactory;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.api.ResultPolicy;
import io.agentlab.kernel.reference.ReferenceKernel;
import java.util.List;

/**
 * A kernel under test that breaks one rule on purpose: it forgets that terminal events wait for their siblings (the
 * reference kernel built from definitions whose terminal flag is cleared). The suites must catch it.
 */
public final class BrokenTerminalKernelFactory implements KernelUnderTestFactory {

    @Override
    public List<EventPlugin> plugins() {
        return new ServiceLoaderKernelFactory().plugins();
    }

    @Override
    public EventKernelFactory kernels() {
        return setup -> ReferenceKernel.factory().create(new EventKernelFactory.Setup(
                setup.definitions().stream().map(BrokenTerminalKernelFactory::notTerminal).toList(), setup.limits(),
                setup.fallback(), setup.fallbackTimeout()));
    }

    private static EventDefinition notTerminal(EventDefinition d) {
        // a terminate policy demands the terminal flag, so it goes too: the kernel simply never waits
        ResultPolicy policy = d.resultPolicy() == ResultPolicy.TERMINATE ? ResultPolicy.SILENT_SUCCESS : d.resultPolicy();
        return d.toBuilder().terminal(false).resultPolicy(policy).build();
    }
}
