/** {@code device.volume.adjust}: absolute, relative, mute and unmute, resolved from English and Chinese. */
package io.agentlab.plugins.volume;
