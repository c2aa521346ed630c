package io.agentlab.kernel.api;

import java.util.Locale;
import java.util.Map;

/**
 * The plugin-owned deterministic confirmation of a {@link ResultPolicy#TEMPLATE_FOLLOW_UP} event: rendered from the
 * normalized arguments and the result payload, in the user's language, with no LLM call.
 */
@FunctionalInterface
public interface ConfirmationTemplate {

    /** The user-facing confirmation text. */
    String render(Map<String, Object> arguments, Map<String, Object> payload, Locale locale);
}
