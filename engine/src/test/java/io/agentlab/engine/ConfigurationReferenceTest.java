package io.agentlab.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * One list of keys (docs/configuration.md#keys): {@link Constants} is the list, and the engine jar's configuration
 * metadata, the tables of {@code docs/configuration.md} and the Javadoc of each constant are held to it, both ways.
 * The check is one function of the three texts, so the seeded tests below show it fails on each kind of drift.
 */
class ConfigurationReferenceTest {

    private static final Path DOCS = Path.of("../docs/configuration.md");
    private static final Path SOURCE = Path.of("src/main/java/io/agentlab/engine/Constants.java");
    /** A table row's first two cells: the key and its default. */
    private static final Pattern ROW = Pattern.compile("^\\| `([^`]+)` \\| ([^|]*) \\|", Pattern.MULTILINE);
    /** A constant's Javadoc and its name. */
    /** A build switch's name (docs/development.md#build-switches). */
    private static final Pattern BUILD_SWITCH = Pattern.compile("agentlab-build\\.[a-z0-9.-]*[a-z0-9]");
    private static final Pattern JAVADOC = Pattern.compile("/\\*\\*((?:(?!\\*/).)*)\\*/\\s*public static final "
            + "String (\\w+) =", Pattern.DOTALL);

    /** Every key {@link Constants} declares, a prefix ending in {@code .} written as {@code .*}, as the metadata does. */
    static Map<String, String> constants() throws IllegalAccessException {
        Map<String, String> keys = new LinkedHashMap<>();
        for (Field field : Constants.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                String key = (String) field.get(null);
                keys.put(field.getName(), key.endsWith(".") ? key + "*" : key);
            }
        }
        return keys;
    }

    static JsonNode metadata() throws IOException {
        try (InputStream in = ConfigurationReferenceTest.class.getResourceAsStream("/" + ConfigurationKeys.METADATA)) {
            return JsonMapper.builder().build().readTree(in);
        }
    }

    /**
     * What disagrees between the constants (field name → key), their source, the metadata and the reference page;
     * empty when they are one list.
     */
    static List<String> problems(Map<String, String> constants, String source, JsonNode metadata, String reference) {
        List<String> problems = new ArrayList<>();
        Map<String, JsonNode> parameters = new LinkedHashMap<>();
        metadata.path("parameters").forEach(parameter -> parameters.put(parameter.path("key").asString(), parameter));
        Set<String> clientKeys = new LinkedHashSet<>();
        metadata.path("client-keys").forEach(key -> clientKeys.add(key.path("key").asString()));
        Set<String> declared = new LinkedHashSet<>(constants.values());
        for (String key : declared) {
            if (!parameters.containsKey(key) && !clientKeys.contains(key)) {
                problems.add(key + ": in Constants, not in the metadata's parameters or client-keys");
            }
        }
        for (String key : parameters.keySet()) {
            if (!declared.contains(key)) {
                problems.add(key + ": in the metadata's parameters, not in Constants");
            }
            if (clientKeys.contains(key)) {
                problems.add(key + ": both a parameter and a client key in the metadata");
            }
        }
        for (String key : clientKeys) {
            if (!declared.contains(key)) {
                problems.add(key + ": in the metadata's client-keys, not in Constants");
            }
            if (!reference.contains("`" + key + "`")) {
                problems.add(key + ": a client key docs/configuration.md does not name");
            }
        }
        // the key tables: every row a parameter, every parameter a row, its default the metadata's
        Map<String, String> rows = new LinkedHashMap<>();
        Map<String, String> aliasRows = new LinkedHashMap<>();
        String table = null;
        for (String line : reference.split("\n")) {
            if (line.startsWith("| key | default |")) {
                table = "keys";
            } else if (line.startsWith("| deprecated key | use |")) {
                table = "aliases";
            } else if (!line.startsWith("|")) {
                table = null;
            }
            Matcher row = ROW.matcher(line);
            if (table != null && row.find()) {
                (table.equals("keys") ? rows : aliasRows).put(row.group(1), row.group(2).strip());
            }
        }
        rows.forEach((key, defaultCell) -> {
            JsonNode parameter = parameters.get(key);
            if (parameter == null) {
                problems.add(key + ": a row of docs/configuration.md, not a parameter of the metadata");
                return;
            }
            JsonNode value = parameter.path("default");
            if (value.isString() && !defaultCell.equals("`" + value.asString() + "`")) {
                problems.add(key + ": docs/configuration.md gives the default " + defaultCell + ", the metadata `"
                        + value.asString() + "`");
            } else if (!value.isString() && defaultCell.matches("`[^`]*`")) {
                problems.add(key + ": docs/configuration.md gives the default " + defaultCell + ", the metadata none");
            }
        });
        parameters.keySet().stream().filter(key -> !rows.containsKey(key)).forEach(key ->
                problems.add(key + ": a parameter of the metadata with no row in docs/configuration.md"));
        // renamed keys: the same pairs in the metadata and on the page
        Map<String, String> aliases = new LinkedHashMap<>();
        parameters.forEach((key, parameter) -> parameter.path("deprecated-aliases").forEach(alias ->
                aliases.put(alias.asString(), key)));
        aliasRows.forEach((old, cell) -> {
            if (!cell.equals("`" + aliases.get(old) + "`")) {
                problems.add(old + ": docs/configuration.md renames it to " + cell + ", the metadata to "
                        + aliases.get(old));
            }
        });
        aliases.forEach((old, current) -> {
            if (!aliasRows.containsKey(old)) {
                problems.add(old + ": a deprecated alias of " + current + " docs/configuration.md does not list");
            }
            if (declared.contains(old)) {
                problems.add(old + ": a deprecated alias that is still a constant");
            }
        });
        metadata.path("system-properties").forEach(property -> {
            String key = property.path("key").asString();
            if (!reference.contains("`" + key + "`")) {
                problems.add(key + ": a system property of the metadata docs/configuration.md does not name");
            }
        });
        // each constant says its values and default; where the metadata has a default, the Javadoc names it
        Map<String, String> javadoc = new LinkedHashMap<>();
        Matcher comment = JAVADOC.matcher(source);
        while (comment.find()) {
            javadoc.put(comment.group(2), comment.group(1).replaceAll("\\s*\\n\\s*\\*", " "));
        }
        constants.forEach((name, key) -> {
            String text = javadoc.get(name);
            if (text == null || !text.contains("Default:")) {
                problems.add(key + ": the Javadoc of Constants." + name + " gives no default");
                return;
            }
            JsonNode parameter = parameters.get(key);
            if (parameter != null && parameter.path("default").isString()) {
                String expected = parameter.path("default").asString();
                // a class default may be named by its simple name ({@link ServiceLoaderKernelFactory})
                boolean className = expected.matches("([a-z]+\\.)+[A-Z]\\w+");
                if (!text.contains(expected)
                        && !(className && text.contains(expected.substring(expected.lastIndexOf('.') + 1)))) {
                    problems.add(key + ": the Javadoc of Constants." + name + " does not give the default " + expected);
                }
            }
        });
        return problems;
    }

    private static List<String> problems(Map<String, String> constants, JsonNode metadata, String reference)
            throws IOException {
        return problems(constants, Files.readString(SOURCE), metadata, reference);
    }

    @Test
    @DisplayName("Constants, the configuration metadata and docs/configuration.md list the same keys and defaults")
    void oneList() throws Exception {
        assertThat(constants()).hasSizeGreaterThan(40);
        assertThat(problems(constants(), metadata(), Files.readString(DOCS))).isEmpty();
    }

    @Test
    @DisplayName("a key in Constants alone, or in the metadata alone, is a problem")
    void constantOrMetadataAlone() throws Exception {
        Map<String, String> extra = new LinkedHashMap<>(constants());
        extra.put("RETRY_JITTER", "agentlab.provider.live.retry-jitter");
        assertThat(problems(extra, metadata(), Files.readString(DOCS))).anySatisfy(problem -> assertThat(problem)
                .isEqualTo("agentlab.provider.live.retry-jitter: in Constants, not in the metadata's parameters "
                        + "or client-keys"));
        Map<String, String> fewer = new LinkedHashMap<>(constants());
        fewer.remove("REPLAY_SPEED");
        fewer.remove("SKIP");
        assertThat(problems(fewer, metadata(), Files.readString(DOCS))).contains(
                "agentlab.replay.speed: in the metadata's parameters, not in Constants",
                "agentlab.skip: in the metadata's client-keys, not in Constants");
    }

    @Test
    @DisplayName("a parameter without its row in docs/configuration.md, a stray row, or another default is a problem")
    void docsTable() throws Exception {
        String reference = Files.readString(DOCS);
        String withoutRow = reference.replaceAll("(?m)^\\| `agentlab\\.seed` \\|.*\\n", "");
        assertThat(withoutRow).isNotEqualTo(reference);
        assertThat(problems(constants(), metadata(), withoutRow))
                .containsExactly("agentlab.seed: a parameter of the metadata with no row in docs/configuration.md");
        String strayRow = reference.replace("| `agentlab.seed` |", "| `agentlab.sede` | `42` | typo |\n| `agentlab.seed` |");
        assertThat(problems(constants(), metadata(), strayRow))
                .containsExactly("agentlab.sede: a row of docs/configuration.md, not a parameter of the metadata");
        String otherDefault = reference.replace("| `agentlab.seed` | `42` |", "| `agentlab.seed` | `7` |");
        assertThat(problems(constants(), metadata(), otherDefault))
                .containsExactly("agentlab.seed: docs/configuration.md gives the default `7`, the metadata `42`");
    }

    @Test
    @DisplayName("a renamed key missing from the page, or a constant whose Javadoc lacks its default, is a problem")
    void aliasesAndJavadoc() throws Exception {
        String reference = Files.readString(DOCS);
        String withoutAlias = reference.replace("| `agentlab.gate.parity` | `agentlab.gates.parity` |\n", "");
        assertThat(problems(constants(), metadata(), withoutAlias)).containsExactly(
                "agentlab.gate.parity: a deprecated alias of agentlab.gates.parity docs/configuration.md does not list");
        String source = Files.readString(SOURCE).replace("Default: 0.7.", "Default: warm.");
        assertThat(problems(constants(), source, metadata(), reference)).containsExactly(
                "agentlab.provider.live.temperature: the Javadoc of Constants.LIVE_TEMPERATURE does not give the "
                        + "default 0.7");
        ObjectNode metadata = (ObjectNode) metadata();
        ((ObjectNode) metadata.path("parameters").get(0)).put("default", "chat_agent_tools");
        assertThat(problems(constants(), Files.readString(SOURCE), metadata, reference)).contains(
                "agentlab.modes: docs/configuration.md gives the default `dual_agent,chat_agent_tools`, the metadata "
                        + "`chat_agent_tools`");
    }

    /** The build switches the kit's sources, POMs, scripts and pages name (docs/development.md#build-switches). */
    static Set<String> buildSwitchesUsed(Path root) throws IOException {
        Set<String> used = new TreeSet<>();
        Path page = root.resolve("docs/development.md").normalize();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(Files::isRegularFile).filter(ConfigurationReferenceTest::scanned).toList()) {
                if (!file.normalize().equals(page)) {
                    Matcher name = BUILD_SWITCH.matcher(Files.readString(file));
                    while (name.find()) {
                        used.add(name.group());
                    }
                }
            }
        }
        return used;
    }

    private static boolean scanned(Path file) {
        for (Path part : file.normalize()) {
            if (Set.of("target", ".git", "node_modules").contains(part.toString())) {
                return false;
            }
        }
        String name = file.getFileName().toString();
        return name.matches(".*\\.(java|xml|md|sh|yml|yaml|properties|json)") || name.equals("run")
                || file.normalize().toString().contains("/bin/");
    }

    /** What differs between the switches in use and the rows of the development page; empty when they agree. */
    static List<String> buildSwitchProblems(Set<String> used, String page) {
        Set<String> documented = new TreeSet<>();
        Matcher row = ROW.matcher(page);
        while (row.find()) {
            documented.add(row.group(1));
        }
        List<String> problems = new ArrayList<>();
        used.stream().filter(name -> !documented.contains(name)).forEach(name ->
                problems.add(name + ": used, not in docs/development.md#build-switches"));
        documented.stream().filter(name -> !used.contains(name)).forEach(name ->
                problems.add(name + ": in docs/development.md#build-switches, used nowhere"));
        return problems;
    }

    @Test
    @DisplayName("every agentlab-build.* switch the sources name is in docs/development.md, and no other")
    void buildSwitchesDocumented() throws Exception {
        Set<String> used = buildSwitchesUsed(Path.of(".."));
        String page = Files.readString(Path.of("../docs/development.md"));
        assertThat(used).contains("agentlab-build.soak.batches", "agentlab-build.its.root",
                "agentlab-build.regenerate-docs", "agentlab-build.mutation.skip");
        assertThat(buildSwitchProblems(used, page)).isEmpty();
        Set<String> more = new TreeSet<>(used);
        String unlisted = "agentlab-build" + ".soak.minutes"; // split, or this scan would find it here
        more.add(unlisted);
        more.remove("agentlab-build.replay.warm-up");
        assertThat(buildSwitchProblems(more, page)).containsExactly(
                unlisted + ": used, not in docs/development.md#build-switches",
                "agentlab-build.replay.warm-up: in docs/development.md#build-switches, used nowhere");
    }

    @Test
    @DisplayName("Constants holds keys only, and the settings type is not public: no INTERNAL type leaks through it")
    void constantsAreKeysOnly() {
        assertThat(Constants.class.getDeclaredMethods()).isEmpty();
        assertThat(Constants.class.getDeclaredFields()).allSatisfy(field -> {
            assertThat(Modifier.isPublic(field.getModifiers()) && Modifier.isStatic(field.getModifiers())
                    && Modifier.isFinal(field.getModifiers())).as(field.getName()).isTrue();
            assertThat(field.getType()).as(field.getName()).isIn(String.class, long.class);
        });
        assertThat(Modifier.isPublic(EngineOptions.class.getModifiers())).isFalse();
        assertThat(EngineOptions.class.getDeclaredConstructors()).allSatisfy(constructor ->
                assertThat(Modifier.isPrivate(constructor.getModifiers())).isTrue());
    }

    @Test
    @DisplayName("the build's own switches are not in the published metadata; they live outside agentlab.*")
    void buildSwitchesNotPublished() throws Exception {
        List<String> published = new ArrayList<>();
        JsonNode metadata = metadata();
        for (String section : List.of("parameters", "client-keys", "system-properties")) {
            metadata.path(section).forEach(entry -> published.add(entry.path("key").asString()));
        }
        assertThat(published).allSatisfy(key -> assertThat(key).startsWith(ConfigurationKeys.PREFIX)
                .doesNotContain("soak", "its.", "mutation", "regenerate", "browser", "agui-oracle", "properties.",
                        "provider-streams", "warm-up"));
        assertThat(ConfigurationKeys.problem("agentlab-build.soak.batches")).isEmpty();
        assertThat(ConfigurationKeys.problem("agentlab.soak.batches")).isPresent();
    }
}
