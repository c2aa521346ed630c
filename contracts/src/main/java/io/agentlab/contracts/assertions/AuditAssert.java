package io.agentlab.contracts.assertions;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.agui.AguiEvent;
import io.agentlab.agui.AguiProfile;
import io.agentlab.agui.AguiStreamChecker;
import java.util.List;
import org.apiguardian.api.API;
import org.assertj.core.api.AbstractAssert;

/** Fluent assertions on an AG-UI audit stream. */
@API(status = EXPERIMENTAL, since = "0.1")
public final class AuditAssert extends AbstractAssert<AuditAssert, List<AguiEvent>> {

    AuditAssert(List<AguiEvent> actual) {
        super(actual, AuditAssert.class);
    }

    /** These event types appear in this order (others may come between). */
    public AuditAssert containsTypesInOrder(String... types) {
        isNotNull();
        List<String> actualTypes = actual.stream().map(AguiEvent::type).toList();
        int at = 0;
        for (String type : actualTypes) {
            if (at < types.length && types[at].equals(type)) {
                at++;
            }
        }
        if (at < types.length) {
            failWithActualExpectedAndMessage(actualTypes, List.of(types),
                    "expected the stream to contain %s in order, but %s (item %s) never came; the stream was %s",
                    List.of(types), types[at], at + 1, actualTypes);
        }
        return this;
    }

    /** The stream passes every AG-UI 1.0 rule as the stream of run {@code runId}. */
    public AuditAssert passesStreamChecker(String runId) {
        return passesStreamChecker(AguiProfile.AGUI_1_0, runId);
    }

    /** The stream passes every rule of {@code profile} as the stream of run {@code runId}. */
    public AuditAssert passesStreamChecker(AguiProfile profile, String runId) {
        isNotNull();
        List<AguiStreamChecker.Violation> violations = AguiStreamChecker.check(profile, actual, runId);
        if (!violations.isEmpty()) {
            failWithMessage("expected the AG-UI stream of run %s to pass every %s rule, but: %s", runId, profile,
                    violations);
        }
        return this;
    }
}
