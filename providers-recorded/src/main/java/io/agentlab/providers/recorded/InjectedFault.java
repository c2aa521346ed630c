package io.agentlab.providers.recorded;

import io.agentlab.providers.recorded.StreamSynthesizer.Script;
import io.agentlab.providers.recorded.StreamSynthesizer.ScriptedEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A provider fault the kit synthesizes for one model call, from what the call would otherwise get: an HTTP error, a
 * connection reset or a stall after some stream events, a malformed chunk, or tool-call arguments that are not JSON
 * ({@code docs/design.md#provider-fault-codes}, {@code docs/design.md#provider-bad-tool-arguments}). A fault changes
 * the call's script ({@link #script}) or its synthesized response ({@link #response}); the recording stays marked
 * {@code synthesized: true}.
 */
public sealed interface InjectedFault {

    /** The script the call is synthesized from, as this fault changes it; most faults leave it alone. */
    default Script script(Script script) {
        return script;
    }

    /** The response the call gets, made from the one synthesized for it; some faults leave it alone. */
    default Recording response(Recording synthesized) {
        return synthesized;
    }

    /**
     * The provider answers with an HTTP error instead of a stream.
     *
     * @param status  400..599
     * @param headers extra response headers, e.g. {@code Retry-After}
     * @param body    the JSON error body
     */
    record HttpStatus(int status, Map<String, String> headers, String body) implements InjectedFault {
        /** Checks the status and copies the headers. */
        public HttpStatus {
            if (status < 400 || status > 599) {
                throw new IllegalArgumentException("an HTTP fault has a status from 400 to 599, was " + status);
            }
            headers = Map.copyOf(headers);
            Objects.requireNonNull(body, "body");
        }

        /** An error with a generic JSON body naming the status. */
        public HttpStatus(int status, Map<String, String> headers) {
            this(status, headers, "{\"error\":{\"message\":\"HTTP " + status + " injected by the conformance kit\","
                    + "\"type\":\"agentlab_injected_fault\"}}");
        }

        @Override
        public Recording response(Recording synthesized) {
            Map<String, String> all = new LinkedHashMap<>();
            all.put("Content-Type", "application/json");
            all.putAll(headers);
            return with(synthesized, new Recording.RecordedResponse(status, all, List.of(), body, null));
        }
    }

    /**
     * The connection is reset after the first {@code events} stream events (0: before any response).
     *
     * @param events how many SSE events arrive first
     */
    record ResetAfter(int events) implements InjectedFault {
        /** Rejects a negative count. */
        public ResetAfter {
            nonNegative(events);
        }

        @Override
        public Recording response(Recording synthesized) {
            return cut(synthesized, events, List.of(), Recording.RESET);
        }
    }

    /**
     * The provider goes silent after the first {@code events} stream events and keeps the connection open until the
     * replay lets go of it; what ends the call is the caller's own bound (the client's idle timeout, the kernel's
     * fallback timeout).
     *
     * @param events how many SSE events arrive first
     */
    record StallAfter(int events) implements InjectedFault {
        /** Rejects a negative count. */
        public StallAfter {
            nonNegative(events);
        }

        @Override
        public Recording response(Recording synthesized) {
            return cut(synthesized, events, List.of(), Recording.STALL);
        }
    }

    /**
     * After the first {@code events} stream events comes one that is not JSON, and the body ends.
     *
     * @param events how many SSE events arrive first
     */
    record MalformedChunkAfter(int events) implements InjectedFault {
        /** The malformed payload: a chunk cut off in the middle. */
        public static final String PAYLOAD = "{\"choices\":[{\"delta\":{\"content\":";

        /** Rejects a negative count. */
        public MalformedChunkAfter {
            nonNegative(events);
        }

        @Override
        public Recording response(Recording synthesized) {
            return cut(synthesized, events, List.of(PAYLOAD), null);
        }
    }

    /**
     * A tools-mode model sends {@code text} as the arguments of its {@code event}-th tool call (1-based) — text that
     * is not a JSON object. A dual_agent model sends no arguments, so there the fault changes nothing.
     *
     * @param event which proposed event, 1-based
     * @param text  the arguments text, sent as it is
     */
    record InvalidToolArguments(int event, String text) implements InjectedFault {
        /** Checks the index. */
        public InvalidToolArguments {
            if (event < 1) {
                throw new IllegalArgumentException("the event is counted from 1, was " + event);
            }
            Objects.requireNonNull(text, "text");
        }

        @Override
        public Script script(Script script) {
            if (event > script.events().size()) {
                throw new IllegalArgumentException("the reply proposes " + script.events().size()
                        + " event(s); there is no event " + event + " to give broken arguments");
            }
            List<ScriptedEvent> events = new ArrayList<>(script.events());
            ScriptedEvent original = events.get(event - 1);
            events.set(event - 1, new ScriptedEvent(original.name(), text, original.toolName()));
            return new Script(script.id(), script.mode(), script.role(), script.lastUserMessage(), script.visibleText(),
                    events, script.provider(), script.model());
        }
    }

    private static void nonNegative(int events) {
        if (events < 0) {
            throw new IllegalArgumentException("an event count is 0 or more, was " + events);
        }
    }

    private static Recording cut(Recording synthesized, int keep, List<String> extra, String fault) {
        List<Recording.TimedEvent> events = new ArrayList<>(synthesized.response().events()
                .subList(0, Math.min(keep, synthesized.response().events().size())));
        long last = events.isEmpty() ? 0 : events.get(events.size() - 1).offsetMs();
        for (String data : extra) {
            events.add(new Recording.TimedEvent(last, data));
        }
        Recording.RecordedResponse clean = synthesized.response();
        return with(synthesized, new Recording.RecordedResponse(clean.status(), clean.headers(), events, null, fault));
    }

    private static Recording with(Recording synthesized, Recording.RecordedResponse response) {
        return new Recording(synthesized.id(), synthesized.request(), response, synthesized.metadata());
    }
}
