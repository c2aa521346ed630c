/**
 * Importing provider streams users already capture — HAR files, VCR cassettes, SSE transcripts, JSON lines of chunks —
 * as {@link io.agentlab.providers.recorded.Recording}s ({@link io.agentlab.providers.recorded.imports.StreamImport},
 * {@code agentlab import}; docs/recording.md#importing-streams).
 */
package io.agentlab.providers.recorded.imports;
