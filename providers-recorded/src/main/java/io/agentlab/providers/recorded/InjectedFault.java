package io.agentlab.providers.recorded;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import io.agentlab.providers.recorded.StreamSynthesizer.Script;
import io.agentlab.providers.recorded.StreamSynthesizer.ScriptedEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A provider fault the kit synthesizes for one model call, from what the call would otherwise get: an HTTP error, a
 * connection reset or a stall after some stream events, a malformed chunk, tool-call arguments that are not JSON, or
 * tool-call deltas without their index
 * ({@code docs/design.md#provider-fault-codes}, {@code docs/design.md#provider-bad-tool-arguments}). A fault changes
 * the call's script ({@link #script}) or its synthesized response ({@link #response}); the recording stays marked
 * {@code synthesized: true}.
 */
@API(status = EXPERIMENTAL, since = "0.1")
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
     * The first {@code events} stream events arrive, then the stream ends as {@code ending} says. A count beyond the
     * stream leaves the whole stream, then the ending.
     *
     * @param events how many SSE events arrive first
     * @param ending what follows them
     */
    record AfterEvents(int events, Ending ending) implements InjectedFault {
        /** Rejects a negative count. */
        public AfterEvents {
            if (events < 0) {
                throw new IllegalArgumentException("an event count is 0 or more, was " + events);
            }
            Objects.requireNonNull(ending, "ending");
        }

        @Override
        public Recording response(Recording synthesized) {
            List<Recording.TimedEvent> kept = new ArrayList<>(synthesized.response().events()
                    .subList(0, Math.min(events, synthesized.response().events().size())));
            if (ending == Ending.MALFORMED_CHUNK) {
                kept.add(new Recording.TimedEvent(kept.isEmpty() ? 0 : kept.get(kept.size() - 1).offsetMs(),
                        MALFORMED_PAYLOAD));
            }
            String fault = switch (ending) {
                case RESET -> Recording.RESET;
                case STALL -> Recording.STALL;
                case MALFORMED_CHUNK -> null; // the body ends after the malformed event
            };
            Recording.RecordedResponse clean = synthesized.response();
            return with(synthesized, new Recording.RecordedResponse(clean.status(), clean.headers(), kept, null, fault));
        }
    }

    /** How a stream cut by {@link AfterEvents} ends. */
    enum Ending {
        /** The connection is broken off (with no event before it, instead of any response). */
        RESET,
        /**
         * Silence, the connection held open until the replay lets go of it; what ends the call is the caller's own
         * bound (the client's idle timeout, the kernel's fallback timeout).
         */
        STALL,
        /** One event that is not JSON ({@link #MALFORMED_PAYLOAD}), then the end of the body. */
        MALFORMED_CHUNK
    }

    /** The payload of a malformed chunk: a chunk cut off in the middle. */
    String MALFORMED_PAYLOAD = "{\"choices\":[{\"delta\":{\"content\":";

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
            events.set(event - 1, new ScriptedEvent(original.name(), text, original.toolName(), original.callId()));
            return new Script(script.id(), script.mode(), script.role(), script.lastUserMessage(), script.visibleText(),
                    events, script.provider(), script.model());
        }
    }

    /**
     * The tool-call deltas come without their {@code index}, as some OpenAI-compatible servers stream them: a reader
     * must tell a continuation (no id, or DashScope's empty one) from a new call by the id alone. The stream is
     * outside the chat-streaming protocol (the OpenAI SDK refuses it), which is why a recording carrying it is
     * refused and only this fault serves it; the turn runtime reads it all the same
     * ({@code docs/design.md#provider-tolerated-streams}).
     */
    record ToolCallsWithoutIndex() implements InjectedFault {
        @Override
        public Recording response(Recording synthesized) {
            Recording.RecordedResponse clean = synthesized.response();
            List<Recording.TimedEvent> events = clean.events().stream()
                    .map(event -> new Recording.TimedEvent(event.offsetMs(), withoutIndex(event.data()))).toList();
            return with(synthesized, new Recording.RecordedResponse(clean.status(), clean.headers(), events,
                    clean.body(), clean.fault()));
        }

        private static String withoutIndex(String payload) {
            JsonNode chunk = ChunkProtocol.chunk(payload);
            if (chunk == null || !chunk.path("choices").isArray()) {
                return payload;
            }
            boolean changed = false;
            for (JsonNode choice : chunk.get("choices")) {
                for (JsonNode call : choice.path("delta").path("tool_calls")) {
                    changed |= call instanceof ObjectNode object && object.remove("index") != null;
                }
            }
            return changed ? chunk.toString() : payload;
        }
    }

    private static Recording with(Recording synthesized, Recording.RecordedResponse response) {
        return new Recording(synthesized.id(), synthesized.request(), response, synthesized.metadata());
    }
}
