package io.agentlab.engine;

import static org.apiguardian.api.API.Status.INTERNAL;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apiguardian.api.API;
import org.junit.platform.engine.ConfigurationParameters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the engine knows about the {@code agentlab.*} namespace, read from the metadata the engine jar ships
 * ({@value #METADATA}): so a mistyped key can be reported with the closest known one instead of being ignored, a
 * renamed key keeps working under its old name, with a warning ({@code deprecated-aliases} in the metadata), and a
 * key of the command line or the Maven goal ({@code client-keys}) is reported as doing nothing elsewhere. The keys
 * themselves are {@link Constants}; a test keeps the metadata and {@code docs/configuration.md} equal to them
 * (docs/configuration.md#keys).
 */
@API(status = INTERNAL, since = "0.1")
public final class ConfigurationKeys {

    /** The classpath resource listing every key. */
    public static final String METADATA = "META-INF/junit-platform-configuration-metadata.json";
    /** The namespace every engine key lives in. */
    public static final String PREFIX = "agentlab.";

    private static final List<String> KNOWN = new ArrayList<>();
    /** Deprecated name → current name, from each parameter's {@code deprecated-aliases}. */
    private static final Map<String, String> ALIASES = new LinkedHashMap<>();
    /**
     * System properties in the namespace that are not engine keys (another part of the kit reads them, such as
     * {@code @PluginContract}, and Surefire hands every {@code -D} to the engine as a parameter): never reported as
     * unknown. The kit's own build switches are outside the namespace, under {@code agentlab-build.*}.
     */
    private static final List<String> SYSTEM_PROPERTIES = new ArrayList<>();
    /**
     * Keys of the command line and the {@code agentlab:verify} goal ({@code client-keys} in the metadata), with what
     * to use instead: under another client (Surefire, the Console Launcher, an IDE) the engine cannot act on them.
     */
    private static final Map<String, String> CLIENT_KEYS = new LinkedHashMap<>();

    static {
        load();
    }

    private ConfigurationKeys() {
    }

    /** Every key, in the metadata's order; a key ending in {@code .*} is a prefix. */
    public static List<String> known() {
        return List.copyOf(KNOWN);
    }

    /** Each deprecated key and the key that replaced it; both still work, the old one with a warning. */
    public static Map<String, String> aliases() {
        return Collections.unmodifiableMap(ALIASES);
    }

    /** The warning for a deprecated key: "'agentlab.gate.parity' is deprecated; use 'agentlab.gates.parity'". */
    public static Optional<String> deprecation(String key) {
        return Optional.ofNullable(ALIASES.get(key)).map(current -> "configuration key '" + key + "' is deprecated; "
                + "use '" + current + "' (it still works for now; docs/configuration.md)");
    }

    /**
     * The parameters as the engine reads them: a current key that is not set takes the value of its deprecated alias,
     * so every reader sees one name per setting. The current key wins when both are set.
     */
    public static ConfigurationParameters withAliases(ConfigurationParameters parameters) {
        if (parameters instanceof Aliased) {
            return parameters;
        }
        return new Aliased(parameters);
    }

    private record Aliased(ConfigurationParameters delegate) implements ConfigurationParameters {

        @Override
        public Optional<String> get(String key) {
            Optional<String> value = delegate.get(key);
            return value.isPresent() ? value : alias(key).flatMap(delegate::get);
        }

        @Override
        public Optional<Boolean> getBoolean(String key) {
            Optional<Boolean> value = delegate.getBoolean(key);
            return value.isPresent() ? value : alias(key).flatMap(delegate::getBoolean);
        }

        @Override
        public Set<String> keySet() {
            return delegate.keySet();
        }

        private static Optional<String> alias(String current) {
            return ALIASES.entrySet().stream().filter(e -> e.getValue().equals(current)).map(Map.Entry::getKey)
                    .findFirst();
        }
    }

    /**
     * The warning for a key of the command line or the Maven goal reaching the engine through another client (Surefire
     * hands every {@code -D} on): it does nothing here, and the warning says what does.
     */
    public static Optional<String> clientOnly(String key) {
        return Optional.ofNullable(CLIENT_KEYS.get(key)).map(instead -> "configuration key '" + key + "' does nothing "
                + "under this client: it is an option of `agentlab run` and the agentlab:verify goal, not of the engine; "
                + instead + " (docs/configuration.md#client-keys)");
    }

    /** The keys of the command line and the Maven goal the engine warns about ({@code client-keys} in the metadata). */
    public static Set<String> clientKeys() {
        return Collections.unmodifiableSet(CLIENT_KEYS.keySet());
    }

    /** Whether {@code key} is an engine key (or lies under a prefix key). */
    public static boolean isKnown(String key) {
        return isKnown(key, List.of());
    }

    /** Whether {@code key} is an engine key or one of {@code extra} (a caller's own keys, such as a goal's). */
    public static boolean isKnown(String key, Collection<String> extra) {
        return extra.contains(key) || ALIASES.containsKey(key) || matches(KNOWN, key)
                || matches(SYSTEM_PROPERTIES, key);
    }

    /** The system properties of the namespace that are not engine keys ({@code system-properties} in the metadata). */
    public static List<String> systemProperties() {
        return List.copyOf(SYSTEM_PROPERTIES);
    }

    private static boolean matches(List<String> keys, String key) {
        return keys.stream().anyMatch(known -> known.endsWith(".*")
                ? key.startsWith(known.substring(0, known.length() - 1)) : known.equals(key));
    }

    /**
     * The problem with {@code key}, if it is in the {@code agentlab.*} namespace but no known key: "unknown
     * configuration key 'agentlab.replay.sped'; did you mean 'agentlab.replay.speed'?". Keys outside the namespace
     * belong to others (JUnit, Surefire) and are never reported.
     */
    public static Optional<String> problem(String key, Collection<String> extra) {
        if (!key.startsWith(PREFIX) || isKnown(key, extra)) {
            return Optional.empty();
        }
        List<String> candidates = new ArrayList<>(extra);
        KNOWN.forEach(known -> candidates.add(known.endsWith(".*") ? known.substring(0, known.length() - 2) : known));
        String closest = closest(key, candidates, Integer.MAX_VALUE).orElseThrow();
        return Optional.of("unknown configuration key '" + key + "'; did you mean '" + closest + "'? (the keys are "
                + "listed in docs/configuration.md)");
    }

    /** The problem with {@code key} among the engine's keys alone. */
    public static Optional<String> problem(String key) {
        return problem(key, List.of());
    }

    /**
     * The one of {@code names} fewest single-character edits from {@code typed} (the first of equals), if it is at
     * most {@code maxEdits} away: a mistyped key's suggestion above, and the command line's for a mistyped option.
     */
    public static Optional<String> closest(String typed, Collection<String> names, int maxEdits) {
        return names.stream().min(Comparator.comparingInt(name -> distance(typed, name)))
                .filter(name -> distance(typed, name) <= maxEdits);
    }

    /**
     * How many single-character edits turn one name into the other, two neighbours swapped counting as one edit
     * (optimal string alignment): {@code rnu} is one edit from {@code run}, as a typist sees it.
     */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(d[i - 1][j - 1] + cost, Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1));
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }

    private static void load() {
        // other engines may ship a file of the same name: take the one naming this engine
        try {
            Enumeration<URL> files = ConfigurationKeys.class.getClassLoader().getResources(METADATA);
            while (files.hasMoreElements()) {
                JsonNode metadata;
                try (InputStream in = files.nextElement().openStream()) {
                    metadata = JsonMapper.builder().build().readTree(in);
                }
                if (ConformanceTestEngine.ENGINE_ID.equals(metadata.path("engine").asString())) {
                    metadata.path("parameters").forEach(parameter -> {
                        String key = parameter.path("key").asString();
                        KNOWN.add(key);
                        parameter.path("deprecated-aliases").forEach(alias -> ALIASES.put(alias.asString(), key));
                    });
                    metadata.path("system-properties").forEach(property -> SYSTEM_PROPERTIES.add(
                            property.path("key").asString()));
                    metadata.path("client-keys").forEach(key -> CLIENT_KEYS.put(key.path("key").asString(),
                            key.path("instead").asString()));
                    return;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + METADATA, e);
        }
        throw new IllegalStateException(METADATA + " of " + ConformanceTestEngine.ENGINE_ID + " is not on the classpath");
    }
}
