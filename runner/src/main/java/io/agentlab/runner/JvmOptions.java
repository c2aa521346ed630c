package io.agentlab.runner;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.List;
import org.apiguardian.api.API;

/**
 * The JVM options of a run, the one list every way of starting one uses: {@code bin/agentlab},
 * {@code java -jar agentlab.jar} (which starts itself again with them) and the JVM the Maven goal forks
 * (docs/performance.md#jvm-start-up-options).
 */
@API(status = INTERNAL, since = "0.2")
public final class JvmOptions {

    /**
     * For a run of seconds to minutes: C1 only (C2's compilations cost more CPU than a short run gets back), the
     * serial collector (one small heap and no concurrent GC threads on cores the cases already use) and a heap that
     * starts at 16 MiB and grows with what the run keeps, instead of 1/64 of the machine's memory up front.
     */
    public static final List<String> SHORT_RUN = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xms16m");

    /** Options that keep the class-data-sharing archive's own warnings off the user's console. */
    public static final List<String> QUIET_SHARING = List.of("-Xshare:auto", "-Xlog:cds=off", "-Xlog:cds+dynamic=off");

    private JvmOptions() {
    }
}
