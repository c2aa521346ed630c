package io.agentlab.providers.recorded;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * Why {@link Secrets#redact} refused to produce text (docs/limits-and-safety.md#credentials): either a credential the
 * request carried is too short to be told from ordinary words, or something credential-like would still be in the
 * text after redaction. Either way nothing may be written. Its message is one line and never holds a secret.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public abstract sealed class RedactionRefusedException extends RuntimeException
        permits ShortCredentialException, UnredactableSecretException {

    private static final long serialVersionUID = 1L;

    RedactionRefusedException(String message) {
        super(message, null, false, false); // no stack trace: the message is the whole story, and it is printed
    }
}
