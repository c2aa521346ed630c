package io.agentlab.plugins;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;
import static org.quicktheories.generators.SourceDSL.strings;

import io.agentlab.kernel.api.CanonicalJson;
import io.agentlab.kernel.api.EventDefinition;
import io.agentlab.kernel.api.EventPlugin;
import io.agentlab.kernel.api.EventRequest;
import io.agentlab.kernel.api.EventScope;
import io.agentlab.kernel.api.InvocationMode;
import io.agentlab.kernel.api.Resolution;
import io.agentlab.kernel.api.ResolutionInput;
import io.agentlab.kernel.api.TurnContext;
import io.agentlab.kernel.reference.ArgumentSchema;
import io.agentlab.kernel.reference.EventRegistry;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;

/**
 * Properties of the built-in resolvers over arbitrary Unicode and over "token soup" built from the phrase vocabulary
 * (so the interesting branches are reached): total, deterministic, every complete resolution valid, canonical form
 * independent of key order. {@code agentlab-build.properties.resolver-examples} sets the count (default 10,000 each).
 */
class ResolverPropertiesTest {

    private static final int EXAMPLES = Integer.getInteger("agentlab-build.properties.resolver-examples", 10_000);
    private static final Long SEED = Long.getLong("agentlab-build.properties.seed");
    private static final List<EventDefinition> DEFINITIONS = BuiltInPlugins.withInMemoryPorts().stream()
            .map(EventPlugin::definition).filter(d -> d.name().startsWith("device") || d.name().startsWith("calendar")
                    || d.name().startsWith("knowledge")).toList();
    private static final EventRegistry REGISTRY = EventRegistry.of(DEFINITIONS);
    private static final List<String> ZONES = List.of("Asia/Shanghai", "Europe/Berlin", "America/New_York",
            "Australia/Lord_Howe", "Pacific/Chatham", "UTC", "America/St_Johns");
    private static final List<String> VOCABULARY = List.of(
            "set", "the", "volume", "to", "up", "down", "by", "louder", "quieter", "mute", "unmute", "max", "half",
            "%", "percent", "thirty", "twenty-five", "a hundred", "0", "7", "12", "30", "99", "100", "150", "1000000000",
            "-5", "remind", "me", "tomorrow", "tonight", "today", "next", "friday", "every", "monday", "and", "at",
            "3pm", "9", "9am", "7:30", "noon", "midnight", "in", "2", "hours", "minutes", "half an hour", "before",
            "december", "31", "february 30", "on the 31st", "2026-02-29", "weekday", "search", "for", "what's",
            "who", "it", "音量", "调到", "百分之", "三十", "一百五", "大声", "一点", "小声", "静音", "取消", "明天", "后天",
            "下周五", "周日", "每天", "晚上", "早上", "凌晨", "下午", "八点", "半", "十二点", "两小时后", "提前", "十分钟",
            "提醒我", "查一下", "天气", "它", "，", "。", "?", " ", "\n", "\u0000", "🙂", "𝟘");

    private static org.quicktheories.QuickTheory theory() {
        org.quicktheories.QuickTheory theory = qt().withExamples(EXAMPLES);
        return SEED == null ? theory : theory.withFixedSeed(SEED);
    }

    /** Mostly vocabulary soup, sometimes arbitrary code points. */
    static Gen<String> utterances() {
        Gen<String> soup = lists().of(integers().between(0, VOCABULARY.size() - 1).map(VOCABULARY::get))
                .ofSizeBetween(0, 12).map(words -> String.join(" ", words));
        Gen<String> unicode = strings().allPossible().ofLengthBetween(0, 40);
        return soup.mix(unicode, 30);
    }

    /** A turn somewhere between 1971 and 2099 in a zone with DST, odd offsets or none. */
    static Gen<TurnContext> turns() {
        return utterances().zip(longs().between(Instant.parse("1971-01-01T00:00:00Z").getEpochSecond(),
                Instant.parse("2099-12-31T00:00:00Z").getEpochSecond()), integers().between(0, ZONES.size() - 1),
                (text, second, zone) -> TurnContext.of(new EventScope("s", "t"), Instant.ofEpochSecond(second),
                        ZoneId.of(ZONES.get(zone)), Locale.ENGLISH, text));
    }

    private static Resolution resolve(EventDefinition definition, TurnContext turn) {
        EventRequest request = new EventRequest("e1", definition.name(), Map.of(), InvocationMode.DUAL_AGENT, 0,
                turn.scope(), turn.requestedAt());
        return definition.resolver().resolve(new ResolutionInput(request, turn));
    }

    /** The clause this checks: {@code docs/design.md#kernel-resolver-total}. */
    @Test
    @DisplayName("resolvers are total and deterministic on arbitrary input")
    void totalAndDeterministic() {
        for (EventDefinition definition : DEFINITIONS) {
            theory().forAll(turns()).checkAssert(turn -> {
                Resolution first = resolve(definition, turn);
                assertThat(resolve(definition, turn)).as(definition.name()).isEqualTo(first);
                assertThat(first.arguments().isEmpty() && first.clarification().isEmpty() && !definition.name()
                        .equals("knowledge.web.search")).as("%s resolved nothing and asked nothing", definition.name())
                        .isFalse();
            });
        }
    }

    @Test
    @DisplayName("every complete resolution passes the schema and the plugin validator after normalization")
    void completeResolutionsAreValid() {
        for (EventDefinition definition : DEFINITIONS) {
            ArgumentSchema schema = REGISTRY.schema(definition.name()).orElseThrow();
            theory().forAll(turns()).checkAssert(turn -> {
                Resolution resolution = resolve(definition, turn);
                if (resolution.clarification().isPresent()) {
                    return;
                }
                Map<String, Object> normalized = definition.normalizer().normalize(resolution.arguments());
                ArgumentSchema.Check check = schema.check(normalized);
                assertThat(check.missing()).as("%s missing for %s", definition.name(), normalized).isEmpty();
                assertThat(check.violations()).as("%s violations for %s", definition.name(), normalized).isEmpty();
                assertThat(definition.validator().validate(normalized)).as(definition.name()).isEmpty();
            });
        }
    }

    @Test
    @DisplayName("canonical arguments do not change when keys are reordered")
    void canonicalIgnoresKeyOrder() {
        for (EventDefinition definition : DEFINITIONS) {
            theory().forAll(turns()).checkAssert(turn -> {
                Map<String, Object> normalized = definition.normalizer().normalize(resolve(definition, turn).arguments());
                List<String> keys = new ArrayList<>(normalized.keySet());
                Collections.reverse(keys);
                Map<String, Object> reordered = new LinkedHashMap<>();
                keys.forEach(key -> reordered.put(key, normalized.get(key)));
                assertThat(CanonicalJson.write(reordered)).isEqualTo(CanonicalJson.write(normalized));
            });
        }
    }
}
