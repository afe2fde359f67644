"""The result of verifying an app: what a person sees, and what the coding agent is told."""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field

# How much of a failing command's own output goes into the agent's feedback.
OUTPUT_TAIL_LINES = 15


@dataclass
class VerifyReport:
    ok: bool = False
    tests_ok: bool = False
    tests_passed: int = 0
    tests_failed: int = 0
    opened: bool = False
    http_status: int | None = None
    console_errors: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)
    main_rendered: bool = False
    # Characters the page shows as empty boxes (no installed font has them), "U+3042 あ".
    missing_glyphs: list[str] = field(default_factory=list)
    # Text out of the page's layout: outside the cards and unstyled, or past a card's edge.
    layout: list[str] = field(default_factory=list)
    screenshot: str | None = None
    # What the page shows once drawn: {"text", "fields": [{label, placeholder, value, options}],
    # "lang"}; None where it could not be read (maker/page_judge.py says so rather than judge).
    page: dict | None = None
    problems: list[str] = field(default_factory=list)
    # Detail behind the problems: failing tests with their assertion lines, the end of the
    # test run's or the server's output when that is all there is to go on.
    failing_tests: list[dict] = field(default_factory=list)
    tests_output: str = ""
    server_output: str = ""
    main_selector: str = "#app"
    backend: str = ""
    seconds: float = 0.0
    timings: dict = field(default_factory=dict)
    tests_input: str = ""  # the fingerprint of what the tests read (sandbox/test_inputs.py)
    tests_reused: bool = False  # the tests' last passing run on the same inputs stands

    def to_dict(self) -> dict:
        return asdict(self)

    def summary(self) -> str:
        """One line for a person."""
        tests = f"{self.tests_passed} passed" + (f", {self.tests_failed} failed" if self.tests_failed else "")
        if self.ok:
            return f"tests {tests}; the app opens ({self.main_selector} rendered, no console errors)"
        return (
            f"tests {tests}; "
            + ("the app opens" if self.opened else "the app does not open")
            + f" — {len(self.problems)} problem(s)"
        )

    def feedback(self) -> str:
        """What broke, exactly and briefly, for the coding agent to fix."""
        if self.ok:
            return f"Verified: {self.summary()}."
        out = ["Verification failed. Fix these, then make sure the tests pass and the page opens:"]
        out += [f"- {p}" for p in self.problems]
        for test in self.failing_tests:
            if test.get("lines"):
                out.append(f"{test['name']}:")
                out += [f"    {line}" for line in test["lines"]]
        if self.tests_output and not self.failing_tests and not self.tests_ok:
            out.append("End of the test output:")
            out += [f"    {line}" for line in _tail(self.tests_output)]
        # The server's own words when it did not start or raised (a 500, a failing API call).
        if self.server_output and not self.opened and (self.http_status is None or "Traceback" in self.server_output):
            out.append("End of the server's output:")
            out += [f"    {line}" for line in _tail(self.server_output)]
        return "\n".join(out)


def _tail(text: str) -> list[str]:
    """The end of a command's output; of a Python traceback, only the app's own frames and the error."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    starts = [i for i, line in enumerate(lines) if line.startswith("Traceback (most recent call last)")]
    if not starts:
        return lines[-OUTPUT_TAIL_LINES:]
    trace, kept = lines[starts[-1] :], []
    for i, line in enumerate(trace):
        frame = re.match(r'\s*File "([^"]+)", line \d+', line)
        if frame and not frame.group(1).startswith(("/", "<")):
            kept.append(line)
            if i + 1 < len(trace) and not re.match(r'\s*File "', trace[i + 1]):
                kept.append(trace[i + 1])
    # The error itself: the first line after the frames that is not indented.
    error = next((line for line in trace[1:] if not line.startswith((" ", "\t"))), "")
    return [trace[0], *kept, error][-OUTPUT_TAIL_LINES:]
