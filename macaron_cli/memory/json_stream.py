"""The items of a JSON file's top-level array, one at a time, in memory bounded by the
largest item rather than the file (an export of years of chats is hundreds of MB)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import IO, Any

CHUNK = 1 << 20
# How close to the end of what was read a decoding error may sit and still mean "read
# more": a value cut by the chunk's end fails there ("tr|ue", "\\u00|e9").
_CUT = 16
_SPACE = " \t\r\n"


class BrokenJson(ValueError):
    """The file is not a JSON array, or breaks off; `at` is the character where."""

    def __init__(self, what: str, at: int):
        super().__init__(f"{what} at character {at:,}")
        self.at = at


class ArrayReader:
    """Iterate the items; `consumed` is how many characters were read so far (for progress)."""

    def __init__(self, stream: IO[str]):
        self.stream = stream
        self.consumed = 0
        self._buffer = ""
        self._offset = 0  # characters of the file before the buffer
        self._ended = False

    def _more(self, size: int = 0) -> bool:
        if self._ended:
            return False
        chunk = self.stream.read(size or CHUNK)  # CHUNK read when called, not when defined
        if not chunk:
            self._ended = True
            return False
        self._buffer += chunk
        self.consumed += len(chunk)
        return True

    def _skip_space(self, at: int) -> int:
        while True:
            while at < len(self._buffer) and self._buffer[at] in _SPACE:
                at += 1
            if at < len(self._buffer) or not self._more():
                return at

    def first_char(self) -> str:
        """The first character that is not blank ("" for a blank file)."""
        at = self._skip_space(0)
        return self._buffer[at] if at < len(self._buffer) else ""

    def __iter__(self) -> Iterator[Any]:
        decoder = json.JSONDecoder()
        at = self._skip_space(0)
        if at >= len(self._buffer) or self._buffer[at] != "[":
            raise BrokenJson("expected a JSON array ([…])", self._offset + at)
        at, first = at + 1, True
        while True:
            at = self._skip_space(at)
            if at >= len(self._buffer):
                raise BrokenJson("the array breaks off", self._offset + at)
            if self._buffer[at] == "]":
                if self._skip_space(at + 1) < len(self._buffer):
                    raise BrokenJson("more after the array's end", self._offset + at + 1)
                return
            if not first:
                if self._buffer[at] != ",":
                    raise BrokenJson("expected , between items", self._offset + at)
                at = self._skip_space(at + 1)
            first = False
            # what is decoded is dropped: the buffer holds one item at a time
            self._offset, self._buffer, at = self._offset + at, self._buffer[at:], 0
            while True:
                try:
                    item, at = decoder.raw_decode(self._buffer, 0)
                    break
                except json.JSONDecodeError as error:
                    cut = error.pos >= len(self._buffer) - _CUT or error.msg.startswith("Unterminated string")
                    # grows the read with the item: a large item costs a few reads, not one per chunk
                    if not cut or not self._more(max(CHUNK, len(self._buffer))):
                        raise BrokenJson(error.msg, self._offset + error.pos) from None
            yield item
