package io.agentlab.runner;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.platform.commons.PreconditionViolationException;
import org.junit.platform.engine.FilterResult;
import org.junit.platform.engine.TestDescriptor;
import org.junit.platform.engine.UniqueId;
import org.junit.platform.launcher.PostDiscoveryFilter;

/**
 * The filters the runner adds after discovery, judged on tests (the Launcher removes excluded tests and prunes what is
 * left empty). Each keeps a case's tests together unless a unique id names one of them.
 */
final class Selection {

    private Selection() {
    }

    /** The unique id of the case a test belongs to, if it belongs to one. */
    static Optional<UniqueId> caseOf(UniqueId id) {
        List<UniqueId.Segment> segments = id.getSegments();
        for (int i = 0; i < segments.size(); i++) {
            if ("case".equals(segments.get(i).getType())) {
                UniqueId result = UniqueId.root(segments.get(0).getType(), segments.get(0).getValue());
                for (int j = 1; j <= i; j++) {
                    result = result.append(segments.get(j));
                }
                return Optional.of(result);
            }
        }
        return Optional.empty();
    }

    private static Optional<String> segment(UniqueId id, String type) {
        return id.getSegments().stream().filter(s -> type.equals(s.getType())).map(UniqueId.Segment::getValue)
                .findFirst();
    }

    /** Tests only: containers are left to the Launcher's pruning. */
    private static PostDiscoveryFilter onTests(String name, java.util.function.Predicate<TestDescriptor> keep) {
        return descriptor -> !descriptor.isTest() || keep.test(descriptor) ? FilterResult.included(name)
                : FilterResult.excluded(name);
    }

    /**
     * {@code --case}: a case named {@code case} or {@code suite/case}, or any node named by its unique id (a case, or
     * one of its tests). Records which patterns matched in {@code matched}.
     */
    static PostDiscoveryFilter cases(List<String> patterns, Set<String> matched) {
        List<Object> parsed = patterns.stream().map(pattern -> {
            if (pattern.startsWith("[")) {
                try {
                    return (Object) UniqueId.parse(pattern);
                } catch (PreconditionViolationException e) {
                    throw new UsageException("--case: '" + pattern + "' is not a unique id ([engine:...]/[suite:...]/"
                            + "[case:...]): " + e.getMessage(), e);
                }
            }
            return pattern;
        }).toList();
        return onTests("--case", test -> {
            UniqueId id = test.getUniqueId();
            String suite = segment(id, "suite").orElse(null);
            String caseId = segment(id, "case").orElse(null);
            boolean keep = false;
            for (int i = 0; i < parsed.size(); i++) {
                Object pattern = parsed.get(i);
                boolean hit = pattern instanceof UniqueId uid ? id.hasPrefix(uid)
                        : caseId != null && (pattern.equals(caseId) || pattern.equals(suite + "/" + caseId));
                if (hit) {
                    matched.add(patterns.get(i));
                    keep = true;
                }
            }
            return keep;
        });
    }

    /** {@code --shard}: the cases whose unique id hashes to this shard; gates wait for the merge. */
    static PostDiscoveryFilter shard(Shard shard) {
        return onTests("--shard " + shard, test -> caseOf(test.getUniqueId())
                .map(caseId -> shard.holds(caseId.toString())).orElse(false));
    }

    /** {@code --rerun-failed}: whole cases that had a failed or aborted test (parity needs both modes again). */
    static PostDiscoveryFilter rerun(Set<String> caseIds) {
        Set<String> ids = new LinkedHashSet<>(caseIds);
        return onTests("--rerun-failed", test -> caseOf(test.getUniqueId())
                .map(caseId -> ids.contains(caseId.toString())).orElse(false));
    }
}
