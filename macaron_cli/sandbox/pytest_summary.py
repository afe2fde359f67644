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
# How many "E …" lines of each failure reach the agent.
ASSERTION_LINES = 4


@dataclass
class FailedTest:
    name: str       # tests/test_api.py::test_add
    message: str    # the summary's reason: "assert 2 == 3"
    lines: list[str] = field(default_factory=list)  # the "E" lines and the failing file:line

    def to_dict(self) -> dict:
        return {"name": self.name, "message": self.message, "lines": self.lines}


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
            test = FailedTest(name=name, message=(message or kind.lower()).strip())
            test.lines = details.get(name.split("::")[-1], details.get(name, []))[:ASSERTION_LINES + 1]
            summary.failures.append(test)
    return summary


def _sections(lines: list[str]) -> dict[str, list[str]]:
    """Per failure section ("____ test_add ____"): its E lines, then where it failed."""
    found: dict[str, list[str]] = {}
    current = None
    for line in lines:
        header = _SECTION.match(line.strip())
        if header:
            current = header.group(1).replace("ERROR collecting ", "").strip()
            found[current] = []
            continue
        if line.startswith("=") and current:
            current = None
        if current is None:
            continue
        bucket = found[current]
        if line.startswith("E ") and sum(1 for l in bucket if l.startswith("E ")) < ASSERTION_LINES:
            bucket.append(line.rstrip())
        elif re.match(r"^[\w./-]+\.py:\d+: ", line) and not any(l.startswith("at ") for l in bucket):
            bucket.append("at " + line.strip())
    return found
