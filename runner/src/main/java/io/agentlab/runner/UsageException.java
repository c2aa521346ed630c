package io.agentlab.runner;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * Bad usage or unreadable input: a wrong option value, a missing folder, a suite file with problems, a results file
 * that cannot be read. Its message is what the user reads (one line per problem, never a stack trace); the command
 * line exits with 2 and the Maven goal stops with an error.
 */
@API(status = INTERNAL, since = "0.1")
public final class UsageException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** A problem described for the user. */
    public UsageException(String message) {
        super(message);
    }

    /** A problem described for the user, keeping its cause for debugging. */
    public UsageException(String message, Throwable cause) {
        super(message, cause);
    }
}
