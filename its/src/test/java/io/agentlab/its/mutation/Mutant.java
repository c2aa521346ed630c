package io.agentlab.its.mutation;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One seeded fault of the reference kernel or turn runtime (docs/mutation-matrix.md#catalogue): a single-point source
 * change of one file, the clause of docs/design.md it breaks, and what the bug is.
 *
 * @param id          a stable name, unique in the catalogue
 * @param family      the clause family (batch-order, deadlines-timeouts, ...)
 * @param clause      the docs/design.md anchor the fault breaks
 * @param file        the source file, relative to the repository root
 * @param original    the code replaced; it must occur exactly once in the file (white space runs match any white
 *                    space), so a catalogue that rots with the code fails loudly
 * @param replacement the code put in its place
 * @param bug         what the fault is, in words
 * @param missingTest for a survivor: the case that would catch it
 * @param equivalent  when the fault changes nothing observable: why (excluded from the kill rate)
 * @param overTheWire for a mutant of the over-the-wire subset (docs/mutation-matrix.md#over-the-wire): {@code caught}
 *                    when the cases that caught it in-process must catch it against the reference service over the
 *                    wire too, else why it escapes there (what catches it in-process is not observable over the wire)
 */
public record Mutant(String id, String family, String clause, String file, String original, String replacement,
                     String bug, Optional<String> missingTest, Optional<String> equivalent,
                     Optional<String> overTheWire) {

    /** The {@code over-the-wire} value of a mutant the wire must catch. */
    public static final String CAUGHT_OVER_THE_WIRE = "caught";

    /** Rejects incomplete entries. */
    public Mutant {
        for (String field : new String[] {id, family, clause, file, original, replacement, bug}) {
            Objects.requireNonNull(field, "every catalogue entry needs id, family, clause, file, original, "
                    + "replacement and bug (" + id + ")");
        }
        if (!id.matches("[a-z0-9][a-z0-9-]*")) {
            throw new IllegalArgumentException("mutant id '" + id + "': lower-case words joined by '-'");
        }
        if (!clause.startsWith("docs/design.md#")) {
            throw new IllegalArgumentException(id + ": clause must be a docs/design.md anchor, was " + clause);
        }
        if (equivalent.isPresent() && equivalent.get().isBlank()) {
            throw new IllegalArgumentException(id + ": an equivalent mutant needs its reason");
        }
        missingTest = missingTest.filter(text -> !text.isBlank());
        if (overTheWire.isPresent() && overTheWire.get().isBlank()) {
            throw new IllegalArgumentException(id + ": over-the-wire is 'caught' or why the mutant escapes there");
        }
        if (overTheWire.isPresent() && equivalent.isPresent()) {
            throw new IllegalArgumentException(id + ": an equivalent mutant has nothing to catch over the wire");
        }
    }

    /** Whether the over-the-wire subset expects the wire to catch this mutant (false: it escapes, or is not run). */
    public boolean caughtOverTheWire() {
        return overTheWire.filter(CAUGHT_OVER_THE_WIRE::equals).isPresent();
    }

    /** The class the file defines (its binary name), e.g. {@code io.agentlab.kernel.reference.BatchRun}. */
    public String className() {
        String path = file.replace('\\', '/');
        int java = path.indexOf("/src/main/java/");
        if (java < 0 || !path.endsWith(".java")) {
            throw new IllegalArgumentException(id + ": " + file + " is not a main source file");
        }
        return path.substring(java + "/src/main/java/".length(), path.length() - ".java".length()).replace('/', '.');
    }

    /**
     * The source with this fault applied.
     *
     * @throws IllegalStateException when the original snippet does not occur exactly once (the catalogue rotted)
     */
    public String apply(String source) {
        Matcher matcher = pattern().matcher(source);
        if (!matcher.find()) {
            throw new IllegalStateException("mutant " + id + ": its original snippet no longer occurs in " + file
                    + " (the code changed: update the catalogue entry)\n--- snippet:\n" + original);
        }
        int start = matcher.start();
        int end = matcher.end();
        if (matcher.find()) {
            throw new IllegalStateException("mutant " + id + ": its original snippet occurs more than once in "
                    + file + " (make it longer so it names one place)\n--- snippet:\n" + original);
        }
        return source.substring(0, start) + replacement + source.substring(end);
    }

    private Pattern pattern() {
        String[] words = original.strip().split("\\s+");
        StringBuilder regex = new StringBuilder();
        for (String word : words) {
            if (regex.length() > 0) {
                regex.append("\\s+");
            }
            regex.append(Pattern.quote(word));
        }
        return Pattern.compile(regex.toString());
    }
}
