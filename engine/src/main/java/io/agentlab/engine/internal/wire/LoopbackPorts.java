package io.agentlab.engine.internal.wire;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.IntPredicate;
import org.apiguardian.api.API;

/**
 * A loopback port for another process to bind (docs/wire.md#start-up): the kit chooses a started runtime's port and
 * hands it over, so the port is free only when chosen. A port the system hands out for {@code bind(0)} or an outgoing
 * connection is from its ephemeral range, and any process may be given it again in the moment between; so this port is
 * chosen at random <em>below</em> that range, where only a fixed-port server could take it. Where the system's range
 * leaves no room below it, a port from the system ({@code bind(0)}) is the fallback.
 */
@API(status = INTERNAL, since = "0.1")
public final class LoopbackPorts {

    /** The lowest port chosen: above the registered ports most local services use. */
    static final int LOWEST = 10_000;
    /** The ephemeral range's start where the system does not say: Linux's default (macOS's and Windows' is 49152). */
    static final int EPHEMERAL_DEFAULT = 32_768;
    /** How many random candidates are tried before the system is asked. */
    static final int ATTEMPTS = 64;
    private static final Path LINUX_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");

    private LoopbackPorts() {
    }

    /**
     * A loopback port nothing listens on now, chosen below the system's ephemeral range.
     *
     * @throws IOException when not even the system has a free loopback port
     */
    public static int unassigned() throws IOException {
        return unassigned(ephemeralStart(), LoopbackPorts::bindable);
    }

    /** {@link #unassigned()} with the range's start and the availability check given (for tests). */
    static int unassigned(int ephemeralStart, IntPredicate bindable) throws IOException {
        int below = Math.min(ephemeralStart, EPHEMERAL_DEFAULT);
        if (below - LOWEST >= ATTEMPTS) {
            for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
                int port = ThreadLocalRandom.current().nextInt(LOWEST, below);
                if (bindable.test(port)) {
                    return port;
                }
            }
        }
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** The first port of the system's ephemeral range: Linux says it; elsewhere the Linux default, the lowest of all. */
    static int ephemeralStart() {
        // read by line: Files.readString takes a /proc file's size, 0, at its word and returned "3" of "32768 60999"
        try (BufferedReader reader = Files.newBufferedReader(LINUX_RANGE)) {
            String line = reader.readLine();
            return line == null ? EPHEMERAL_DEFAULT : Integer.parseInt(line.trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return EPHEMERAL_DEFAULT;
        }
    }

    static boolean bindable(int port) {
        // without SO_REUSEADDR: a port in TIME_WAIT from an earlier server is not taken either
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
