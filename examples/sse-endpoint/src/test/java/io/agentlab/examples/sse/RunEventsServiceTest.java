package io.agentlab.examples.sse;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.contracts.AguiEndpointContract;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.runtime.protocol.RuntimeConfig;
import io.agentlab.runtime.TurnRuntime;
import io.agentlab.runtime.llm.Chunks;
import io.agentlab.runtime.llm.ProviderRegistry;
import io.agentlab.runtime.llm.ScriptedChatProvider;
import io.agentlab.plugins.BuiltInPlugins;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The service's events endpoint holds to the AG-UI endpoint contract, over real HTTP. */
class RunEventsServiceTest {

    @Test
    @DisplayName("a run with an event streams valid AG-UI 1.0 SSE and resumes after Last-Event-ID")
    void endpointContract() throws Exception {
        // the provider is a stand-in with a canned stream; a real service would configure its model here
        ScriptedChatProvider provider = new ScriptedChatProvider().enqueue(Chunks.stream("m").content("Volume 30.")
                .toolCall(0, "call_1", "device_volume_adjust", "{\"mode\":\"absolute\",\"value\":30}")
                .finish("tool_calls").done().payloads());
        TurnRuntime runtime = TurnRuntime.builder().plugins(BuiltInPlugins.withInMemoryPorts())
                .providers(new ProviderRegistry().register("p", provider))
                .config(RuntimeConfig.of(InvocationMode.CHAT_AGENT_TOOLS, "p", "m", "You are Pip.")).build();
        try (RunEventsService service = RunEventsService.start(runtime, 0)) {
            String runId = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(service.baseUrl()
                            + "/turns?session=s1&text=set%20the%20volume%20to%2030")).POST(HttpRequest.BodyPublishers
                            .noBody()).build(), HttpResponse.BodyHandlers.ofString()).body();
            AguiEndpointContract.Report report = AguiEndpointContract.check(service.baseUrl() + "/runs/" + runId
                    + "/events", AguiEndpointContract.Settings.defaults().withRunId(runId)
                    .withTimeout(Duration.ofSeconds(10)));
            assertThat(report.violations()).isEmpty();
            assertThat(report.passes()).isTrue();
            // RUN_STARTED, the answer's step and message (4), the events step with one call and its result (6),
            // RUN_FINISHED
            assertThat(report.events()).isEqualTo(13);
        }
    }
}
