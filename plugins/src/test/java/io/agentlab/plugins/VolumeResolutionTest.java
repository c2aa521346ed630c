package io.agentlab.plugins;

import static org.assertj.core.api.Assertions.assertThat;

import io.agentlab.kernel.api.EventOutcome.NeedsClarification;
import io.agentlab.kernel.api.EventOutcome.Rejected;
import io.agentlab.kernel.api.EventOutcome.Succeeded;
import io.agentlab.kernel.api.EventResult;
import io.agentlab.kernel.api.ResolutionOutcome;
import io.agentlab.plugins.volume.InMemoryDeviceVolume;
import io.agentlab.plugins.volume.VolumePlugin;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** device.volume.adjust resolved from English and Chinese utterances through the real kernel (dual_agent). */
class VolumeResolutionTest {

    private static Harness harness;

    @BeforeAll
    static void start() {
        harness = new Harness(new VolumePlugin(new InMemoryDeviceVolume()));
    }

    @AfterAll
    static void stop() {
        harness.close();
    }

    /** Expected: "absolute N", "relative ±N", "mute", "unmute" or "clarify". */
    @ParameterizedTest(name = "[{index}] {0} → {1}")
    @DisplayName("utterance → normalized arguments or one focused question")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            set the volume to 30                 | absolute 30
            volume 30%                           | absolute 30
            set volume to thirty                 | absolute 30
            change the volume to twenty-five percent | absolute 25
            volume to a hundred                  | absolute 100
            turn it up to 80                     | absolute 80
            turn the volume up to eighty         | absolute 80
            max volume                           | absolute 100
            full volume please                   | absolute 100
            set the volume to minimum            | absolute 0
            half volume                          | absolute 50
            turn it up by 20                     | relative 20
            turn the volume up by 30             | relative 30
            turn it down by fifteen              | relative -15
            turn it down 15                      | relative -15
            increase the volume by 5             | relative 5
            decrease volume by 40 percent        | relative -40
            turn it up by 20%                    | relative 20
            a bit louder                         | relative 10
            louder please                        | relative 10
            a lot louder                         | relative 20
            make it quieter                      | relative -10
            a little softer                      | relative -10
            lower the volume                     | relative -10
            volume up                            | relative 10
            volume down                          | relative -10
            it's too loud                        | relative -10
            I can't hear you                     | relative 10
            turn it up by 200                    | relative 100
            mute                                 | mute
            mute the speaker                     | mute
            unmute                               | unmute
            turn the sound back on               | unmute
            set the volume to 150                | clarify
            do something with the sound          | clarify
            音量调到30                            | absolute 30
            把声音调到百分之三十                   | absolute 30
            音量三十                              | absolute 30
            音量调到二十五                         | absolute 25
            把音量调高到八十                       | absolute 80
            音量调到最大                           | absolute 100
            声音调到一半                           | absolute 50
            调低十                                | relative -10
            调高二十                              | relative 20
            音量加五                              | relative 5
            音量减少二十                           | relative -20
            大声一点                              | relative 10
            小声点                                | relative -10
            声音大一点                             | relative 10
            再小声一点                             | relative -10
            声音开大很多                           | relative 20
            关小一点                              | relative -10
            太吵了                                | relative -10
            声音太小了听不见                        | relative 10
            静音                                  | mute
            取消静音                              | unmute
            音量调到两百                           | clarify
            声音怎么了                             | clarify
            """)
    void resolves(String utterance, String expected) {
        EventResult result = harness.dual(VolumePlugin.NAME, utterance);
        if (expected.equals("clarify")) {
            assertThat(result.outcome()).as(utterance).isInstanceOf(NeedsClarification.class);
            return;
        }
        assertThat(result.outcome()).as("%s: %s", utterance, result.outcome()).isInstanceOf(Succeeded.class);
        assertThat(result.arguments()).as(utterance).isEqualTo(arguments(expected));
        assertThat(result.resolution().outcome()).isEqualTo(ResolutionOutcome.DETERMINISTIC);
    }

    /** Model-proposed arguments in chat_agent_tools mode are normalized to the same canonical form. */
    @ParameterizedTest(name = "[{index}] {0} → {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            {"mode":"absolute","value":"30%"}         | absolute 30
            {"mode":"absolute","value":"30"}          | absolute 30
            {"mode":"absolute","value":30.0}          | absolute 30
            {"mode":"set","value":"thirty"}           | absolute 30
            {"mode":"up","value":20}                  | relative 20
            {"mode":"down","delta":15}                | relative -15
            {"mode":"relative","delta":"-10"}         | relative -10
            {"mode":"louder"}                         | relative 10
            {"mode":"mute","value":0}                 | mute
            {"mode":"relative","delta":250}           | relative 100
            """)
    void normalizesProposals(String proposal, String expected) {
        EventResult result = harness.tools(VolumePlugin.NAME, "turn it up a bit", Json.parse(proposal));
        assertThat(result.outcome()).as("%s: %s", proposal, result.outcome()).isInstanceOf(Succeeded.class);
        assertThat(result.arguments()).isEqualTo(arguments(expected));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @DisplayName("out-of-range or incomplete proposals are rejected naming the field, never silently clamped")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            {"mode":"absolute","value":150}   | /value
            {"mode":"absolute","value":-5}    | /value
            {"mode":"absolute","value":30.5}  | /value
            {"mode":"absolute"}               | /value
            {"mode":"sideways","delta":3}     | /mode
            """)
    void rejectsInvalidProposals(String proposal, String location) {
        EventResult result = harness.tools(VolumePlugin.NAME, "volume", Json.parse(proposal));
        assertThat(result.outcome()).isInstanceOfSatisfying(Rejected.class, rejected ->
                assertThat(rejected.violations()).anySatisfy(v -> assertThat(v.location()).isEqualTo(location)));
    }

    static Map<String, Object> arguments(String expected) {
        String[] parts = expected.split(" ");
        Map<String, Object> arguments = new LinkedHashMap<>();
        arguments.put("mode", parts[0]);
        if (parts[0].equals("absolute")) {
            arguments.put("value", Integer.parseInt(parts[1]));
        } else if (parts[0].equals("relative")) {
            arguments.put("delta", Integer.parseInt(parts[1]));
        }
        return arguments;
    }
}
