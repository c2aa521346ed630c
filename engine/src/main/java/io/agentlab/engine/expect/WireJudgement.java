package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * What judging one expectation of a turn that ran over the wire came to (docs/wire.md#observability): judged from what
 * the wire shows, possibly with parts left unjudged, or not observable at all. An unjudged part is reported with its
 * reason and counted, never passed.
 */
@API(status = INTERNAL, since = "0.1")
public sealed interface WireJudgement {

    /** The parts the wire could not show, each with its reason. */
    List<Unseen> unseen();

    /**
     * Judged from what the wire shows.
     *
     * @param failures how the turn breaks what was judged (none: it holds)
     * @param unseen   the parts left unjudged
     */
    record Judged(List<String> failures, List<Unseen> unseen) implements WireJudgement {
        /** Copies the lists. */
        public Judged {
            failures = List.copyOf(failures);
            unseen = List.copyOf(unseen);
        }
    }

    /**
     * Nothing of it could be judged.
     *
     * @param unseen why, at least one reason
     */
    record NotObservable(List<Unseen> unseen) implements WireJudgement {
        /** Copies the list; there is a reason. */
        public NotObservable {
            unseen = List.copyOf(unseen);
            if (unseen.isEmpty()) {
                throw new IllegalArgumentException("a judgement left out needs its reason");
            }
        }
    }

    /**
     * A part of an expectation the wire cannot show.
     *
     * @param key  the kind's key, what the report counts it under
     * @param part which part of it ({@code ""}: the whole expectation)
     * @param why  the kind's declared reason ({@link Observability})
     */
    record Unseen(String key, String part, String why) {
        /** Rejects nulls. */
        public Unseen {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(part, "part");
            Objects.requireNonNull(why, "why");
        }

        /** One line: {@code history: not observable over the wire (the runtime's stored history is inside it)}. */
        public String describe() {
            return key + (part.isEmpty() ? "" : " " + part) + ": not observable over the wire (" + why + ")";
        }
    }
}
