package io.agentlab.engine.internal.suite;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.yaml.Position;
import io.agentlab.engine.internal.yaml.RoleNames;
import io.agentlab.runtime.llm.CallRole;
import io.agentlab.providers.recorded.InjectedFault;
import java.util.Map;
import java.util.Objects;
import org.apiguardian.api.API;

/**
 * A fault injected into one model call of a turn: which call ({@code chat}, {@code eventAgent} or {@code followUp},
 * and the how-many-th of that role in the turn) and what happens to it. The kit synthesizes it from the stream the
 * call would otherwise get ({@link InjectedFault}). Build one with {@link #on(CallRole)}.
 *
 * @param call  the call's role
 * @param index which call of that role in the turn, from 1
 * @param fault what happens to it
 * @param at    where it is written
 */
@API(status = INTERNAL, since = "0.1")
public record ProviderFault(CallRole call, int index, InjectedFault fault, Position at) {

    /** Rejects nulls and an index below 1. */
    public ProviderFault {
        Objects.requireNonNull(call, "call");
        Objects.requireNonNull(fault, "fault");
        Objects.requireNonNull(at, "at");
        if (index < 1) {
            throw new IllegalArgumentException("calls are counted from 1, was " + index);
        }
    }

    /** Starts a fault on the first call of {@code role}. */
    public static Builder on(CallRole role) {
        return new Builder(role);
    }

    /** How it reads in a message, e.g. {@code followUp call 1}. */
    public String describeCall() {
        return RoleNames.roleName(call) + " call " + index;
    }

    /** Builds a {@link ProviderFault}; {@link #build()} checks that exactly one fault was given and that it fits. */
    public static final class Builder {
        private final CallRole call;
        private int index = 1;
        private InjectedFault fault;
        private int faults;
        private Position at = Position.UNKNOWN;

        private Builder(CallRole call) {
            this.call = Objects.requireNonNull(call, "call");
        }

        /** Which call of the role, from 1 (default 1). */
        public Builder index(int index) {
            this.index = index;
            return this;
        }

        /** An HTTP error with these extra headers. */
        public Builder http(int status, Map<String, String> headers) {
            return fault(new InjectedFault.HttpStatus(status, headers));
        }

        /** A connection reset after {@code events} stream events. */
        public Builder resetAfter(int events) {
            return fault(new InjectedFault.AfterEvents(events, InjectedFault.Ending.RESET));
        }

        /** Silence after {@code events} stream events, the connection held open. */
        public Builder stallAfter(int events) {
            return fault(new InjectedFault.AfterEvents(events, InjectedFault.Ending.STALL));
        }

        /** A chunk that is not JSON after {@code events} stream events. */
        public Builder malformedChunkAfter(int events) {
            return fault(new InjectedFault.AfterEvents(events, InjectedFault.Ending.MALFORMED_CHUNK));
        }

        /** Tool-call arguments that are not JSON for the {@code event}-th proposed event (tools mode). */
        public Builder invalidToolArguments(int event, String text) {
            return fault(new InjectedFault.InvalidToolArguments(event, text));
        }

        /** Tool-call deltas streamed without their {@code index}. */
        public Builder toolCallsWithoutIndex() {
            return fault(new InjectedFault.ToolCallsWithoutIndex());
        }

        /** Where it is written. */
        public Builder at(Position at) {
            this.at = Objects.requireNonNull(at, "at");
            return this;
        }

        private Builder fault(InjectedFault next) {
            this.fault = next;
            faults++;
            return this;
        }

        /**
         * The fault.
         *
         * @throws IllegalArgumentException when no fault or more than one was given, the index is below 1, or
         *                                  tool-call arguments are broken on a call other than chat
         */
        public ProviderFault build() {
            if (faults != 1) {
                throw new IllegalArgumentException("a provider fault is exactly one of http, reset, stall, "
                        + "malformedChunk, invalidToolArguments or toolCallsWithoutIndex; " + (faults == 0 ? "none" : faults) + " given");
            }
            if ((fault instanceof InjectedFault.InvalidToolArguments || fault instanceof InjectedFault.ToolCallsWithoutIndex)
                    && call != CallRole.CHAT) {
                throw new IllegalArgumentException((fault instanceof InjectedFault.ToolCallsWithoutIndex
                        ? "toolCallsWithoutIndex changes" : "invalidToolArguments breaks")
                        + " the tool calls of the chat call, whose events run; the " + RoleNames.roleName(call)
                        + " call's tool calls are never executed");
            }
            return new ProviderFault(call, index, fault, at);
        }
    }
}
