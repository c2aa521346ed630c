package io.agentlab.kernel.api;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.Locale;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * The plugin-owned deterministic confirmation of a {@link ResultPolicy#TEMPLATE_FOLLOW_UP} event: rendered from the
 * normalized arguments and the result payload, in the user's language, with no LLM call.
 */
@API(status = EXPERIMENTAL, since = "0.1")
@FunctionalInterface
public interface ConfirmationTemplate {

    /** The user-facing confirmation text. */
    String render(Map<String, Object> arguments, Map<String, Object> payload, Locale locale);
}
