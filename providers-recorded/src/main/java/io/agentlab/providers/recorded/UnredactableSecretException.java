package io.agentlab.providers.recorded;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import org.apiguardian.api.API;

/**
 * Something credential-like is still in the text after redaction, in some encoding (a known credential glued inside a
 * longer token, a key in an encoding no replacement reached): the text must not be written
 * (docs/limits-and-safety.md#credentials). The findings are masked, safe to print.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class UnredactableSecretException extends RedactionRefusedException {

    private static final long serialVersionUID = 1L;

    private final transient List<Secrets.Finding> findings;

    /** @param findings what was left, masked (at least one) */
    public UnredactableSecretException(List<Secrets.Finding> findings) {
        super(describe(findings));
        this.findings = List.copyOf(findings);
    }

    /** What was left after redaction, masked. */
    public List<Secrets.Finding> findings() {
        return findings;
    }

    private static String describe(List<Secrets.Finding> findings) {
        Secrets.Finding first = findings.get(0);
        return "a credential-like string survived redaction (" + first.kind() + " " + first.masked() + " at offset "
                + first.offset() + (findings.size() > 1 ? ", and " + (findings.size() - 1) + " more" : "")
                + "); nothing written (docs/limits-and-safety.md#credentials)";
    }
}
