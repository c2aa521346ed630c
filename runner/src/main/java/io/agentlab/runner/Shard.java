package io.agentlab.runner;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;
import org.apiguardian.api.API;

/**
 * One share of the cases when a run is spread over {@code count} CI jobs ({@code --shard index/count}). A case belongs
 * to the shard its unique id hashes to (CRC-32, fixed by its specification, so every JVM and job agrees): the shards
 * never overlap and together hold every case, whatever order discovery found them in. A case's mode and parity nodes
 * always stay together, since parity compares the two runs.
 *
 * @param index from 1
 * @param count how many shards
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record Shard(int index, int count) {

    /** Checks the bounds. */
    public Shard {
        if (count < 1 || index < 1 || index > count) {
            throw new UsageException("--shard: expected I/N with 1 <= I <= N, got " + index + "/" + count);
        }
    }

    /** Parses {@code "2/4"}. */
    public static Shard parse(String text) {
        String[] parts = text.strip().split("/", -1);
        if (parts.length != 2) {
            throw new UsageException("--shard: expected I/N (for example 2/4), got '" + text + "'");
        }
        try {
            return new Shard(Integer.parseInt(parts[0].strip()), Integer.parseInt(parts[1].strip()));
        } catch (NumberFormatException e) {
            throw new UsageException("--shard: expected I/N (for example 2/4), got '" + text + "'", e);
        }
    }

    /** Whether the case with this unique id belongs to this shard. */
    public boolean holds(String caseUniqueId) {
        return of(caseUniqueId, count) == index;
    }

    /** The shard (from 1) a case's unique id belongs to among {@code count}. */
    public static int of(String caseUniqueId, int count) {
        CRC32 crc = new CRC32();
        crc.update(caseUniqueId.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % count) + 1;
    }

    @Override
    public String toString() {
        return index + "/" + count;
    }
}
