/** The {@code @AdapterContract} rule catalogues of the four built-in ports, registered for ServiceLoader. */
package io.agentlab.plugins.contracts;

import io.agentlab.contracts.AdapterContract;
