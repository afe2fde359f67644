"""The draft phase: a local model writes the app's first version as whole files.

Weak local models cannot drive an agent's tool loop reliably, but they can print whole
files. So the model gets the brief and the template's files, and answers with

    ### FILE: static/app.js
    ```js
    …the whole file…
    ```

for every file it writes. macaron parses those blocks, drops anything cut short or aimed
outside the app (or at files the app must keep: manifest, git, private state, data), and
writes the rest. Verification and checkpoints are the pipeline's business.

The same call, given a verification report, is a fix round (`--local-only`), and given a
design direction, one of several variants (`--variants N`).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from macaron_cli.config import Settings
from macaron_cli.models.client import Endpoint, ModelClient, Usage

if TYPE_CHECKING:
    from macaron_cli.maker.brief import Brief

# Paths a draft may never write (the app's contract with macaron and the person's data).
PROTECTED = (".git", ".macaron", ".claude", "CLAUDE.md", "macaron.json", "static/macaron-tokens.css")
MAX_FILE_CHARS = 24_000  # bigger files are shown by name only: weak models rewrite them badly
CHARS_PER_TOKEN = 3  # conservative for code, so the prompt fits the context we asked for
DEFAULT_MAX_TOKENS = 8192

# Different enough to be worth comparing, each a sentence a small model can follow.
DESIGNS = [
    "clean and minimal: lots of white space, one column, quiet typography",
    "bold cards: big numbers and clear progress, friendly rounded shapes",
    "compact list for daily use: everything on one screen, quick entry at the top",
    "playful: warm colours from the accent, small emoji labels, gentle animation",
    "calm dark theme: dark background, soft contrast, the accent only for actions",
]

SYSTEM = """You are a careful web developer drafting a small personal mini-app.
You change an existing, working starter app so that it fits the person's brief.
Keep the app's structure: the same server, routes, test command and main element.

