package io.agentlab.kernel.core;

/** A definition the registry refuses: a duplicate name or an invalid argument schema. The message names both. */
public final class RegistrationException extends IllegalArgumentException {

    /** Creates the exception. */
    public RegistrationException(String message) {
        super(message);
    }

    /** Creates the exception with its cause. */
    public RegistrationException(String message, Throwable cause) {
        super(message, cause);
    }
}
