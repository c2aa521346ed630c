package io.agentlab.engine.internal.execution;

import io.agentlab.engine.internal.suite.Suite;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.providers.recorded.ProviderFamily;
import io.agentlab.providers.recorded.Recording;
import io.agentlab.providers.recorded.StreamSynthesizer;
import io.agentlab.providers.recorded.StreamSynthesizer.Script;
import io.agentlab.providers.recorded.StreamSynthesizer.ScriptedEvent;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What the scripted model says in each call of a turn, and how to turn a script into a stream.
 *
 * @param turn         the turn
 * @param chat         the chat call's script
 * @param followUp     the follow-up call's script (empty text when the turn scripts none)
 * @param eventAgent   the EventAgent call's script (empty text when the turn scripts none)
 * @param synthesizer  makes the streams
 * @param seed         their chunking seed
 * @param promptTokens the first request's prompt tokens (for the latency model)
 */
record Scripts(Suite.Turn turn, Script chat, Script followUp, Script eventAgent,
       StreamSynthesizer synthesizer, long seed, int promptTokens) {

    static Scripts of(Suite suite, Suite.Case testCase, int index, InvocationMode mode, long runSeed,
                      int promptTokens, ProviderFamily family) {
        Suite.Turn turn = testCase.turns().get(index);
        StreamSynthesizer synthesizer = new StreamSynthesizer(suite.provider().latency(), LocalDate.of(2026, 1, 1));
        // the mode's wire name, not the enum: an enum's hash differs between JVMs, and a seed must reproduce a run
        long seed = runSeed ^ Objects.hash(suite.id(), testCase.id(), index, mode.wireName());
        String id = suite.id() + "." + testCase.id() + ".t" + index + "." + mode.wireName();
        String model = suite.provider().model();
        Suite.Reply reply = turn.replies().get(mode);
        Script chat = new Script(id + ".chat", mode, CallRole.CHAT, turn.user(), reply == null ? "" : reply.visible(),
                reply == null ? List.of() : reply.events().stream().map(event -> new ScriptedEvent(event.name(),
                        // a made-up name has no alias: the model sends it as it is
                        event.argumentsJson(), event.unknown() ? event.name() : event.name().replace('.', '_'),
                        event.callId())).toList(), family, model);
        Script followUp = new Script(id + ".follow_up", mode, CallRole.FOLLOW_UP, turn.user(),
                turn.followUp().orElse(""), List.of(), family, model);
        // The EventAgent's request never carries tools, so its recording answers the dual_agent request shape.
        Script eventAgent = new Script(id + ".event_agent", InvocationMode.DUAL_AGENT, CallRole.EVENT_AGENT,
                turn.user(), turn.eventAgent().orElse(""), List.of(), family, model);
        return new Scripts(turn, chat, followUp, eventAgent, synthesizer, seed, promptTokens);
    }

    Script of(CallRole role) {
        return switch (role) {
            case CHAT -> chat;
            case FOLLOW_UP -> followUp;
            case EVENT_AGENT -> eventAgent;
        };
    }

    /** The chat call's stream, then the follow-up's and the EventAgent's when the turn scripts them. */
    List<Recording> synthesized() {
        List<Recording> recordings = new ArrayList<>();
        recordings.add(synthesize(chat));
        turn.followUp().ifPresent(text -> recordings.add(synthesize(followUp)));
        turn.eventAgent().ifPresent(json -> recordings.add(synthesize(eventAgent)));
        return recordings;
    }

    Recording synthesize(Script script) {
        // each call its own chunking: seed, seed + 1 and seed + 2 for the chat, follow-up and EventAgent calls
        int offset = switch (script.role()) {
            case CHAT -> 0;
            case FOLLOW_UP -> 1;
            case EVENT_AGENT -> 2;
        };
        return synthesizer.synthesize(script, seed + offset,
                script.role() == CallRole.EVENT_AGENT ? promptTokens / 2 : promptTokens);
    }
}

