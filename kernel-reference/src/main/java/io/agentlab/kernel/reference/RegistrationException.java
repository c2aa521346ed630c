package io.agentlab.kernel.reference;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/** A definition the registry refuses: a duplicate name or an invalid argument schema. The message names both. */
@API(status = EXPERIMENTAL, since = "0.1")
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
