"""The dual_agent hidden event block (docs/runtime.md#the-hidden-event-block-dual_agent).

The visible reply comes first; the block starts at the marker ``[[EVENTS]]`` and runs to the end of the message. The
names inside are separated by commas, semicolons, white space or newlines, optionally bulleted (``-``, ``*``).

Streaming safety (docs/design.md#modes-hidden-block-never-visible): text is released as soon as it cannot be the start
of the marker, so at most ``len(MARKER) - 1`` characters are ever held back and no part of the marker, nor anything
after it, reaches a visible delta under any chunking.
"""

import re

MARKER = "[[EVENTS]]"
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]+)*")


class HiddenBlockParser:
    def __init__(self):
        self._held = ""
        self._block = []
        self._hidden = False
        self._finished = False

    def accept(self, delta):
        """Takes one content delta; returns the visible text to release now (maybe empty)."""
        if self._finished:
            raise ValueError("the parser has finished")
        if self._hidden:
            self._block.append(delta)
            return ""
        text = self._held + delta
        at = text.find(MARKER)
        if at >= 0:
            self._hidden = True
            self._block.append(text[at + len(MARKER):])
            self._held = ""
            return text[:at]
        keep = _held_suffix(text)
        self._held = text[len(text) - keep:] if keep else ""
        return text[:len(text) - keep]

    def finish(self):
        """Ends the stream: held characters that did not turn into the marker are visible after all."""
        self._finished = True
        rest = "" if self._hidden else self._held
        self._held = ""
        return rest

    @property
    def held(self):
        return len(self._held)

    @property
    def saw_block(self):
        return self._hidden

    def raw_block(self):
        return "".join(self._block)

    def names(self):
        """The block's event names in order (after finish)."""
        return _NAME.findall(self.raw_block())


def _held_suffix(text):
    """Length of the longest suffix of ``text`` that is a proper prefix of the marker."""
    for length in range(min(len(MARKER) - 1, len(text)), 0, -1):
        if text.endswith(MARKER[:length]):
            return length
    return 0