Answer with whole files only. For every file you create or change, write one line
`### FILE: <path relative to the app>` and then the complete file in one fenced code block.
Never abbreviate a file ("..." or "rest unchanged"): files you print replace the old ones.
Do not print files you leave unchanged. Never touch macaron.json, CLAUDE.md, .claude/,
.macaron/, static/macaron-tokens.css or data files. Write no Markdown files."""


@dataclass
class DraftFile:
    path: str
    content: str


@dataclass
class DraftOutcome:
    """What one draft (or local fix) call did and cost."""

    written: list[str] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)  # "path: why"
    usage: Usage = field(default_factory=Usage)
    model: str = ""
    endpoint: str = ""
    cost_usd: float = 0.0
    design: str | None = None

    @property
    def seconds(self) -> float:
        return self.usage.seconds


# ── the prompt ──────────────────────────────────────────────────────────────────────────
def entry_files(app_dir: Path) -> list[str]:
    """The files an app starts from: its page (index.html) and its server's main module
    (from the manifest's run command, e.g. `server.main:app` → server/main.py)."""
    found = [rel for rel in ("static/index.html", "index.html", "public/index.html") if (app_dir / rel).is_file()]
    try:
        run = json.loads((app_dir / "macaron.json").read_text(encoding="utf-8")).get("run") or []
    except (OSError, ValueError, AttributeError):
        run = []
    modules = [
        arg.split(":")[0] for arg in run if isinstance(arg, str) and re.fullmatch(r"[A-Za-z_][\w.]*:[\w.]+", arg)
    ]
    modules += [arg for arg in run if isinstance(arg, str) and arg.endswith(".py")]
    for module in modules or ["server.main", "main", "app"]:
        rel = module if module.endswith(".py") else module.replace(".", "/") + ".py"
        if (app_dir / rel).is_file() and rel not in found:
            found.append(rel)
            break
    return found


def app_files(
    app_dir: Path, budget_chars: int, tracked_in: Path | None = None
) -> tuple[list[tuple[str, str]], list[str]]:
    """(path, text) of the app's tracked text files that fit the budget, and the names of the rest.

    The entry files (entry_files) are always shown, first and whole: a fix round that
    cannot see the page or the server's main module guesses at both. The rest fills what
    is left of the budget. `tracked_in`: the git repo whose file list to use when
    `app_dir` is a plain copy of it.
    """
    listed = subprocess.run(["git", "-C", str(tracked_in or app_dir), "ls-files", "-z"], capture_output=True, text=True)
    paths = [p for p in listed.stdout.split("\0") if p] if listed.returncode == 0 else []
    entries = [rel for rel in entry_files(app_dir) if rel in paths or not paths]
    # The UI and the server first: they are what a design changes; tests last.
    paths.sort(
        key=lambda p: (p not in entries, p.startswith("tests/"), not p.startswith(("static/", "server/", "src/")), p)
    )
    shown, named, used = [], [], 0
    protected = _protected(app_dir)
    for rel in paths:
        if _is_protected(rel, protected):
            continue
        try:
            text = (app_dir / rel).read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # binary (icons, fonts) or vanished
        if rel not in entries and (len(text) > MAX_FILE_CHARS or used + len(text) > budget_chars):
            named.append(rel)
            continue
        shown.append((rel, text))
        used += len(text)
    return shown, named


def prompt_budget_chars(max_tokens: int) -> int:
    """How much of the app fits in the prompt beside the answer."""
    from macaron_cli.models.engines import context_length

    return max(4_000, (context_length() - max_tokens) * CHARS_PER_TOKEN - 6_000)


def build_messages(
    brief: str,
    files: list[tuple[str, str]],
    omitted: list[str],
    *,
    feedback: str | None = None,
    design: str | None = None,
) -> list[dict]:
    parts = ["# The brief\n", brief.strip(), "\n\n# The app as it is now\n"]
    for rel, text in files:
        parts.append(f"\n### FILE: {rel}\n{_fence(text)}{_lang(rel)}\n{text.rstrip()}\n{_fence(text)}\n")
    if omitted:
        parts.append("\nAlso in the app (not shown; leave them alone): " + ", ".join(omitted) + "\n")
    if design:
        parts.append(f"\n# Design direction\nMake the design {design}.\n")
    if feedback:
        parts.append(
            "\n# What verification found\nThe app was tested and opened in a browser. Fix these "
            f"problems, changing as little as you can:\n{feedback.strip()}\n"
        )
        parts.append("\nNow print every file you change, whole, in the format above.")
    else:
        parts.append("\nNow adapt the app to the brief: print every file you change, whole, in the format above.")
    return [{"role": "user", "content": "".join(parts)}]


def _fence(text: str) -> str:
    """A fence longer than any backtick run inside the file, so the file cannot close it."""
    longest = max((len(m) for m in re.findall(r"`{3,}", text)), default=2)
    return "`" * max(3, longest + 1)


def _lang(rel: str) -> str:
    return {
        ".py": "python",
        ".js": "js",
        ".html": "html",
        ".css": "css",
        ".json": "json",
        ".ts": "ts",
        ".toml": "toml",
        ".txt": "text",
    }.get(PurePosixPath(rel).suffix, "")


# ── parsing the answer ──────────────────────────────────────────────────────────────────
_HEADER = re.compile(
    r"^\s*(?:#{1,6}\s*)?(?:\*\*)?\s*(?:file(?:name)?\s*[:=]\s*)?`?(?P<path>[\w./-]+\.[\w]+)`?\s*(?:\*\*)?:?\s*$",
    re.IGNORECASE,
)
_FENCE = re.compile(r"^(?P<fence>`{3,}|~{3,})\s*(?P<info>[^`\s]*)\s*(?P<rest>.*)$")
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL)


def parse_files(text: str) -> list[DraftFile]:
    """Whole files from fenced blocks, each named by a header line just above it or by the
    fence's info string (```static/app.js). A block left open (the answer was cut short)
    is dropped: a half file is worse than the old one. Later copies of a path win."""
    text = _THINK.sub("", text)
    if "<think>" in text:  # reasoning that never closed: nothing after it is an answer
        text = text.split("<think>")[0]
    lines = text.splitlines()
    files: dict[str, str] = {}
    pending: str | None = None  # a path named on a line shortly before the fence
    since_header = 0
    i = 0
    while i < len(lines):
        line = lines[i]
        opening = _FENCE.match(line.strip())
        if opening:
            fence = opening["fence"]
            path = _path_in_info(opening["info"], opening["rest"]) or (pending if since_header <= 2 else None)
            end = next(
                (
                    j
                    for j in range(i + 1, len(lines))
                    if lines[j].strip().startswith(fence[0] * len(fence)) and lines[j].strip().strip(fence[0]) == ""
                ),
                None,
            )
            if end is None:
                break  # cut short: drop the unfinished file
            if path:
                files[path] = "\n".join(lines[i + 1 : end]) + "\n"
            pending, i = None, end + 1
            continue
        header = _HEADER.match(line)
        if header:
            pending, since_header = header["path"].removeprefix("./"), 0
        elif line.strip():
            since_header += 1
        i += 1
    return [DraftFile(path, content) for path, content in files.items()]


