package io.agentlab.providers.recorded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.llm.ChatCompletion;
import io.agentlab.provider.openai.OpenAiCompatibleClient;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The replay server decides every verdict, so nothing but the run itself may reach it (docs/limits-and-safety.md#replay):
 * it listens on loopback only, and its admin API answers nobody.
 */
class ReplaySafetyTest {

    private final OkHttpClient http = new OkHttpClient();
    private TimedReplay replay;

    @BeforeEach
    void start() {
        replay = TimedReplay.start(List.of(RecordingsTest.synthesized(ProviderFamily.OPENAI,
                InvocationMode.DUAL_AGENT)), 0);
    }

    @AfterEach
    void stop() {
        replay.close();
    }

    @Test
    @DisplayName("the machine's other addresses get no connection")
    void loopbackOnly() throws SocketException {
        List<InetAddress> others = new ArrayList<>();
        for (NetworkInterface network : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            for (InetAddress address : Collections.list(network.getInetAddresses())) {
                if (!address.isLoopbackAddress() && address instanceof Inet4Address) {
                    others.add(address);
                }
            }
        }
        Assumptions.assumeFalse(others.isEmpty(), "this machine has no address besides loopback to try");
        for (InetAddress address : others) {
            assertThatThrownBy(() -> {
                try (Socket socket = new Socket()) {
                    socket.connect(new InetSocketAddress(address, replay.port()), 2_000);
                }
            }).as("connect to %s:%d", address.getHostAddress(), replay.port()).isInstanceOf(ConnectException.class);
        }
    }

    @Test
    @DisplayName("the admin API refuses to list, add or reset stubs, and the replay keeps answering as recorded")
    void adminApiRefused() throws IOException {
        String root = replay.baseUrl().substring(0, replay.baseUrl().length() - "/v1".length());
        try (Response list = http.newCall(new Request.Builder().url(root + "/__admin/mappings").build()).execute()) {
            assertThat(list.code()).isEqualTo(401);
            assertThat(list.body().string()).doesNotContain("mappings");
        }
        String stub = "{\"request\":{\"method\":\"ANY\"},\"response\":{\"status\":200,\"body\":\"tampered\"}}";
        try (Response add = http.newCall(new Request.Builder().url(root + "/__admin/mappings")
                .post(RequestBody.create(stub, MediaType.get("application/json"))).build()).execute()) {
            assertThat(add.code()).isEqualTo(401);
        }
        try (Response reset = http.newCall(new Request.Builder().url(root + "/__admin/reset")
                .post(RequestBody.create("", null)).build()).execute()) {
            assertThat(reset.code()).isEqualTo(401);
        }
        ChatCompletion completion = new OpenAiCompatibleClient(OpenAiCompatibleClient.Config.of(replay.baseUrl()))
                .stream(TimedReplayTest.request("turn the lamp on"), delta -> { });
        assertThat(completion.content()).isNotBlank().doesNotContain("tampered");
    }
}
