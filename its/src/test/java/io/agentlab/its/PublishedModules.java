package io.agentlab.its;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The reactor's published artifacts, read from the root {@code pom.xml}'s {@code <module>} list: every module that
 * is not a POM and does not skip deployment ({@code maven.deploy.skip}). Read, not written down, so a module added
 * to the reactor is guarded without touching the guards (docs/development.md#guards).
 *
 * @param directory  the module's folder, relative to the repository root
 * @param artifactId its artifact id
 */
record PublishedModules(String directory, String artifactId) {

    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
    private static final Pattern ARTIFACT = Pattern.compile("</parent>\\s*<artifactId>([^<]+)</artifactId>");

    /** The repository root the checks read (the {@code its} module runs from its own folder). */
    static Path root() {
        return Path.of(System.getProperty("agentlab.its.root", "..")).toAbsolutePath().normalize();
    }

    /** The published modules, in reactor order. */
    static List<PublishedModules> list() {
        try {
            List<PublishedModules> modules = new ArrayList<>();
            Matcher module = MODULE.matcher(Files.readString(root().resolve("pom.xml")));
            while (module.find()) {
                String directory = module.group(1).trim();
                String pom = Files.readString(root().resolve(directory).resolve("pom.xml"));
                if (pom.contains("<packaging>pom</packaging>") || pom.contains("<maven.deploy.skip>true")) {
                    continue;
                }
                Matcher artifact = ARTIFACT.matcher(pom);
                if (!artifact.find()) {
                    throw new IllegalStateException(directory + "/pom.xml names no artifactId after its parent");
                }
                modules.add(new PublishedModules(directory, artifact.group(1)));
            }
            return modules;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The module's compiled main classes. */
    Path classes() {
        return root().resolve(directory).resolve("target/classes");
    }

    @Override
    public String toString() {
        return artifactId + " (" + directory + ")";
    }
}
