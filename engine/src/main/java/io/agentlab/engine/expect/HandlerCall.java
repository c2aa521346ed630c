package io.agentlab.engine.expect;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.Map;
import org.apiguardian.api.API;

/**
 * One handler call of a turn, as the engine's handler log recorded it: which event, with what, and when, as ticks of
 * one counter so "started after it returned" is a happens-before fact.
 *
 * @param name           the event name
 * @param eventId        the event id
 * @param arguments      the arguments it received
 * @param idempotencyKey the key it received
 * @param startTick      the tick at which it started
 * @param endTick        the tick at which it returned or threw ({@code -1} while running)
 */
@API(status = INTERNAL, since = "0.1")
public record HandlerCall(String name, String eventId, Map<String, Object> arguments, String idempotencyKey,
                          long startTick, long endTick) {
}
