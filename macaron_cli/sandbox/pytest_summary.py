"""Read what a pytest run says: how many passed and failed, and which tests broke where.

verify.py asks pytest (through PYTEST_ADDOPTS) for short tracebacks and a summary line
per failure, so this parses the plain text any pytest version prints.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_COUNT = re.compile(r"(\d+) (passed|failed|errors?|skipped|xfailed|xpassed|deselected)")
_SUMMARY_LINE = re.compile(r"^(?:=+ )?.*\b(?:passed|failed|errors?|no tests ran)\b.* in [\d.]+s")
_FAILED = re.compile(r"^(FAILED|ERROR) (\S+)(?: - (.*))?$")
_SECTION = re.compile(r"^_{3,} (.+?) _{3,}$")
_FRAME = re.compile(r"^[\w.][\w./-]*\.py:\d+: in ")
# How many "E …" lines of each failure reach the agent.
ASSERTION_LINES = 4


@dataclass
class FailedTest:
    name: str  # tests/test_api.py::test_add
    message: str  # the reason: "assert 2 == 3"
    lines: list[str] = field(default_factory=list)  # where it broke, then its "E" lines
    kind: str = "failed"  # "failed" (an assertion or exception in the test) or "error" (setup, collection)

    def to_dict(self) -> dict:
        return {"name": self.name, "kind": self.kind, "message": self.message, "lines": self.lines}


@dataclass
class PytestSummary:
    passed: int = 0
    failed: int = 0  # failures and errors together: both mean "not green"
    recognised: bool = False
    failures: list[FailedTest] = field(default_factory=list)


def parse(output: str) -> PytestSummary:
    summary = PytestSummary()
    lines = output.splitlines()
    for line in reversed(lines):
        if _SUMMARY_LINE.search(line.strip()):
            summary.recognised = True
            counts = {kind: int(n) for n, kind in _COUNT.findall(line)}
            summary.passed = counts.get("passed", 0)
            summary.failed = counts.get("failed", 0) + counts.get("error", 0) + counts.get("errors", 0)
            break
    details = _sections(lines)
    for line in lines:
        match = _FAILED.match(line.strip())
        if match:
            kind, name, message = match.groups()
            lines = details.get(name, details.get(name.split("::")[-1], []))
            errors = [line[1:].strip() for line in lines if line.startswith("E ")]
            # The summary line is cut to the terminal's width; the first E line is whole.
            if errors and (not message or message.endswith("...")):
                message = errors[0]
            summary.failures.append(FailedTest(name, (message or kind.lower()).strip(), lines, kind.lower()))
    return summary


def _sections(lines: list[str]) -> dict[str, list[str]]:
    """Per failure section ("____ test_add ____"): where in the app it broke, then its E lines.

    "Where" is the deepest frame with a path relative to the app (frames in the Python
    installation say nothing the agent can fix)."""
    found: dict[str, list[str]] = {}
    current: str | None = None
    frame: str | None = None
    errors: list[str] = []

    def close() -> None:
        if current is not None:
            found[current] = ([f"at {frame}"] if frame else []) + errors[:ASSERTION_LINES]

    for line in lines:
        header = _SECTION.match(line.strip())
        if header or line.startswith("="):
            close()
            current, frame, errors = None, None, []
            if header:
                current = header.group(1).replace("ERROR collecting ", "").replace("ERROR at setup of ", "").strip()
            continue
        if current is None:
            continue
        if line.startswith("E "):
            errors.append(line.rstrip())
        elif _FRAME.match(line):
            frame = line.strip().rstrip(":")
    close()
    return found
