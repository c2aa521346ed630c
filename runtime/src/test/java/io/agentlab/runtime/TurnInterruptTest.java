package io.agentlab.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.agui.AguiEvent;
import io.agentlab.agui.AguiProfile;
import io.agentlab.agui.AguiStreamChecker;
import io.agentlab.runtime.llm.ChatCompletion;
import io.agentlab.runtime.llm.ChatProvider;
import io.agentlab.runtime.llm.ChatRequest;
import io.agentlab.runtime.llm.ChatStreamListener;
import io.agentlab.runtime.llm.Chunks;
import io.agentlab.runtime.llm.ProviderException;
import io.agentlab.runtime.llm.ProviderRegistry;
import io.agentlab.runtime.llm.ScriptedChatProvider;
import java.time.ZoneId;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import io.agentlab.runtime.protocol.RuntimeConfig;

/**
 * Interrupt keeps the partial answer; delete keeps nothing ({@code docs/design.md#provider-interrupt-vs-delete}). The
 * in-process provider proves the seam.
 */
class TurnInterruptTest {

    private final CountDownLatch streaming = new CountDownLatch(1);
    private TurnRuntime runtime;

    /** Streams "Once upon" and then waits until the turn is interrupted. */
    private final ChatProvider slow = new ChatProvider() {
        @Override
        public ChatCompletion stream(ChatRequest request, ChatStreamListener listener) {
            listener.onContent("Once upon");
            streaming.countDown();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                throw new ProviderException(ProviderException.Kind.CANCELLED, "interrupted");
            }
            throw new IllegalStateException("unreachable");
        }
    };

    @AfterEach
    void close() {
        runtime.close();
    }

    private TurnRuntime runtime(ChatProvider provider) {
        return runtime(provider, AguiProfile.AGUI_1_0);
    }

    private TurnRuntime runtime(ChatProvider provider, AguiProfile profile) {
        runtime = TurnRuntime.builder().definitions(new TestEvents().all().toArray(EventDefinition[]::new))
                .providers(new ProviderRegistry().register("p", provider)).aguiProfile(profile)
                .config(RuntimeConfig.of(InvocationMode.DUAL_AGENT, "p", "m", "You are Pip.")).build();
        return runtime;
    }

    /** Starts a turn on the slow provider and returns once its first delta streamed. */
    private TurnHandle startStreamingStory(Conversation conversation) throws InterruptedException {
        return startStreamingStory(conversation, AguiProfile.AGUI_1_0);
    }

    private TurnHandle startStreamingStory(Conversation conversation, AguiProfile profile) throws InterruptedException {
        runtime(slow, profile);
        TurnHandle handle = runtime.start(conversation, "tell me a story", VisibleSink.discard());
        assertThat(streaming.await(10, TimeUnit.SECONDS)).isTrue();
        return handle;
    }

    @Test
    @DisplayName("interrupt: the partial answer is kept with stop reason 'interrupted'; the open message and step "
            + "close, then RUN_FINISHED with outcome cancelled (AG-UI 1.0)")
    void interrupt() throws Exception {
        Conversation conversation = new Conversation("s1", ZoneId.of("UTC"), Locale.ENGLISH);
        TurnHandle handle = startStreamingStory(conversation);
        handle.interrupt();
        TurnResult result = handle.result().get(10, TimeUnit.SECONDS);

        assertThat(result.error()).contains("RUN_CANCELED");
        assertThat(result.firstAnswer()).isEqualTo("Once upon");
        assertThat(conversation.messages()).extracting(StoredMessage::stopReason).containsExactly(null, "interrupted");
        assertThat(conversation.historyView()).extracting(m -> m.message().content())
                .containsExactly("tell me a story", "Once upon");
        assertThat(result.audit()).extracting(AguiEvent::type).containsExactly(AguiEvent.RUN_STARTED,
                AguiEvent.STEP_STARTED, AguiEvent.TEXT_MESSAGE_START, AguiEvent.TEXT_MESSAGE_CONTENT,
                AguiEvent.TEXT_MESSAGE_END, AguiEvent.STEP_FINISHED, AguiEvent.RUN_FINISHED);
        assertThat(result.audit().get(result.audit().size() - 1).fields())
                .containsEntry("outcome", java.util.Map.of("type", "cancelled"));
        assertThat(AguiStreamChecker.check(AguiProfile.AGUI_1_0, result.audit(), result.turnId())).isEmpty();
    }

    /** The clause this checks: {@code docs/design.md#audit-run-canceled}. */
    @Test
    @DisplayName("interrupt in the social dialect: RUN_ERROR with code RUN_CANCELED")
    void interruptInSocialDialect() throws Exception {
        Conversation conversation = new Conversation("s1", ZoneId.of("UTC"), Locale.ENGLISH);
        TurnHandle handle = startStreamingStory(conversation, AguiProfile.SOCIAL_DIALECT);
        handle.interrupt();
        TurnResult result = handle.result().get(10, TimeUnit.SECONDS);

        assertThat(result.audit()).last().satisfies(e -> {
            assertThat(e.type()).isEqualTo(AguiEvent.RUN_ERROR);
            assertThat(e.text("code")).isEqualTo("RUN_CANCELED");
        });
        assertThat(AguiStreamChecker.check(AguiProfile.SOCIAL_DIALECT, result.audit(), result.turnId())).isEmpty();
    }

    @Test
    @DisplayName("cancel (conversation deleted): nothing is kept")
    void cancel() throws Exception {
        Conversation conversation = new Conversation("s1", ZoneId.of("UTC"), Locale.ENGLISH);
        TurnHandle handle = startStreamingStory(conversation);
        handle.cancel();
        assertThat(handle.result().get(10, TimeUnit.SECONDS).error()).contains("RUN_CANCELED");
        assertThat(conversation.messages()).isEmpty();
    }

    @Test
    @DisplayName("the scripted in-process provider runs a whole turn through the same seam")
    void scriptedProvider() {
        ScriptedChatProvider scripted = new ScriptedChatProvider()
                .enqueue(Chunks.stream("m").content("Lamp on!\n[[EVENTS]] lamp.power.toggle").finish("stop").done()
                        .payloads());
        runtime(scripted);
        TurnResult result = runtime.runTurn(new Conversation("s1", ZoneId.of("UTC"), Locale.ENGLISH),
                "lamp on please", VisibleSink.discard());
        assertThat(result.firstAnswer()).isEqualTo("Lamp on!");
        assertThat(result.proposals()).extracting(p -> p.name()).containsExactly("lamp.power.toggle");
        assertThat(scripted.requests()).hasSize(1);
        assertThat(result.batch().orElseThrow().results().get(0).status()).isEqualTo("succeeded");
        assertThat(List.of(result.metrics().mode())).containsExactly(InvocationMode.DUAL_AGENT);
    }
}
