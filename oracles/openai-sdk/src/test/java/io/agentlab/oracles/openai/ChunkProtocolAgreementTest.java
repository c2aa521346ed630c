package io.agentlab.oracles.openai;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.openai.models.chat.completions.ChatCompletionChunk;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The kit's chunk protocol ({@code ChunkProtocol}, docs/recording.md#protocol-and-notes) against the official SDK,
 * both ways, over the probes conformance-suites' {@code ChunkProtocolProbeExportTest} writes: every chunk the kit
 * refuses, the SDK cannot read ({@code ChatCompletionChunk} parsed and {@code validate()}d), and every chunk the SDK
 * reads, the kit accepts. The deliberate differences: an enum value the SDK does not know ({@code Unknown …}) and an
 * {@code object} other than {@code chat.completion.chunk} are refused by its strict {@code validate()} but read by its
 * client, whose response validation is off by default; the kit accepts those, and this test requires that it does.
 */
class ChunkProtocolAgreementTest {

    static Path probesFile() {
        String configured = System.getProperty("agentlab-build.protocol-probes");
        assertThat(configured).as("system property agentlab-build.protocol-probes (set by oracles/openai-sdk/pom.xml)")
                .isNotBlank();
        return Path.of(configured);
    }

    @Test
    @DisplayName("the kit refuses a chunk exactly when the SDK cannot read it (unknown enum values aside, which both read)")
    void kitAndSdkAgreeOnEveryProbe() throws IOException {
        JsonNode probes = SdkOracle.FILES.readTree(probesFile().toFile());
        List<String> disagreements = new ArrayList<>();
        int refusedByBoth = 0;
        int readByBoth = 0;
        int unknownEnums = 0;
        for (JsonNode probe : probes) {
            String name = probe.path("name").asText();
            boolean kitRefuses = probe.path("kitRefuses").asBoolean();
            String sdkFailure = sdkFailure(probe.path("payload").asText());
            // what only the SDK's strict validate() refuses and its client reads: an enum value it does not know, and
            // an object other than chat.completion.chunk (Azure's first chunk), docs/recording.md#protocol-and-notes
            boolean unknownEnum = sdkFailure != null && (sdkFailure.startsWith("Unknown ")
                    || sdkFailure.startsWith("'object_' is invalid"));
            if (unknownEnum) {
                unknownEnums++;
                if (kitRefuses) {
                    disagreements.add(name + ": the kit refuses an enum value the SDK's client reads as unknown: "
                            + probe.path("violations"));
                }
            } else if (kitRefuses && sdkFailure == null) {
                disagreements.add(name + ": the kit refuses (" + probe.path("violations") + ") what the SDK reads");
            } else if (!kitRefuses && sdkFailure != null) {
                disagreements.add(name + ": the SDK cannot read it (" + sdkFailure + ") but the kit accepts it");
            } else if (kitRefuses) {
                refusedByBoth++;
            } else {
                readByBoth++;
            }
        }
        System.out.printf("[chunk-protocol] %d probes: %d refused by both, %d read by both, %d unknown enum or "
                + "object values read by both (the SDK's validate() alone refuses them), %d disagreements%n", probes.size(),
                refusedByBoth, readByBoth, unknownEnums, disagreements.size());
        assertThat(probes.size()).as("the export holds the probes").isGreaterThan(200);
        assertThat(refusedByBoth).as("probes the protocol refuses").isPositive();
        assertThat(disagreements).isEmpty();
    }

    /** Why the SDK cannot read the payload, or null when it can. */
    private static String sdkFailure(String payload) {
        try {
            SdkOracle.SDK_JSON.readValue(payload, ChatCompletionChunk.class).validate();
            return null;
        } catch (IOException | RuntimeException e) {
            String message = String.valueOf(e.getMessage());
            return message.lines().findFirst().orElse(message);
        }
    }
}
