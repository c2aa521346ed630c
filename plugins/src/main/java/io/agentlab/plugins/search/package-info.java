/** {@code knowledge.web.search}: a focused query from the request and history, a stable result contract, two answers. */
package io.agentlab.plugins.search;
