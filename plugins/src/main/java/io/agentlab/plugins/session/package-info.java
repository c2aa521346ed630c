/** {@code session.terminate}: ends the dialogue session through the session boundary, last in its batch. */
package io.agentlab.plugins.session;
