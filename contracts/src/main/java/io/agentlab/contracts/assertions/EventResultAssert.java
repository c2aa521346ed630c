package io.agentlab.contracts.assertions;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.kernel.api.CanonicalJson;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.ResolutionOutcome;
import java.util.Map;
import org.apiguardian.api.API;
import org.assertj.core.api.AbstractAssert;

/** Fluent assertions on an {@link EventResult}; failures show expected and actual side by side. */
@API(status = EXPERIMENTAL, since = "0.1")
public final class EventResultAssert extends AbstractAssert<EventResultAssert, EventResult> {

    EventResultAssert(EventResult actual) {
        super(actual, EventResultAssert.class);
    }

    /** The event has this name. */
    public EventResultAssert hasName(String name) {
        isNotNull();
        if (!actual.name().equals(name)) {
            failWithActualExpectedAndMessage(actual.name(), name, "expected event %s to be named <%s> but was <%s>",
                    actual.eventId(), name, actual.name());
        }
        return this;
    }

    /** The event ended with this status ({@code succeeded}, {@code failed}, {@code timed_out}, ...). */
    public EventResultAssert hasStatus(String status) {
        isNotNull();
        if (!actual.status().equals(status)) {
            failWithActualExpectedAndMessage(actual.status(), status, "expected %s (%s) to end <%s> but it ended <%s>: %s",
                    actual.eventId(), actual.name(), status, actual.status(), actual.outcome());
        }
        return this;
    }

    /** The event succeeded. */
    public EventResultAssert succeeded() {
        return hasStatus("succeeded");
    }

    /** The final arguments are exactly these (compared as canonical JSON). */
    public EventResultAssert hasArguments(Map<String, ?> arguments) {
        isNotNull();
        String expected = CanonicalJson.write(arguments);
        String actualJson = CanonicalJson.write(actual.arguments());
        if (!expected.equals(actualJson)) {
            failWithActualExpectedAndMessage(actualJson, expected, "expected %s (%s) to run with %s but it ran with %s",
                    actual.eventId(), actual.name(), expected, actualJson);
        }
        return this;
    }

    /** One final argument has this value (compared as canonical JSON). */
    public EventResultAssert hasArgument(String name, Object value) {
        isNotNull();
        if (!actual.arguments().containsKey(name)) {
            failWithMessage("expected %s (%s) to have argument <%s> but its arguments were %s", actual.eventId(),
                    actual.name(), name, CanonicalJson.write(actual.arguments()));
        }
        String expected = CanonicalJson.write(Map.of("v", value));
        String actualValue = CanonicalJson.write(Map.of("v", actual.arguments().get(name)));
        if (!expected.equals(actualValue)) {
            failWithActualExpectedAndMessage(actualValue.substring(5, actualValue.length() - 1),
                    expected.substring(5, expected.length() - 1), "expected argument <%s> of %s (%s) to be %s but was %s",
                    name, actual.eventId(), actual.name(), expected.substring(5, expected.length() - 1),
                    actualValue.substring(5, actualValue.length() - 1));
        }
        return this;
    }

    /** The arguments were obtained this way (deterministic, fallback, ...). */
    public EventResultAssert wasResolved(ResolutionOutcome outcome) {
        isNotNull();
        if (actual.resolution().outcome() != outcome) {
            failWithActualExpectedAndMessage(actual.resolution().outcome(), outcome,
                    "expected %s (%s) to be resolved <%s> but it was <%s>", actual.eventId(), actual.name(), outcome,
                    actual.resolution().outcome());
        }
        return this;
    }
}
