package io.agentlab.engine.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The port a started runtime is given (docs/wire.md#start-up). */
class LoopbackPortsTest {

    @Test
    @DisplayName("the port is below the ephemeral range and free (red: a port from bind(0), which any process may get)")
    void belowTheEphemeralRange() throws IOException {
        int below = Math.min(LoopbackPorts.ephemeralStart(), LoopbackPorts.EPHEMERAL_DEFAULT);
        // a host whose range leaves no room below it gets bind(0)'s port, which this cannot tell from the bug
        Assumptions.assumeTrue(below > LoopbackPorts.LOWEST + 1000, "the ephemeral range starts at " + below);
        for (int i = 0; i < 20; i++) {
            int port = LoopbackPorts.unassigned();
            assertThat(port).isBetween(LoopbackPorts.LOWEST, below - 1);
            try (ServerSocket bound = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                assertThat(bound.getLocalPort()).isEqualTo(port);
            }
        }
    }

    @Test
    @DisplayName("Linux's range is read whole (red: Files.readString, which read \"3\" of \"32768 60999\")")
    void linuxRangeReadWhole() throws IOException {
        Path range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
        Assumptions.assumeTrue(Files.isReadable(range), "not Linux");
        String first;
        try (BufferedReader reader = Files.newBufferedReader(range)) {
            first = reader.readLine().trim().split("\\s+")[0];
        }
        assertThat(LoopbackPorts.ephemeralStart()).isEqualTo(Integer.parseInt(first));
    }

    @Test
    @DisplayName("a port something listens on is not bindable, and is bindable again once closed")
    void takenIsNotBindable() throws IOException {
        int port = LoopbackPorts.unassigned();
        try (ServerSocket taken = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            assertThat(LoopbackPorts.bindable(taken.getLocalPort())).isFalse();
        }
        assertThat(LoopbackPorts.bindable(port)).isTrue();
    }

    @Test
    @DisplayName("only candidates that pass the check are returned; none passing or no room below: the system's port")
    void fallsBackToTheSystem() throws IOException {
        List<Integer> tried = new ArrayList<>();
        int chosen = LoopbackPorts.unassigned(LoopbackPorts.EPHEMERAL_DEFAULT,
                port -> tried.add(port) && tried.size() == 3);
        assertThat(tried).hasSize(3).allSatisfy(port -> assertThat(port).isBetween(LoopbackPorts.LOWEST,
                LoopbackPorts.EPHEMERAL_DEFAULT - 1));
        assertThat(chosen).isEqualTo(tried.get(2));

        tried.clear();
        int system = LoopbackPorts.unassigned(LoopbackPorts.EPHEMERAL_DEFAULT, port -> {
            tried.add(port);
            return false;
        });
        assertThat(tried).hasSize(LoopbackPorts.ATTEMPTS);
        assertThat(system).isNotIn(tried).isPositive();

        tried.clear();
        assertThat(LoopbackPorts.unassigned(LoopbackPorts.LOWEST + 10, port -> tried.add(port))).isPositive();
        assertThat(tried).as("a range with no room below it is not searched").isEmpty();
    }
}
