"""docs/design.md#modes-hidden-block-never-visible: no part of the block ever reaches a visible delta, under any
chunking, and the parser holds back at most a marker's length of text."""

import itertools
import random
import unittest

import _path  # noqa: F401
from agentlab_wire.hidden_block import MARKER, HiddenBlockParser


def feed(chunks):
    parser = HiddenBlockParser()
    visible = []
    max_held = 0
    for chunk in chunks:
        visible.append(parser.accept(chunk))
        max_held = max(max_held, parser.held)
    visible.append(parser.finish())
    return visible, parser, max_held


def chunkings(text, cuts):
    """Every way to cut ``text`` at ``cuts`` positions."""
    for points in itertools.combinations(range(1, len(text)), cuts):
        bounds = (0,) + points + (len(text),)
        yield [text[a:b] for a, b in zip(bounds, bounds[1:])]


class HiddenBlockTest(unittest.TestCase):
    REPLY = "Okay! [bracket] and [[x]] stay.\n[[EVENTS]] device.volume.adjust, knowledge_web_search"

    def test_every_chunking_with_up_to_three_cuts(self):
        expected = "Okay! [bracket] and [[x]] stay.\n"
        seen = 0
        for cuts in (0, 1, 2, 3):
            for chunks in chunkings(self.REPLY, cuts) if cuts < 3 else itertools.islice(
                    chunkings(self.REPLY, cuts), 0, None, 7):
                visible, parser, max_held = feed(chunks)
                self.assertEqual(expected, "".join(visible), chunks)
                for delta in visible:   # no delta carries any part of the marker or the block
                    self.assertNotIn("[[E", delta)
                    self.assertNotIn("volume", delta)
                self.assertLessEqual(max_held, len(MARKER) - 1)
                self.assertEqual(["device.volume.adjust", "knowledge_web_search"], parser.names())
                seen += 1
        self.assertGreater(seen, 10000)

    def test_marker_split_across_chunks_never_leaks(self):
        for i in range(1, len(MARKER)):
            visible, parser, _ = feed(["Hi.\n" + MARKER[:i], MARKER[i:] + " a.b"])
            self.assertEqual("Hi.\n", "".join(visible))
            self.assertTrue(parser.saw_block)
            self.assertEqual(["a.b"], parser.names())

    def test_one_character_at_a_time(self):
        visible, parser, max_held = feed(list(self.REPLY))
        self.assertLessEqual(max_held, len(MARKER) - 1)
        self.assertNotIn("[[EVENTS", "".join(visible))
        self.assertEqual(2, len(parser.names()))

    def test_random_chunkings_hold_back_at_most_nine(self):
        rng = random.Random(31)
        for _ in range(2000):
            text = "".join(rng.choice("ab[]E VNTS.\n") for _ in range(rng.randint(0, 40)))
            full = text + MARKER + " x.y; z\n- w.v"
            cuts = sorted(rng.sample(range(1, len(full)), rng.randint(0, min(8, len(full) - 1))))
            chunks = [full[a:b] for a, b in zip([0] + cuts, cuts + [len(full)])]
            visible, parser, max_held = feed(chunks)
            self.assertEqual(full[:full.index(MARKER)], "".join(visible))
            self.assertLessEqual(max_held, 9)
            self.assertEqual(["x.y", "z", "w.v"], parser.names())

    def test_held_brackets_released_at_the_end(self):
        visible, parser, _ = feed(["Wrap the page name in double brackets: [", "["])
        self.assertEqual("Wrap the page name in double brackets: [[", "".join(visible))
        self.assertFalse(parser.saw_block)
        self.assertEqual([], parser.names())

    def test_text_without_brackets_is_released_at_once(self):
        parser = HiddenBlockParser()
        self.assertEqual("Hello there", parser.accept("Hello there"))
        self.assertEqual(0, parser.held)
        self.assertEqual("see ", parser.accept("see [["))
        self.assertEqual(2, parser.held)

    def test_separators_and_bullets(self):
        _, parser, _ = feed(["ok\n[[EVENTS]]\n- a.b\n* c_d; e.f g.h,i.j"])
        self.assertEqual(["a.b", "c_d", "e.f", "g.h", "i.j"], parser.names())


if __name__ == "__main__":
    unittest.main()
