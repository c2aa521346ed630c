package io.agentlab.runtime.protocol;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/** What the user may see of one streamed answer. One instance reads one answer; not thread-safe. */
@API(status = INTERNAL, since = "0.1")
public interface VisibleText {

    /** The visible part of a content delta, to release now (possibly empty). */
    String accept(String delta);

    /** Ends the stream: what was held back and may now be released (possibly empty). */
    String finish();
}
