package io.agentlab.contracts.assertions;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.kernel.api.BatchResult;
import io.agentlab.kernel.api.ContinuationDecision;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.runtime.CallRecord;
import io.agentlab.runtime.TurnResult;
import io.agentlab.runtime.llm.CallRole;
import java.util.List;
import org.apiguardian.api.API;
import org.assertj.core.api.AbstractAssert;

/** Fluent assertions on a {@link TurnResult}: what the user saw, the batch, the policy and the model calls. */
@API(status = EXPERIMENTAL, since = "0.1")
public final class TurnResultAssert extends AbstractAssert<TurnResultAssert, TurnResult> {

    TurnResultAssert(TurnResult actual) {
        super(actual, TurnResultAssert.class);
    }

    /** The turn ended without an error code. */
    public TurnResultAssert endedWithoutError() {
        isNotNull();
        if (actual.error().isPresent()) {
            failWithMessage("expected turn %s to end without error but it ended with <%s>", actual.turnId(),
                    actual.error().get());
        }
        return this;
    }

    /** The turn ended with this error code. */
    public TurnResultAssert endedWithError(String code) {
        isNotNull();
        if (!actual.error().map(code::equals).orElse(false)) {
            failWithActualExpectedAndMessage(actual.error().orElse("no error"), code,
                    "expected turn %s to end with error <%s> but it ended with <%s>", actual.turnId(), code,
                    actual.error().orElse("no error"));
        }
        return this;
    }

    /** The first answer contains this text. */
    public TurnResultAssert firstAnswerContains(String text) {
        isNotNull();
        if (!actual.firstAnswer().contains(text)) {
            failWithActualExpectedAndMessage(actual.firstAnswer(), text,
                    "expected the first answer to contain <%s> but it was <%s>", text, actual.firstAnswer());
        }
        return this;
    }

    /** A follow-up answer was given and contains this text. */
    public TurnResultAssert followUpContains(String text) {
        isNotNull();
        String followUp = actual.followUp().orElse("");
        if (actual.followUp().isEmpty() || !followUp.contains(text)) {
            failWithActualExpectedAndMessage(actual.followUp().orElse("no follow-up"), text,
                    "expected a follow-up containing <%s> but it was <%s>", text, actual.followUp().orElse("no follow-up"));
        }
        return this;
    }

    /** No follow-up answer was given. */
    public TurnResultAssert hasNoFollowUp() {
        isNotNull();
        if (actual.followUp().isPresent()) {
            failWithMessage("expected no follow-up answer but there was <%s>", actual.followUp().get());
        }
        return this;
    }

    /** The continuation decision's kind ({@code end_session}, {@code complete}, {@code follow_up}, or {@code none}). */
    public TurnResultAssert hasPolicy(String kind) {
        isNotNull();
        String actualKind = actual.decision().map(ContinuationDecision::kind).orElse("none");
        if (!actualKind.equals(kind)) {
            failWithActualExpectedAndMessage(actualKind, kind, "expected policy <%s> but was <%s>", kind, actualKind);
        }
        return this;
    }

    /** The batch's events, by name, in result order — exactly these. */
    public TurnResultAssert hasEvents(String... names) {
        isNotNull();
        List<String> actualNames = results().stream().map(EventResult::name).toList();
        if (!actualNames.equals(List.of(names))) {
            failWithActualExpectedAndMessage(actualNames, List.of(names), "expected events %s but the batch had %s",
                    List.of(names), actualNames);
        }
        return this;
    }

    /** This many model calls of {@code role}. */
    public TurnResultAssert hasCalls(CallRole role, int count) {
        isNotNull();
        long actualCount = actual.calls().stream().map(CallRecord::role).filter(role::equals).count();
        if (actualCount != count) {
            failWithActualExpectedAndMessage(actualCount, count, "expected %s %s call(s) but there were %s", count,
                    role.wireName(), actualCount);
        }
        return this;
    }

    /** Assertions on the batch's {@code index}-th result. */
    public EventResultAssert event(int index) {
        isNotNull();
        List<EventResult> results = results();
        if (index >= results.size()) {
            failWithMessage("expected an event at index %s but the batch had %s: %s", index, results.size(),
                    results.stream().map(EventResult::name).toList());
        }
        return new EventResultAssert(results.get(index));
    }

    private List<EventResult> results() {
        return actual.batch().map(BatchResult::results).orElse(List.of());
    }
}
