package io.agentlab.maven;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.ConfigurationKeys;
import io.agentlab.engine.Constants;
import io.agentlab.report.TestOutcome;
import io.agentlab.runner.JvmOptions;
import io.agentlab.runner.RunResults;
import io.agentlab.runner.RunSpec;
import io.agentlab.runner.RunnerMain;
import io.agentlab.runner.Shard;
import io.agentlab.runner.UsageException;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.maven.artifact.Artifact;
import org.apache.maven.artifact.DependencyResolutionRequiredException;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.apache.maven.project.MavenProject;
import org.apiguardian.api.API;

/**
 * {@code agentlab:verify}: runs conformance suites through the JUnit Launcher, as Pact's provider plugin verifies
 * without Surefire. It forks a JVM with the project's test classpath (its plugins, kernel factory and suites) plus the
 * kit's runner, takes the same {@code agentlab.*} parameters as the engine (from {@code <configurationParameters>}
 * or {@code -Dagentlab.*}), writes the reports ({@code metrics.json}, {@code report.md}, {@code index.html},
 * {@code results.json}, JUnit XML under {@code junit/}) and fails the build when a case, a parity check or a gate
 * fails, or when no case executed.
 */
@Mojo(name = "verify", defaultPhase = LifecyclePhase.VERIFY, requiresDependencyResolution = ResolutionScope.TEST,
        threadSafe = true)
@API(status = INTERNAL, since = "0.1")
public final class VerifyMojo extends AbstractMojo {

    /**
     * The goal's own user properties, the client keys of {@link Constants} ({@code client-keys} in the engine's
     * configuration metadata, checked against the constants by the engine's {@code DocumentationTest}); every other
     * {@code -Dagentlab.*} is an engine parameter.
     */
    static final Set<String> GOAL_KEYS = ConfigurationKeys.clientKeys();

    /** SLF4J providers: when the project has none, the fork gets the no-operation one instead of a warning. */
    static final Set<String> SLF4J_PROVIDERS = Set.of("slf4j-nop", "slf4j-simple", "logback-classic",
            "log4j-slf4j2-impl", "slf4j-jdk14", "slf4j-reload4j");

    private final List<String> errors = new ArrayList<>();
    private final Deque<String> lastLines = new ArrayDeque<>();

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    MavenProject project;

    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    MavenSession session;

    @Parameter(defaultValue = "${plugin.artifacts}", readonly = true, required = true)
    List<Artifact> pluginArtifacts;

    /** Suite folders or files (relative to the project), or {@code classpath:FOLDER}; default the shipped suites. */
    @Parameter(property = Constants.SUITES)
    List<String> suites = new ArrayList<>();

    /** Engine parameters ({@code agentlab.*}, docs/configuration.md); {@code -Dagentlab.*} overrides them. */
    @Parameter
    Map<String, String> configurationParameters = new LinkedHashMap<>();

    /** JUnit tag expressions a test must match. */
    @Parameter(property = Constants.TAGS)
    List<String> tags = new ArrayList<>();

    /** JUnit tag expressions that leave a test out. */
    @Parameter(property = Constants.EXCLUDE_TAGS)
    List<String> excludeTags = new ArrayList<>();

    /** Case names ({@code case}, {@code suite/case}) or unique ids. */
    @Parameter(property = Constants.CASES)
    List<String> cases = new ArrayList<>();

    /** This job's shard, {@code I/N}; merge the shards with {@code agentlab merge}. */
    @Parameter(property = Constants.SHARD)
    String shard;

    /** Where the reports go. */
    @Parameter(property = Constants.REPORT_DIRECTORY, defaultValue = "${project.build.directory}/agentlab-reports")
    File reportDirectory;

    /**
     * The base URL of a runtime over the wire the suites judge instead of the in-process kernel (docs/wire.md),
     * loopback only; with {@link #runtimeCommand}, the URL the started runtime listens on ({@code {port}}: a free port).
     * Cases then run one at a time.
     */
    @Parameter(property = Constants.RUNTIME_URL)
    String runtime;

    /**
     * The command line that starts the runtime over the wire, configured by the environment of
     * docs/wire.md#configuration; its output goes to {@code runtime.log} in the report directory.
     */
    @Parameter(property = Constants.RUNTIME_COMMAND)
    String runtimeCommand;

    /** Skip the goal. */
    @Parameter(property = Constants.SKIP, defaultValue = "false")
    boolean skip;

    /** Skipped with the tests, as Failsafe is. */
    @Parameter(property = "skipTests", defaultValue = "false")
    boolean skipTests;

