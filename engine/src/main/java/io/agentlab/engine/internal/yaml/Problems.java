package io.agentlab.engine.internal.yaml;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.ArrayList;
import java.util.List;
import org.apiguardian.api.API;

/** The problems found in one suite file so far, each naming where, which key and why. */
@API(status = INTERNAL, since = "0.1")
public final class Problems {

    private final String file;
    private final List<SuiteProblem> problems = new ArrayList<>();

    /** Problems of {@code file} (as it is displayed). */
    public Problems(String file) {
        this.file = file;
    }

    /** Adds a problem at {@code at} under {@code key}. */
    public void add(Position at, String key, String message) {
        problems.add(new SuiteProblem(file, at, key, message));
    }

    /** Adds problems found elsewhere (YAML syntax, the schema). */
    public void addAll(List<SuiteProblem> more) {
        problems.addAll(more);
    }

    /** How many so far. */
    public int count() {
        return problems.size();
    }

    /** Whether none was found. */
    public boolean isEmpty() {
        return problems.isEmpty();
    }

    /** Whether a problem was reported under {@code keyPrefix}. */
    public boolean anyUnder(String keyPrefix) {
        return problems.stream().anyMatch(p -> p.key().startsWith(keyPrefix));
    }

    /** Every problem, in the order found. */
    public List<SuiteProblem> list() {
        return List.copyOf(problems);
    }
}
