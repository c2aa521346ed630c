package io.agentlab.providers.recorded;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A credential the request carried is shorter than {@link Secrets#MIN_CREDENTIAL_LENGTH} characters: replacing it
 * wherever it appears would shred ordinary text ({@code x-api-key: chat} turns {@code chat.completion.chunk} into
 * {@code [REDACTED].completion.chunk}), and leaving it would leak it, so the exchange is refused
 * (docs/limits-and-safety.md#credentials).
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class ShortCredentialException extends RedactionRefusedException {

    private static final long serialVersionUID = 1L;

    private final String source;
    private final int length;

    /**
     * @param source where the credential was carried, e.g. {@code the x-api-key header} (never its value)
     * @param length how many characters it has
     */
    public ShortCredentialException(String source, int length) {
        super(source + " carries a credential of " + length + " character" + (length == 1 ? "" : "s")
                + "; credentials shorter than " + Secrets.MIN_CREDENTIAL_LENGTH
                + " characters are refused, because they cannot be told apart from ordinary text"
                + " (docs/limits-and-safety.md#credentials)");
        this.source = source;
        this.length = length;
    }

    /** Where the credential was carried (a header, query parameter or JSON field name, never the value). */
    public String source() {
        return source;
    }

    /** The credential's length in characters. */
    public int length() {
        return length;
    }
}
