package io.agentlab.its.mutation;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/** The committed fault catalogue, its/mutants.yaml (docs/mutation-matrix.md#catalogue). */
public final class Catalogue {

    /** Where the catalogue lives, relative to the repository root. */
    public static final String FILE = "its/mutants.yaml";

    private Catalogue() {
    }

    /** Reads and checks the catalogue: unique ids, every field present, every equivalent with its reason. */
    public static List<Mutant> read(Path file) throws IOException {
        JsonNode root = YAMLMapper.builder().build().readTree(Files.readString(file));
        List<Mutant> mutants = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (JsonNode entry : root.path("mutants")) {
            Mutant mutant = new Mutant(text(entry, "id"), text(entry, "family"), text(entry, "clause"),
                    text(entry, "file"), text(entry, "original"), text(entry, "replacement"), text(entry, "bug"),
                    Optional.ofNullable(text(entry, "missing-test")), Optional.ofNullable(text(entry, "equivalent")),
                    Optional.ofNullable(text(entry, "over-the-wire")));
            if (!ids.add(mutant.id())) {
                throw new IllegalArgumentException(file + ": mutant id '" + mutant.id() + "' is used twice");
            }
            mutants.add(mutant);
        }
        if (mutants.isEmpty()) {
            throw new IllegalArgumentException(file + ": no mutants under 'mutants:'");
        }
        return List.copyOf(mutants);
    }

    private static String text(JsonNode entry, String field) {
        JsonNode value = entry.get(field);
        return value == null || value.isNull() ? null : value.asString();
    }
}
