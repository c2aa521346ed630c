package io.agentlab.its;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.agentlab.agui.AguiRules;
import io.agentlab.contracts.AdapterRuleCatalogue;
import io.agentlab.contracts.PluginContractRules;
import io.agentlab.kernel.api.rule.Rule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The rule catalogues share one {@link Rule} type and keep their ids as constants (docs/api.md#rules): every catalogue
 * has each id once, and no main source of a published artifact writes a rule id as a string literal; it names the
 * constant ({@code AguiRules.AGUI1_04}, {@code PluginContractRules.PC_06}) or the rule it was handed. The two places
 * a literal id stays are where it cannot be a constant or is the definition itself: a {@code @DisplayName} (an
 * annotation takes only a compile-time constant; {@code PluginContractRulesTest#ruleMethods} ties those to the
 * catalogue) and the first argument of {@code Rule.required}/{@code Rule.optional} in an adapter catalogue. Both
 * checks are shown to fail on a seeded violation.
 */
class RuleIdsTest {

    /** An id as the catalogues write them: {@code PC-06}, {@code AC-CAL-02}, {@code AGUI1-04}, {@code SOCIAL-07}. */
    static final Pattern ID = Pattern.compile("(?<![A-Za-z0-9])(?:PC|AC-[A-Z]+|AGUI1|SOCIAL|ENDPOINT)-\\d{2}(?![0-9])");

    /** A string literal (text blocks are not used in main sources). */
    private static final Pattern LITERAL = Pattern.compile("\"(?:[^\"\\\\\\n]|\\\\.)*\"");

    /** Where a literal id is the definition or must be a compile-time constant. */
    private static final Pattern EXEMPT = Pattern.compile("(?:@DisplayName\\(|Rule\\.(?:required|optional)\\()\\s*$");

    /** Every catalogue by name: the AG-UI rules, the plugin contract's, and each adapter catalogue on the classpath. */
    static Map<String, List<Rule>> catalogues() {
        Map<String, List<Rule>> catalogues = new LinkedHashMap<>();
        catalogues.put("AguiRules", AguiRules.catalogue());
        catalogues.put("PluginContractRules", PluginContractRules.catalogue());
        for (AdapterRuleCatalogue<?> catalogue : ServiceLoader.load(AdapterRuleCatalogue.class)) {
            catalogues.put(catalogue.getClass().getSimpleName(), catalogue.rules().stream()
                    .map(AdapterRuleCatalogue.RuleCheck::rule).toList());
        }
        return catalogues;
    }

    /** The ids a literal may not write: every id of every catalogue. */
    static Set<String> ids() {
        return catalogues().values().stream().flatMap(List::stream).map(Rule::id).collect(Collectors.toSet());
    }

    @Test
    @DisplayName("every catalogue has each id once, each id of the one shape, and an enum's constant is its id")
    void eachIdOnce() {
        Map<String, List<Rule>> catalogues = catalogues();
        assertThat(catalogues).containsKeys("AguiRules", "PluginContractRules", "CalendarAdapterRules",
                "VolumeAdapterRules", "SessionAdapterRules", "SearchAdapterRules");
        catalogues.forEach((name, rules) -> {
            assertThat(rules).as(name).isNotEmpty();
            Rule.catalogue(rules); // throws naming the id two rules share
            assertThat(rules).as(name).allSatisfy(rule -> assertThat(rule.id()).matches(ID));
        });
        assertThat(Arrays.stream(AguiRules.values()).map(rule -> rule.name().replace('_', '-')))
                .containsExactlyElementsOf(AguiRules.catalogue().stream().map(Rule::id).toList());
        assertThat(Arrays.stream(PluginContractRules.values()).map(PluginContractRules::id))
                .containsExactlyElementsOf(PluginContractRules.catalogue().stream().map(Rule::id).toList());
    }

    @Test
    @DisplayName("the id check goes red on a catalogue with two rules of one id")
    void duplicateIdFails() {
        Rule first = Rule.required("AC-X-01", "one", "docs/design.md#plugin-catalog-budget", "One.");
        Rule again = Rule.optional("AC-X-01", "other", "docs/design.md#plugin-catalog-budget", "Other.");
        assertThatThrownBy(() -> Rule.catalogue(List.of(first, again))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("two rules of one catalogue have the id AC-X-01");
    }

    @Test
    @DisplayName("no main source writes a rule id as a literal: it names the rule's constant")
    void noLiteralIds() {
        Set<String> ids = ids();
        List<String> findings = new ArrayList<>();
        for (Path file : mainSources()) {
            findings.addAll(literalIds(file.toString(), read(file), ids));
        }
        assertThat(findings).isEmpty();
    }

    @Test
    @DisplayName("the literal check goes red on an id written at a use site, known or not, and not on the exemptions")
    void literalCheckCanFail() {
        String source = String.join("\n",
                "class Seeded {",
                "    // AGUI1-04 in a comment is prose",
                "    /** PC-06 in Javadoc too */",
                "    @DisplayName(\"required_PC-01_definition_is_valid\")",
                "    void a() {",
                "        add(\"AGUI1-04\", at, type, null, \"x\");",
                "        add(\"AGUI1-99\", at, type, null, \"x\");",
                "        throw new TestAbortedException(\"PC-09 needs pluginWithFailingPort()\");",
                "        Rule.required(\"AC-CAL-01\", \"idempotent_when_repeated\", \"c\", \"d\");",
                "        String url = \"http://example.com/a // not a comment\" + \"ENDPOINT-05\";",
                "    }",
                "}");
        assertThat(literalIds("Seeded.java", source, ids())).containsExactly(
                "Seeded.java:6: \"AGUI1-04\" writes rule id AGUI1-04; name its constant",
                "Seeded.java:7: \"AGUI1-99\" writes AGUI1-99, which no catalogue has",
                "Seeded.java:8: \"PC-09 needs pluginWithFailingPort()\" writes rule id PC-09; name its constant",
                "Seeded.java:10: \"ENDPOINT-05\" writes rule id ENDPOINT-05; name its constant");
    }

    /** The Java sources of every published artifact. */
    static List<Path> mainSources() {
        List<Path> files = new ArrayList<>();
        for (PublishedModules module : PublishedModules.list()) {
            Path main = PublishedModules.root().resolve(module.directory()).resolve("src/main/java");
            if (!Files.isDirectory(main)) {
                continue;
            }
            try (Stream<Path> walk = Files.walk(main)) {
                walk.filter(path -> path.toString().endsWith(".java")).sorted().forEach(files::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        assertThat(files).as("main sources read from the published modules")
                .anySatisfy(path -> assertThat(path).endsWithRaw(Path.of("AguiStreamChecker.java")));
        return files;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The string literals of {@code source} that write a rule id, outside comments and the exemptions. */
    static List<String> literalIds(String name, String source, Set<String> known) {
        String code = withoutComments(source);
        List<String> findings = new ArrayList<>();
        Matcher literal = LITERAL.matcher(code);
        while (literal.find()) {
            Matcher id = ID.matcher(literal.group());
            if (!id.find() || EXEMPT.matcher(code.substring(Math.max(0, literal.start() - 40), literal.start()))
                    .find()) {
                continue;
            }
            int line = (int) code.substring(0, literal.start()).chars().filter(c -> c == '\n').count() + 1;
            findings.add(name + ":" + line + ": " + literal.group() + (known.contains(id.group())
                    ? " writes rule id " + id.group() + "; name its constant"
                    : " writes " + id.group() + ", which no catalogue has"));
        }
        return findings;
    }

    /** The source with comments blanked (newlines kept, so line numbers hold); string literals are left alone. */
    static String withoutComments(String source) {
        StringBuilder out = new StringBuilder(source.length());
        int i = 0;
        while (i < source.length()) {
            char c = source.charAt(i);
            if (c == '"' || c == '\'') {
                int end = i + 1;
                while (end < source.length() && source.charAt(end) != c && source.charAt(end) != '\n') {
                    end += source.charAt(end) == '\\' ? 2 : 1;
                }
                end = Math.min(end + 1, source.length());
                out.append(source, i, end);
                i = end;
            } else if (source.startsWith("//", i)) {
                while (i < source.length() && source.charAt(i) != '\n') {
                    out.append(' ');
                    i++;
                }
            } else if (source.startsWith("/*", i)) {
                int end = source.indexOf("*/", i + 2);
                end = end < 0 ? source.length() : end + 2;
                for (; i < end; i++) {
                    out.append(source.charAt(i) == '\n' ? '\n' : ' ');
                }
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }
}
