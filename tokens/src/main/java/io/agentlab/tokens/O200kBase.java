package io.agentlab.tokens;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Counts {@code o200k_base} tokens of a text as ordinary text (special-token markers such as
 * {@code <|endoftext|>} are counted as the characters they are, the way a provider counts a user's message).
 *
 * <p>Why not jtokkit's own encoding: it turns the 200,000 ranks into about 40 MB of small objects, which cost a
 * short run a third of a second of CPU and more in collections (docs/performance.md#token-ranks). This class reads
 * the same rank file that jtokkit ships into three primitive arrays (about 5 MB) and merges byte pairs with a heap,
 * so a piece of any length costs O(n log n). jtokkit stays the oracle: {@code O200kBaseTest} compares every count
 * with jtokkit's {@code countTokensOrdinary}.
 *
 * <p>Thread-safe: the tables are written once, in the holder's class initialisation, and only read after it.
 */
final class O200kBase {

    /** The rank file jtokkit ships: one token per line, its bytes in base64, a space, then its rank. */
    private static final String RANKS = "/com/knuddels/jtokkit/o200k_base.tiktoken";

    /**
     * The encoding's pre-tokenising pattern, alternatives in OpenAI's order, compiled with the flags jtokkit uses
     * (Unicode character classes), so a text splits into the same pieces.
     */
    static final Pattern PIECES = Pattern.compile(String.join("|",
            "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+"
                    + "(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
            "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*"
                    + "(?i:'s|'t|'re|'ve|'m|'ll|'d)?",
            "\\p{N}{1,3}",
            " ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*",
            "\\s*[\\r\\n]+",
            "\\s+(?!\\S)",
            "\\s+"), Pattern.UNICODE_CHARACTER_CLASS);

    private O200kBase() {
    }

    /** Tokens of {@code text}, counted as ordinary text. */
    static int count(String text) {
        Ranks ranks = Holder.ranks();
        if (ascii(text)) {
            return countAscii(ranks, text);
        }
        int tokens = 0;
        Matcher piece = PIECES.matcher(text);
        while (piece.find()) {
            byte[] bytes = text.substring(piece.start(), piece.end()).getBytes(StandardCharsets.UTF_8);
            tokens += ranks.rank(bytes, 0, bytes.length) >= 0 ? 1 : merge(ranks, bytes);
        }
        return tokens;
    }

    private static boolean ascii(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    /**
     * The same count for a text of ASCII characters only, split into pieces without the regular expression: tool
     * schemas and most prompts are ASCII, and the expression (Unicode classes, backtracking) was most of a count's
     * time. {@link #asciiPieceEnd} follows the pattern's alternatives in order; {@code O200kBaseTest} checks both
     * paths against jtokkit.
     */
    private static int countAscii(Ranks ranks, String text) {
        int tokens = 0;
        byte[] buffer = new byte[64];
        for (int start = 0; start < text.length(); ) {
            int end = asciiPieceEnd(text, start);
            int length = end - start;
            if (buffer.length < length) {
                buffer = new byte[Math.max(length, buffer.length * 2)];
            }
            for (int i = 0; i < length; i++) {
                buffer[i] = (byte) text.charAt(start + i);
            }
            tokens += ranks.rank(buffer, 0, length) >= 0 ? 1 : merge(ranks, Arrays.copyOf(buffer, length));
            start = end;
        }
        return tokens;
    }

    /**
     * Where the piece that starts at {@code i} ends, for ASCII text: the first of the pattern's alternatives that
     * matches there, as Java's matcher would find it. In ASCII the pattern's classes are: letters {@code A-Z a-z}
     * (upper and lower case disjoint; no titlecase, modifier, other letters or marks), digits {@code 0-9}, and white
     * space {@code \t \n \u000B \f \r} and the space.
     */
    static int asciiPieceEnd(String s, int i) {
        int n = s.length();
        char c = s.charAt(i);
        // 1 and 2: [^\r\n\p{L}\p{N}]? then upper case* lower case+ (1) or upper case+ lower case* (2), then a
        // contraction. The optional first character is taken when it can be; without it a non-letter cannot start
        // the letters, so backtracking never finds another match.
        int letters = letter(c) ? i : c != '\r' && c != '\n' && !digit(c) && i + 1 < n && letter(s.charAt(i + 1))
                ? i + 1 : -1;
        if (letters >= 0) {
            int upper = run(s, letters, UPPER);
            int lower = run(s, upper, LOWER);
            if (lower > upper || upper > letters) {
                // with no lower case after the upper ones, (1) fails and (2) takes the upper case run alone
                return contraction(s, lower);
            }
        }
        // 3: \p{N}{1,3}
        if (digit(c)) {
            return Math.min(run(s, i, DIGIT), i + 3);
        }
        // 4: " ?[^\s\p{L}\p{N}]+[\r\n/]*"
        int marks = c == ' ' && i + 1 < n ? i + 1 : i;
        if (other(s.charAt(marks))) {
            int end = run(s, marks, OTHER);
            while (end < n && (s.charAt(end) == '\r' || s.charAt(end) == '\n' || s.charAt(end) == '/')) {
                end++;
            }
            return end;
        }
        // c is white space: 5, \s*[\r\n]+ (backtracks to the last line break of the run), then 6, \s+(?!\S), then 7
        int space = run(s, i, SPACE);
        for (int q = space - 1; q >= i; q--) {
            if (s.charAt(q) == '\r' || s.charAt(q) == '\n') {
                return q + 1;
            }
        }
        return space == n || space - i < 2 ? space : space - 1;
    }

    private static final int UPPER = 1;
    private static final int LOWER = 2;
    private static final int DIGIT = 3;
    private static final int SPACE = 4;
    private static final int OTHER = 5;

    /** The end of the run of {@code kind} characters from {@code i}. */
    private static int run(String s, int i, int kind) {
        int end = i;
        while (end < s.length() && kind(s.charAt(end)) == kind) {
            end++;
        }
        return end;
    }

    private static int kind(char c) {
        if (c >= 'A' && c <= 'Z') {
            return UPPER;
        }
        if (c >= 'a' && c <= 'z') {
            return LOWER;
        }
        if (digit(c)) {
            return DIGIT;
        }
        return c == ' ' || (c >= '\t' && c <= '\r') ? SPACE : OTHER;
    }

    private static boolean letter(char c) {
        int kind = kind(c);
        return kind == UPPER || kind == LOWER;
    }

    private static boolean digit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean other(char c) {
        return kind(c) == OTHER;
    }

    /** {@code end}, or past a contraction there: (?i:'s|'t|'re|'ve|'m|'ll|'d). */
    private static int contraction(String s, int end) {
        int n = s.length();
        if (end + 1 >= n || s.charAt(end) != '\'') {
            return end;
        }
        char a = Character.toLowerCase(s.charAt(end + 1));
        if (a == 's' || a == 't' || a == 'm' || a == 'd') {
            return end + 2;
        }
        if (end + 2 < n) {
            char b = Character.toLowerCase(s.charAt(end + 2));
            if ((a == 'r' || a == 'v') && b == 'e' || a == 'l' && b == 'l') {
                return end + 3;
            }
        }
        return end;
    }

    /** Loads the ranks now (the first count would otherwise), on the calling thread. */
    static void load() {
        Holder.ranks();
    }

    /**
     * Byte-pair merge of one piece that is not itself a token: repeatedly joins the adjacent pair whose joined bytes
     * have the lowest rank (the leftmost such pair on a tie) until no joined pair is a token, and returns how many
     * parts are left. Every single byte is a token, so each part left is one.
     *
     * <p>Parts are kept as a linked list of start offsets; candidate pairs wait in a min-heap keyed by rank, then
     * start. An entry is checked when it is taken: the pair it names must still exist with that rank. That makes the
     * merge O(n log n) however long the piece (a hostile run of spaces included), where re-scanning every pair after
     * each join would be O(n²).
     */
    private static int merge(Ranks ranks, byte[] bytes) {
        int n = bytes.length;
        int[] next = new int[n];
        int[] previous = new int[n];
        boolean[] start = new boolean[n];
        Heap heap = new Heap(n);
        for (int i = 0; i < n; i++) {
            next[i] = i + 1;
            previous[i] = i - 1;
            start[i] = true;
        }
        for (int i = 0; i + 1 < n; i++) {
            offer(heap, ranks, bytes, i, i + 2);
        }
        int parts = n;
        while (!heap.isEmpty()) {
            long entry = heap.poll();
            int at = (int) entry;
            int rank = (int) (entry >>> 32);
            if (!start[at] || next[at] >= n) {
                continue;
            }
            int joined = next[at];
            int end = next[joined];
            if (ranks.rank(bytes, at, end) != rank) {
                continue;
            }
            start[joined] = false;
            next[at] = end;
            if (end < n) {
                previous[end] = at;
            }
            parts--;
            if (end < n) {
                offer(heap, ranks, bytes, at, next[end]);
            }
            if (previous[at] >= 0) {
                offer(heap, ranks, bytes, previous[at], end);
            }
        }
        return parts;
    }

    private static void offer(Heap heap, Ranks ranks, byte[] bytes, int from, int to) {
        int rank = ranks.rank(bytes, from, to);
        if (rank >= 0) {
            heap.add(((long) rank << 32) | from);
        }
    }

    /** Binary min-heap of longs: rank in the high half, start offset in the low half. */
    private static final class Heap {
        private long[] items;
        private int size;

        Heap(int capacity) {
            items = new long[Math.max(capacity, 4)];
        }

        boolean isEmpty() {
            return size == 0;
        }

        void add(long item) {
            if (size == items.length) {
                items = Arrays.copyOf(items, size * 2);
            }
            int i = size++;
            while (i > 0) {
                int parent = (i - 1) >>> 1;
                if (items[parent] <= item) {
                    break;
                }
                items[i] = items[parent];
                i = parent;
            }
            items[i] = item;
        }

        long poll() {
            long top = items[0];
            long last = items[--size];
            int i = 0;
            int half = size >>> 1;
            while (i < half) {
                int child = 2 * i + 1;
                if (child + 1 < size && items[child + 1] < items[child]) {
                    child++;
                }
                if (last <= items[child]) {
                    break;
                }
                items[i] = items[child];
                i = child;
            }
            if (size > 0) {
                items[i] = last;
            }
            return top;
        }
    }

    /**
     * Loaded on first use, once per class loader. A failure is kept and thrown, with its cause, by every count after
     * it (a failed class initialisation would otherwise leave later callers a bare {@code NoClassDefFoundError}, the
     * cause printed only on the thread that loaded first).
     */
    private static final class Holder {
        private static final Ranks LOADED;
        private static final RuntimeException FAILURE;

        static {
            Ranks loaded = null;
            RuntimeException failure = null;
            try {
                loaded = Ranks.read();
            } catch (RuntimeException e) {
                failure = e;
            }
            LOADED = loaded;
            FAILURE = failure;
        }

        static Ranks ranks() {
            if (FAILURE != null) {
                throw new IllegalStateException("o200k_base ranks could not be loaded", FAILURE);
            }
            return LOADED;
        }
    }

    /**
     * The vocabulary as primitive arrays: every token's bytes one after another in {@code pool}, where token
     * {@code r} starts at {@code starts[r]} and ends at {@code starts[r + 1]}, and an open-addressing hash table
     * {@code slots} holding rank + 1 (0 for an empty slot).
     */
    private record Ranks(byte[] pool, int[] starts, int[] slots) {

        /** The rank of {@code bytes[from, to)}, or -1 when those bytes are not a token. */
        int rank(byte[] bytes, int from, int to) {
            int mask = slots.length - 1;
            int length = to - from;
            for (int slot = hash(bytes, from, to) & mask; ; slot = (slot + 1) & mask) {
                int entry = slots[slot];
                if (entry == 0) {
                    return -1;
                }
                int rank = entry - 1;
                int at = starts[rank];
                if (starts[rank + 1] - at == length
                        && Arrays.equals(pool, at, at + length, bytes, from, to)) {
                    return rank;
                }
            }
        }

        static int hash(byte[] bytes, int from, int to) {
            int h = 0x811c9dc5;
            for (int i = from; i < to; i++) {
                h = (h ^ (bytes[i] & 0xff)) * 0x01000193;
            }
            return h ^ (h >>> 16);
        }

        /**
         * Reads the rank file in one pass, decoding base64 straight into the pool. The file lists ranks 0, 1, 2 …
         * in order; anything else means a jtokkit whose file this class does not know, which is refused rather than
         * counted wrongly.
         */
        static Ranks read() {
            byte[] file;
            try (InputStream in = O200kBase.class.getResourceAsStream(RANKS)) {
                if (in == null) {
                    throw new IllegalStateException("jtokkit's " + RANKS + " is not on the class path");
                }
                file = in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException("could not read " + RANKS, e);
            }
            byte[] pool = new byte[file.length];
            int[] starts = new int[1 << 18];
            int tokens = 0;
            int used = 0;
            int i = 0;
            while (i < file.length) {
                int lineStart = i;
                int quad = 0;
                int bits = 0;
                byte c;
                while (true) {
                    if (i == file.length) {
                        throw malformed(lineStart);
                    }
                    c = file[i];
                    if (c == ' ') {
                        break;
                    }
                    if (c != '=') {
                        quad = ((quad << 6) | sextet(c, lineStart)) & 0xfff;
                        bits += 6;
                        if (bits >= 8) {
                            bits -= 8;
                            pool[used++] = (byte) (quad >>> bits);
                        }
                    }
                    i++;
                }
                i++;
                int rank = 0;
                while (i < file.length && (c = file[i]) != '\n') {
                    if (c < '0' || c > '9') {
                        throw malformed(lineStart);
                    }
                    rank = rank * 10 + (c - '0');
                    i++;
                }
                i++;
                if (rank != tokens) {
                    throw malformed(lineStart);
                }
                if (tokens + 1 == starts.length) {
                    starts = Arrays.copyOf(starts, starts.length * 2);
                }
                tokens++;
                starts[tokens] = used;
            }
            int[] slots = new int[Integer.highestOneBit(tokens * 2) << 1];
            int mask = slots.length - 1;
            for (int rank = 0; rank < tokens; rank++) {
                int slot = hash(pool, starts[rank], starts[rank + 1]) & mask;
                while (slots[slot] != 0) {
                    slot = (slot + 1) & mask;
                }
                slots[slot] = rank + 1;
            }
            return new Ranks(Arrays.copyOf(pool, used), Arrays.copyOf(starts, tokens + 1), slots);
        }

        private static int sextet(byte c, int lineStart) {
            if (c >= 'A' && c <= 'Z') {
                return c - 'A';
            }
            if (c >= 'a' && c <= 'z') {
                return c - 'a' + 26;
            }
            if (c >= '0' && c <= '9') {
                return c - '0' + 52;
            }
            if (c == '+') {
                return 62;
            }
            if (c == '/') {
                return 63;
            }
            throw malformed(lineStart);
        }

        private static IllegalStateException malformed(int offset) {
            return new IllegalStateException("unexpected line in " + RANKS + " at byte " + offset);
        }
    }
}
