package io.agentlab.kernel.reference;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.networknt.schema.Error;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.text.MessageFormat;
import java.util.Locale;
import java.util.Properties;
import org.apiguardian.api.API;

/**
 * Readable messages for networknt validation errors. networknt formats its messages from the resource bundle
 * {@code jsv-messages}; when {@code wiremock-standalone} is on the classpath too, its older copy of that bundle (whose
 * patterns start with {@code {0}:}, the location) can shadow networknt's, and every argument shifts by one ("1: must
 * have at least 0 items but found {2}"). This reads the patterns from networknt's own jar and formats them with the
 * error's arguments, whatever else is on the classpath.
 */
@API(status = INTERNAL, since = "0.1")
public final class SchemaMessages {

    private static final Properties PATTERNS = load();

    private SchemaMessages() {
    }

    private static Properties load() {
        Properties patterns = new Properties();
        try {
            URL jar = Error.class.getProtectionDomain().getCodeSource().getLocation();
            URL bundle = jar.getPath().endsWith(".jar") ? URI.create("jar:" + jar + "!/jsv-messages.properties").toURL()
                    : jar.toURI().resolve("jsv-messages.properties").toURL();
            try (InputStream in = bundle.openStream()) {
                patterns.load(new InputStreamReader(in, StandardCharsets.UTF_8));
            }
        } catch (IOException | URISyntaxException | RuntimeException e) {
            // no readable bundle: fall back to networknt's own formatting
        }
        return patterns;
    }

    /** The message of {@code error}, without its location (e.g. {@code must have at least 1 items but found 0}). */
    public static String message(Error error) {
        String pattern = error.getMessageKey() == null ? null : PATTERNS.getProperty(error.getMessageKey());
        if (pattern == null) {
            return error.getMessage();
        }
        return new MessageFormat(pattern, Locale.ROOT).format(error.getArguments() == null ? new Object[0]
                : error.getArguments());
    }

    /** {@code <instance location>: <message>}, the location as a JSON Pointer ({@code /} for the root). */
    public static String describe(Error error) {
        String location = error.getInstanceLocation().toString();
        return (location.isEmpty() ? "/" : location) + ": " + message(error);
    }
}
