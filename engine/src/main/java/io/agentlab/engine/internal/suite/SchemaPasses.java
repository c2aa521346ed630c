package io.agentlab.engine.internal.suite;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashSet;
import java.util.Set;

/**
 * The suite texts the suite schema found nothing wrong in, remembered by their SHA-256 for the rest of the process,
 * when a discovery asks: a run in parts discovers each file twice, once before anything runs and once right before its
 * part (docs/engine.md#runs-in-parts), and the schema's checks are about a third of a discovery
 * (docs/performance.md#schema-passes). What the schema says depends on the text alone, so a text it passed once passes
 * again; a text with a problem is never remembered, so its problems are found and said every time.
 */
final class SchemaPasses {

    /**
     * Texts remembered at most (about 150 bytes each), after which no more are: a run's first discovery reads every
     * file before its second reads any, so forgetting the oldest would forget each before its second reading, and
     * keeping the first ones keeps those hits. A 200,000-case run is 100 files.
     */
    static final int CAPACITY = 16_384;

    private static final Set<ByteBuffer> PASSED = new HashSet<>();

    private SchemaPasses() {
    }

    /** The key of a text: its UTF-8 bytes' SHA-256. */
    static ByteBuffer key(String text) {
        try {
            return ByteBuffer.wrap(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }

    /** Whether the schema passed the text of this key before. */
    static synchronized boolean passed(ByteBuffer key) {
        return PASSED.contains(key);
    }

    /** Remembers that the schema passed the text of this key. */
    static synchronized void remember(ByteBuffer key) {
        if (PASSED.size() < CAPACITY) {
            PASSED.add(key);
        }
    }
}
