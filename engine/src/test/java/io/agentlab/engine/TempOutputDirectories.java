package io.agentlab.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.platform.engine.OutputDirectoryCreator;
import org.junit.platform.engine.TestDescriptor;

/** An output directory creator for EngineTestKit runs: one folder per descriptor under a root. */
record TempOutputDirectories(Path root) implements OutputDirectoryCreator {

    @Override
    public Path getRootDirectory() {
        return root;
    }

    @Override
    public Path createOutputDirectory(TestDescriptor descriptor) throws IOException {
        return Files.createDirectories(root.resolve(descriptor.getUniqueId().toString()
                .replaceAll("[^A-Za-z0-9._-]", "_")));
    }
}