def _path_in_info(info: str, rest: str) -> str | None:
    """```static/app.js or ```js static/app.js or ```html title="index.html"."""
    for candidate in (info, rest.strip().strip('"').removeprefix("title=").strip('"')):
        if candidate and ("/" in candidate or re.fullmatch(r"[\w.-]+\.\w+", candidate)) and "." in candidate:
            return candidate.removeprefix("./")
    return None


# ── applying it ─────────────────────────────────────────────────────────────────────────
def _protected(app_dir: Path) -> tuple[str, ...]:
    """PROTECTED plus the app's own data files (from its manifest)."""
    try:
        manifest = json.loads((app_dir / "macaron.json").read_text(encoding="utf-8"))
        data = tuple(str(p).strip("/") for p in manifest.get("data_files", []))
    except (OSError, ValueError):
        data = ()
    return PROTECTED + data + ("data",)


def _is_protected(rel: str, protected: tuple[str, ...]) -> bool:
    return any(rel == p or rel.startswith(p.rstrip("/") + "/") for p in protected)


def apply_files(app_dir: Path, files: list[DraftFile]) -> tuple[list[str], list[str]]:
    """Write the files that stay inside the app and off its protected paths.

    Returns (written paths, "path: reason" for each refused one).
    """
    root = app_dir.resolve()
    protected = _protected(app_dir)
    written, rejected = [], []
    for f in files:
        rel = f.path.replace("\\", "/").removeprefix("./")
        pure = PurePosixPath(rel)
        if pure.is_absolute() or ".." in pure.parts or not rel:
            rejected.append(f"{f.path}: outside the app")
            continue
        if _is_protected(rel, protected):
            rejected.append(f"{f.path}: macaron keeps this file")
            continue
        target = (root / rel).resolve()
        if not target.is_relative_to(root):  # a symlink inside the app pointing out
            rejected.append(f"{f.path}: outside the app")
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(target.name + ".macaron-tmp")
        tmp.write_text(f.content, encoding="utf-8")
        os.replace(tmp, target)
        written.append(rel)
    return written, rejected


# ── one call ────────────────────────────────────────────────────────────────────────────
def draft(
    app_dir: Path,
    brief: Brief,
    endpoint: Endpoint,
    settings: Settings,
    *,
    feedback: str | None = None,
    design: str | None = None,
    max_tokens: int | None = None,
    temperature: float | None = None,
    client: ModelClient | None = None,
    tracked_in: Path | None = None,
) -> DraftOutcome:
    """Ask the local model for the app's files (a draft, a fix, or a design variant) and apply them.

    The brief goes in as `brief.text_for(destination)`, the destination being the privacy
    gate's decision about `endpoint`: a brief cleared for somewhere else raises before any
    request is made."""
    from macaron_cli import privacy
    from macaron_cli.models.prices import call_cost

    brief_text = brief.text_for(privacy.draft(endpoint.url, settings))
    max_tokens = max_tokens or int(os.environ.get("MACARON_DRAFT_MAX_TOKENS") or DEFAULT_MAX_TOKENS)
    files, omitted = app_files(app_dir, prompt_budget_chars(max_tokens), tracked_in)
    messages = build_messages(brief_text, files, omitted, feedback=feedback, design=design)
    own_client = client is None
    client = client or endpoint.client()
    started = time.perf_counter()
    try:
        text, usage = client.complete(SYSTEM, messages, max_tokens=max_tokens, temperature=temperature)
    finally:
        if own_client:
            client.close()
    usage.seconds = usage.seconds or time.perf_counter() - started
    written, rejected = apply_files(app_dir, parse_files(text))
    if not written and not rejected:
        rejected.append("(answer): no whole files in fenced blocks were found")
    _save_answer(app_dir, text)
    return DraftOutcome(
        written=written,
        rejected=rejected,
        usage=usage,
        model=client.model,
        endpoint=endpoint.url,
        cost_usd=call_cost(endpoint.url, client.model, usage, settings),
        design=design,
    )


def _save_answer(app_dir: Path, text: str) -> None:
    """Keep the raw answer privately, to see what the model said when a draft goes wrong."""
    private = app_dir / ".macaron"
    if private.is_dir():
        (private / "draft-answer.md").write_text(text, encoding="utf-8")
