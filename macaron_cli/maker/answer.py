"""The one reader of a model's answer for whole files. It is strict on purpose.

A file is only this, and nothing else:

    ### FILE: static/app.js
    ```js
    …the whole file…
    ```

a header line (`FILE:` in any case after one to six `#`, the path bare or in backticks),
then on the next non-blank line an opening fence (three or more ` or ~), the file, and a
closing fence of the same character, at least as long, alone on its line. A bare path
line, a path in a fence's info string, a bold file name: talk, never a file, so an echo
of the prompt or of a file list cannot become one. A block that never closes is dropped
(the answer was cut, or the model lost the thread); so is one a later header interrupts
(a `### FILE:` line followed by a fence inside an open block means the block never
closed). Reasoning (<think>…</think>, or a <think> that never closes and all after it) begun
before the first file is not answer; after the first file, "<think>" is a file's text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_HEADER = re.compile(r"^ {0,3}#{1,6}[ \t]*FILE:[ \t]*`?(?P<path>[\w.@+/-]+)`?[ \t]*$", re.IGNORECASE)
_OPEN = re.compile(r"^ {0,3}(?P<fence>`{3,}(?=[^`]*$)|~{3,})")
_CLOSE = re.compile(r"^ {0,3}(?P<fence>`{3,}|~{3,})[ \t]*$")
_FIRST_HEADER = re.compile(_HEADER.pattern, re.IGNORECASE | re.MULTILINE)


@dataclass
class AnswerFile:
    path: str
    content: str


@dataclass
class Answer:
    files: list[AnswerFile] = field(default_factory=list)
    dropped: list[dict] = field(default_factory=list)  # {"path", "why"} of headers that gave no file


def read_answer(text: str) -> Answer:
    """The whole files in `text` (a later copy of a path wins) and the headers that gave none."""
    lines = _without_reasoning(text).splitlines()
    files: dict[str, str] = {}
    dropped: list[dict] = []
    i = 0
    while i < len(lines):
        header = _HEADER.match(lines[i])
        if not header:
            i += 1
            continue
        path = header["path"].removeprefix("./")
        start = _next_filled(lines, i + 1)
        opening = _OPEN.match(lines[start]) if start < len(lines) else None
        if not opening:
            dropped.append({"path": path, "why": "no fenced block followed its ### FILE line"})
            i = start
            continue
        end, interrupted = _closing(lines, start + 1, opening["fence"])
        if end is None:
            why = "its block did not close before the next ### FILE" if interrupted else "its block never closed"
            dropped.append({"path": path, "why": why + " (a half file is never written)"})
            if not interrupted:
                break
            i = interrupted
            continue
        files.pop(path, None)  # a later copy wins, in the later place
        files[path] = "".join(line + "\n" for line in lines[start + 1 : end])
        i = end + 1
    return Answer([AnswerFile(p, c) for p, c in files.items()], dropped)


def _without_reasoning(text: str) -> str:
    """`text` without the reasoning begun before its first file: a header inside it is no file."""
    while (start := text.find("<think>")) >= 0:
        first_file = _FIRST_HEADER.search(text)
        if first_file and first_file.start() < start:
            return text
        end = text.find("</think>", start)
        if end < 0:  # never closed: nothing after it is an answer
            return text[:start]
        text = text[:start] + text[end + len("</think>") :]
    return text


def _next_filled(lines: list[str], i: int) -> int:
    while i < len(lines) and not lines[i].strip():
        i += 1
    return i


def _closing(lines: list[str], i: int, fence: str) -> tuple[int | None, int | None]:
    """(the closing fence's line, None), or (None, the line of a header that interrupts the
    block), or (None, None) when the answer ends first."""
    for j in range(i, len(lines)):
        close = _CLOSE.match(lines[j])
        if close and close["fence"][0] == fence[0] and len(close["fence"]) >= len(fence):
            return j, None
        if _HEADER.match(lines[j]):
            after = _next_filled(lines, j + 1)
            if after < len(lines) and _OPEN.match(lines[after]):
                return None, j
    return None, None
