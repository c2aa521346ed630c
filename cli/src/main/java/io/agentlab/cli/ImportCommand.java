package io.agentlab.cli;

import io.agentlab.providers.recorded.Recordings;
import io.agentlab.providers.recorded.imports.StreamImport;
import io.agentlab.providers.recorded.imports.StreamImport.Format;
import io.agentlab.providers.recorded.imports.StreamImport.Imported;
import io.agentlab.providers.recorded.imports.StreamImport.Options;
import io.agentlab.providers.recorded.imports.StreamImport.Outcome;
import io.agentlab.providers.recorded.imports.StreamImport.Skipped;
import io.agentlab.providers.recorded.imports.StreamImport.Unreadable;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code agentlab import}: captured provider streams (HAR, VCR cassettes, SSE transcripts, JSON lines of chunks) into
 * recordings, one {@code <id>.json} per streamed chat completion (docs/recording.md#importing-streams). One line per
 * entry: imported (the file), skipped or unreadable (why). Exit code 0 when every entry was imported or skipped, 1 when
 * one could not be imported or written, 2 for bad usage (checked before any file is read).
 */
@Command(name = "import", mixinStandardHelpOptions = true,
        description = {"Import captured provider streams (HAR, VCR cassettes, curl -N transcripts, JSON lines of "
                + "chunks) as recordings; credentials are redacted, request headers never written.",
                "Exit code: 0 every entry imported or skipped, 1 an entry unreadable or not written, 2 bad usage."})
final class ImportCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE", arity = "1..*", description = "The captures to import.")
    List<Path> files;

    @Option(names = "--out", paramLabel = "DIR", required = true, description = "Where the recordings go.")
    Path out;

    @Option(names = "--format", paramLabel = "FORMAT",
            description = "har, vcr, sse, jsonl or auto (default: decided by each file's content).")
    Format format = Format.AUTO;

    @Option(names = "--family", paramLabel = "NAME",
            description = "metadata.provider of the recordings; default openai-compatible (no family-specific shape).")
    String family = Options.DEFAULT_FAMILY;

    @Option(names = "--mode", paramLabel = "MODE",
            description = "dual_agent, chat_agent_tools or any, instead of what the captured request shows.")
    String mode;

    @Option(names = "--role", paramLabel = "ROLE",
            description = "chat, event_agent or follow_up, instead of the X-Agentlab-Call-Role header (default chat).")
    String role;

    @Option(names = "--last-user-message", paramLabel = "TEXT",
            description = "The message the recordings answer, instead of the captured request's.")
    String lastUserMessage;

    @Option(names = "--id-prefix", paramLabel = "PREFIX",
            description = "Put before each id (<prefix><file name>[-<entry>]).")
    String idPrefix;

    @Option(names = "--families", paramLabel = "DIR",
            description = "Folders of family descriptions (<name>.json) the notes use; default DIR/families of --out.")
    List<Path> familyFolders;

    @Option(names = "--force", description = "Overwrite recordings that exist.")
    boolean force;

    @Override
    public Integer call() {
        Options options;
        try {
            // the folder the run reads next to these recordings (docs/recording.md#a-family-is-data)
            List<Path> folders = familyFolders != null ? familyFolders : List.of(out.resolve("families"));
            options = Options.defaults().withFormat(format).withFamily(family).withMatcher(mode, role, lastUserMessage)
                    .withIdPrefix(idPrefix).withFamilyFolders(folders);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), optionOf(e.getMessage()) + e.getMessage());
        }
        for (Path file : files) {
            if (!Files.isRegularFile(file)) {
                throw new ParameterException(spec.commandLine(), "FILE: '" + file + "' is not a file");
            }
        }
        if (Files.exists(out) && !Files.isDirectory(out)) {
            throw new ParameterException(spec.commandLine(), "--out: '" + out + "' is not a directory");
        }
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter stderr = spec.commandLine().getErr();
        int imported = 0;
        int skipped = 0;
        int failed = 0;
        Set<Path> written = new HashSet<>();
        for (Path file : files) {
            for (Outcome outcome : StreamImport.read(file, options)) {
                if (outcome instanceof Imported done) {
                    String problem = write(done, written);
                    if (problem == null) {
                        imported++;
                        stdout.println(done.where() + ": imported -> " + out.resolve(done.recording().id() + ".json"));
                        // departures from the family's usual shape: read and replayed as they are, but worth knowing
                        done.notes().forEach(note -> stdout.println("  note: " + note));
                    } else {
                        failed++;
                        stderr.println(done.where() + ": not written: " + problem);
                    }
                } else if (outcome instanceof Skipped skip) {
                    skipped++;
                    stdout.println(skip.where() + ": skipped: " + skip.reason());
                } else if (outcome instanceof Unreadable bad) {
                    failed++;
                    stderr.println(bad.where() + ": unreadable: " + bad.why());
                }
            }
        }
        stdout.println("imported " + imported + ", skipped " + skipped + ", unreadable or not written " + failed);
        stdout.flush();
        stderr.flush();
        return failed == 0 ? 0 : 1;
    }

    /** Writes one recording; the reason it was not written, or null. */
    private String write(Imported done, Set<Path> written) {
        Path file = out.resolve(done.recording().id() + ".json");
        if (written.contains(file)) {
            return file + " was written by an earlier entry of this import (give distinct file names or --id-prefix)";
        }
        if (Files.exists(file) && !force) {
            return file + " exists (--force overwrites)";
        }
        try {
            Files.createDirectories(out);
            Files.writeString(file, Recordings.write(done.recording()));
        } catch (IOException e) {
            return "cannot write " + file + ": " + e.getMessage();
        }
        written.add(file);
        return null;
    }

    /** The option a message of {@link Options}' constructor is about. */
    private static String optionOf(String message) {
        if (message.startsWith("family")) {
            return "--family: ";
        } else if (message.startsWith("mode")) {
            return "--mode: ";
        } else if (message.startsWith("role")) {
            return "--role: ";
        } else if (message.startsWith("id prefix")) {
            return "--id-prefix: ";
        }
        return "";
    }
}
