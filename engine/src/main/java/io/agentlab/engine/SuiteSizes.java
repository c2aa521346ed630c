package io.agentlab.engine;

import static org.apiguardian.api.API.Status.INTERNAL;

import io.agentlab.engine.internal.suite.SuiteHead;
import io.agentlab.engine.internal.yaml.YamlReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * The suite files a selected folder holds, as discovery scans it, and each file's id and case count read from its
 * tokens alone, without building or checking a case: what a client that runs a large selection in parts groups the
 * files by before anything is discovered (docs/engine.md#runs-in-parts). Problems in a file are discovery's to report:
 * here an unreadable file simply counts no case.
 */
@API(status = INTERNAL, since = "0.2")
public final class SuiteSizes {

    private SuiteSizes() {
    }

    /**
     * One suite file's size.
     *
     * @param file  the file
     * @param id    its top-level id, if it writes one
     * @param cases the items of its top-level {@code cases}
     */
    public record Size(Path file, Optional<String> id, int cases) {
    }

    /** The suite files under {@code directory} that selecting it selects ({@code *.suite.yaml}), sorted. */
    public static List<Path> scan(Path directory) {
        return SuiteFiles.scan(directory);
    }

    /** The size of {@code file}. */
    public static Size of(Path file) {
        try {
            if (Files.size(file) > YamlReader.MAX_CHARS * 4L) {
                return new Size(file, Optional.empty(), 0);
            }
            SuiteHead.Size size = SuiteHead.size(new String(Files.readAllBytes(file), StandardCharsets.UTF_8));
            return new Size(file, size.id(), size.cases());
        } catch (IOException e) {
            return new Size(file, Optional.empty(), 0);
        }
    }
}