    /** The java executable of the forked JVM; default the one running Maven. */
    @Parameter(property = Constants.JVM)
    File jvm;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skip || skipTests) {
            getLog().info("agentlab:verify skipped");
            return;
        }
        RunSpec spec;
        try {
            spec = spec();
        } catch (UsageException e) {
            throw new MojoExecutionException("agentlab: " + e.getMessage(), e);
        }
        Path work = Path.of(project.getBuild().getDirectory(), "agentlab");
        Path properties = work.resolve("run.properties");
        Path arguments = work.resolve("java.args");
        try {
            Files.createDirectories(work);
            try (OutputStream out = Files.newOutputStream(properties)) {
                spec.toProperties().store(out, "agentlab:verify");
            }
            // the run's JVM options, as bin/agentlab's (docs/performance.md#jvm-start-up-options)
            Files.writeString(arguments, String.join("\n", JvmOptions.SHORT_RUN) + "\n-cp " + quote(String.join(File.pathSeparator, classpath())) + "\n"
                    + RunnerMain.class.getName() + "\n" + quote(properties.toString()) + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new MojoExecutionException("agentlab: cannot write " + work + ": " + e.getMessage(), e);
        }
        int exit = fork(arguments);
        if (exit == 2) {
            throw new MojoExecutionException("agentlab: the run could not start: " + String.join("; ",
                    errors.isEmpty() ? lastLines : errors));
        }
        if (exit != 0) {
            throw new MojoFailureException(failure(spec));
        }
    }

    private RunSpec spec() {
        Map<String, String> configuration = new LinkedHashMap<>(configurationParameters);
        if (runtime != null && !runtime.isBlank()) {
            configuration.put(Constants.RUNTIME_URL, runtime);
        }
        if (runtimeCommand != null && !runtimeCommand.isBlank()) {
            configuration.put(Constants.RUNTIME_COMMAND, runtimeCommand);
        }
        for (String key : session.getUserProperties().stringPropertyNames()) {
            if (key.startsWith(ConfigurationKeys.PREFIX) && !GOAL_KEYS.contains(key)) {
                configuration.put(key, session.getUserProperties().getProperty(key));
            }
        }
        RunSpec.Builder builder = RunSpec.builder().includeTags(tags).excludeTags(excludeTags).cases(cases)
                .reportDirectory(reportDirectory.toPath());
        for (String suite : suites) {
            builder.suites(List.of(suite.startsWith(RunSpec.CLASSPATH) ? suite
                    : project.getBasedir().toPath().resolve(suite).toString()));
        }
        configuration.forEach((key, value) -> {
            try {
                builder.configuration(key, value);
            } catch (UsageException e) {
                throw new UsageException(e.getMessage() + " (in <configurationParameters> or -D" + key + "; the goal's "
                        + "own properties are " + String.join(", ", new java.util.TreeSet<>(GOAL_KEYS)) + ")", e);
            }
        });
        if (shard != null && !shard.isBlank()) {
            builder.shard(Shard.parse(shard));
        }
        return builder.build();
    }

    /** The project's test classpath, then the kit's runner and what it needs, when the project lacks them. */
    private List<String> classpath() throws MojoExecutionException {
        List<String> elements;
        try {
            elements = new ArrayList<>(project.getTestClasspathElements());
        } catch (DependencyResolutionRequiredException e) {
            throw new MojoExecutionException("agentlab: the test classpath is not resolved", e);
        }
        Set<String> present = new HashSet<>();
        boolean logging = false;
        for (Artifact artifact : project.getArtifacts()) {
            present.add(artifact.getGroupId() + ":" + artifact.getArtifactId());
            logging |= SLF4J_PROVIDERS.contains(artifact.getArtifactId());
        }
        for (Artifact artifact : pluginArtifacts) {
            String key = artifact.getGroupId() + ":" + artifact.getArtifactId();
            boolean surplusLogger = logging && SLF4J_PROVIDERS.contains(artifact.getArtifactId());
            if (!present.contains(key) && !surplusLogger && artifact.getFile() != null
                    && !"agentlab-maven-plugin".equals(artifact.getArtifactId())) {
                elements.add(artifact.getFile().getAbsolutePath());
            }
        }
        return elements;
    }

    private int fork(Path arguments) throws MojoExecutionException {
        String java = jvm != null ? jvm.getAbsolutePath()
                : Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "@" + arguments).directory(project.getBasedir())
                .redirectErrorStream(true);
        try {
            Process process = builder.start();
            process.getOutputStream().close();
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    if (line.startsWith(RunnerMain.ERROR)) {
                        getLog().error(line.substring(RunnerMain.ERROR.length()));
                        errors.add(line.substring(RunnerMain.ERROR.length()));
                    } else {
                        getLog().info(line);
                    }
                    lastLines.addLast(line);
                    if (lastLines.size() > 5) {
                        lastLines.removeFirst();
                    }
                }
            }
            return process.waitFor();
        } catch (IOException e) {
            throw new MojoExecutionException("agentlab: cannot start " + java + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MojoExecutionException("agentlab: interrupted", e);
        }
    }

    private String failure(RunSpec spec) {
        Path file = spec.reportDirectory().resolve(RunResults.FILE);
        if (!Files.exists(file)) {
            return "agentlab: the run failed (" + String.join("; ", lastLines) + ")";
        }
        RunResults results = RunResults.read(file);
        if (results.broken().isEmpty()) {
            return "agentlab: no case executed (" + results.count(TestOutcome.Status.SKIPPED) + " skipped): a gate "
                    + "that checks nothing fails; see " + file;
        }
        StringBuilder message = new StringBuilder("agentlab: " + results.broken().size() + " of "
                + results.tests().size() + " tests failed:");
        results.broken().stream().limit(20).forEach(test -> message.append("\n  ").append(test.name()));
        if (results.broken().size() > 20) {
            message.append("\n  ...");
        }
        return message.append("\nreports in ").append(spec.reportDirectory()).toString();
    }

    /** A java @argfile value: quoted, with backslashes and quotes escaped. */
    private static String quote(String value) {
        return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
