"""The local model writes an app's files whole: a draft, a fix, or a design variant.

Weak local models cannot drive an agent's tool loop reliably, but they can print whole
files. So the model gets the brief and the template's files, and answers with

    ### FILE: static/app.js
    ```js
    …the whole file…
    ```

for every file it writes. macaron reads those blocks (answer.py, strictly), drops anything
cut short or aimed outside the app (or at files the app must keep: manifest, git, private
state, data), and writes the rest. The prompt and the answer are sized to the server's own
context (models/limits.py). What was written, skipped and why is the outcome; verification
and checkpoints are the pipeline's business.

The same call, given a verification report, is a fix round (`--local-only`), and given a
design direction, one of several variants (`--variants N`).
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from macaron_cli.config import Settings
from macaron_cli.maker.answer import AnswerFile, read_answer
from macaron_cli.manifest import MANIFEST
from macaron_cli.models.client import Endpoint, ModelClient, Usage
from macaron_cli.models.failures import ContextExceeded
from macaron_cli.models.limits import ServerLimits, answer_room, split_context, wanted_answer
from macaron_cli.untrusted import git as untrusted_git

if TYPE_CHECKING:
    from macaron_cli.maker.brief import Brief

# Paths a draft may never write (the app's contract with macaron and the person's data).
PROTECTED = (".git", ".macaron", ".claude", "CLAUDE.md", MANIFEST, "static/macaron-tokens.css", "static/units.json")
MAX_FILE_CHARS = 24_000  # bigger files are shown by name only: weak models rewrite them badly
FORMAT = "each file as a `### FILE: path` line, then the whole file in one fenced code block that closes"

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


__all__ = ["AnswerFile", "LocalOutcome", "apply_files", "ask_local_model"]


@dataclass
class LocalOutcome:
    """What one draft (or local fix) call did and cost, and what the person should know."""

    written: list[str] = field(default_factory=list)
    skipped: list[dict] = field(default_factory=list)  # {"path", "why"}
    notes: list[str] = field(default_factory=list)  # about the answer as a whole (cut, no files)
    usage: Usage = field(default_factory=Usage)
    model: str = ""
    endpoint: str = ""
    cost_usd: float = 0.0
    design: str | None = None
    max_tokens: int = 0
    limits: ServerLimits | None = None

    @property
    def seconds(self) -> float:
        return self.usage.seconds

    def problem(self) -> str | None:
        """Why the answer gave the app nothing, for the person and the next round; None when it did."""
        if self.written:
            return None
        return "; ".join(self.notes) or "no whole files were found in the answer"


# ── the prompt ──────────────────────────────────────────────────────────────────────────
def entry_files(app_dir: Path) -> list[str]:
    """The files an app starts from: its page (index.html) and its server's main module
    (from macaron's pinned run command, e.g. `server.main:app` → server/main.py)."""
    from macaron_cli.apps import pinned

    found = [rel for rel in ("static/index.html", "index.html", "public/index.html") if (app_dir / rel).is_file()]
    run = pinned(app_dir).run or ()
    modules = [arg.split(":")[0] for arg in run if re.fullmatch(r"[A-Za-z_][\w.]*:[\w.]+", arg)]
    modules += [arg for arg in run if arg.endswith(".py")]
    for module in modules or ["server.main", "main", "app"]:
        rel = module if module.endswith(".py") else module.replace(".", "/") + ".py"
        if (app_dir / rel).is_file() and rel not in found:
            found.append(rel)
            break
    return found


CODE = (".js", ".mjs", ".ts", ".jsx", ".tsx", ".css", ".html", ".py")
CODE_DIRS = ("static/", "server/", "src/", "public/")


def _rank(rel: str, text: str, entries: list[str], runtime) -> int | None:
    """Which files the model must see first: the app's own UI and server code (its page
    and main module first), then its own data (strings, settings), then tests, then the
    shared runtime; None for files never shown whole (configuration, vendored libraries,
    notes): the model is told their names only."""
    name = PurePosixPath(rel).name
    if "/vendor/" in f"/{rel}" or name.startswith(".") or len(text) > MAX_FILE_CHARS:
        return None
    if rel.startswith("tests/") or name.startswith("test_") or name == "conftest.py":
        return 4 if not runtime(rel, text) else None
    if not rel.endswith((*CODE, ".json")):
        return None  # .gitignore, pytest.ini, requirements.txt, README.md, LICENSE …
    if runtime(rel, text):
        return 5  # the same in every app (templates/_shared): shown only when there is room
    if rel in entries:
        return 0
    if rel.endswith(CODE):
        return 1 if rel.startswith(CODE_DIRS) or "/" not in rel else 2
    return 3


def _runtime_check():
    """Whether a file is the shared runtime, byte for byte (templates/_shared)."""
    from macaron_cli.resources import SHARED, templates_dir

    shared = templates_dir() / SHARED

    def runtime(rel: str, text: str) -> bool:
        try:
            return (shared / rel).read_text(encoding="utf-8") == text
        except (OSError, UnicodeDecodeError):
            return False

    return runtime


def app_files(
    app_dir: Path, budget_chars: int, tracked_in: Path | None = None
) -> tuple[list[tuple[str, str]], list[str]]:
    """(path, text) of the files the model should see, most needed first, within the
    budget; and the names of the rest. `tracked_in`: the git repo whose file list to use
    when `app_dir` is a plain copy of it."""
    listed = untrusted_git.run(tracked_in or app_dir, "ls-files", "-z", capture_output=True, text=True)
    paths = [p for p in listed.stdout.split("\0") if p] if listed.returncode == 0 else []
    entries, runtime, protected = entry_files(app_dir), _runtime_check(), _protected(app_dir)
    ranked, named = [], []
    for rel in paths:
        if _is_protected(rel, protected):
            continue
        try:
            text = (app_dir / rel).read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # binary (icons, fonts) or vanished
        rank = _rank(rel, text, entries, runtime)
        if rank is None:
            named.append(rel)
        else:
            ranked.append((rank, entries.index(rel) if rel in entries else 0, rel, text))
    shown, used = [], 0
    for _, _, rel, text in sorted(ranked):
        # The entry files are always shown, whole: a round that cannot see the page or the
        # server's main module guesses at both. The rest fills what is left of the budget.
        if rel not in entries and used + len(text) > budget_chars:
            named.append(rel)
            continue
        shown.append((rel, text))
        used += len(text)
    return shown, sorted(named)


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
        parts.append(f"\nNow print every file you change, whole: {FORMAT}.")
    else:
        parts.append(f"\nNow adapt the app to the brief: print every file you change, whole: {FORMAT}.")
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


# ── applying it ─────────────────────────────────────────────────────────────────────────
def _protected(app_dir: Path) -> tuple[str, ...]:
    """PROTECTED plus the app's own data files (macaron's pinned ones)."""
    from macaron_cli.apps import pinned

    return PROTECTED + tuple(pinned(app_dir).data_files) + ("data",)


def _is_protected(rel: str, protected: tuple[str, ...]) -> bool:
    return any(rel == p or rel.startswith(p.rstrip("/") + "/") for p in protected)


def apply_files(app_dir: Path, files: list[AnswerFile]) -> tuple[list[str], list[dict]]:
    """Write the files that stay inside the app, off its protected paths, and differ from
    what is there (an echo of a file as it was changes nothing and is not a write).

    Returns (written paths, {"path", "why"} for each one not written).
    """
    root = app_dir.resolve()
    protected = _protected(app_dir)
    written: list[str] = []
    skipped: list[dict] = []
    for f in files:
        rel = f.path.replace("\\", "/").removeprefix("./")
        pure = PurePosixPath(rel)
        target = (root / rel).resolve()
        if pure.is_absolute() or ".." in pure.parts or not rel or not target.is_relative_to(root):
            why = "outside the app"  # `..`, an absolute path, or a symlink inside the app pointing out
        elif _is_protected(rel, protected):
            why = "macaron keeps this file"
        elif target.is_dir():
            why = "a folder, not a file"
        elif target.is_file() and target.read_text(encoding="utf-8", errors="replace") == f.content:
            why = "unchanged: printed as it already was"
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_name(target.name + ".macaron-tmp")
            tmp.write_text(f.content, encoding="utf-8")
            os.replace(tmp, target)
            written.append(rel)
            continue
        skipped.append({"path": f.path, "why": why})
    return written, skipped


# ── one call ────────────────────────────────────────────────────────────────────────────
def ask_local_model(
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
) -> LocalOutcome:
    """Ask the local model for the app's files (a draft, a fix, or a design variant) and apply them.

    The brief goes in as `brief.text_for(destination)`, the destination being the privacy
    gate's decision about `endpoint`: a brief cleared for somewhere else raises before any
    request is made. The prompt and max_tokens fit the server's context; when the server
    refuses a request as too long for a context smaller than assumed, it is fitted to the
    size the refusal names and sent once more."""
    from macaron_cli import privacy
    from macaron_cli.models.limits import assumed, read_limits
    from macaron_cli.models.prices import call_cost

    brief_text = brief.text_for(privacy.local_model(endpoint.url, settings))
    wanted = max_tokens or wanted_answer()
    own_client = client is None
    client = client or endpoint.client()
    notes: list[str] = []
    started = time.perf_counter()
    try:
        limits = read_limits(client, settings)

        def ask(limits: ServerLimits) -> tuple[str, Usage, int]:
            messages = _prompt(app_dir, brief_text, limits, wanted, feedback, design, tracked_in)
            room = answer_room(limits, wanted, len(SYSTEM) + sum(len(m["content"]) for m in messages))
            text, usage = client.complete(SYSTEM, messages, max_tokens=room, temperature=temperature)
            return text, usage, room

        try:
            try:
                text, usage, room = ask(limits)
            except ContextExceeded as refused:
                if not refused.context or refused.context >= limits.context:
                    raise
                notes.append(
                    f"the server's context is {refused.context:,} tokens, not the {limits.context:,} macaron "
                    f"assumed: the prompt was fitted again (set MACARON_DRAFT_CONTEXT={refused.context})"
                )
                limits = assumed(refused.context)
                text, usage, room = ask(limits)
        except ContextExceeded as refused:  # fitted to the context it names, and still too long
            raise ContextExceeded(
                client.base_url, refused.context or limits.context, refused.prompt_tokens, sized=True
            ) from None
    finally:
        if own_client:
            client.close()
    usage.seconds = time.perf_counter() - started  # the whole call: limits, a refused try, the answer
    answer = read_answer(text)
    written, skipped = apply_files(app_dir, answer.files)
    skipped = answer.dropped + skipped
    if usage.cut:
        notes.append(cut_note(usage, room, limits, wanted))
    if not written:
        notes.append(_nothing_note(text, answer.files, skipped))
    _save_answer(app_dir, text)
    return LocalOutcome(
        written=written,
        skipped=skipped,
        notes=notes,
        usage=usage,
        model=client.model,
        endpoint=endpoint.url,
        cost_usd=call_cost(endpoint.url, client.model, usage, settings),
        design=design,
        max_tokens=room,
        limits=limits,
    )


PROMPT_WORDS = 1_500  # the prompt's own words around the brief, the files and the report


def _prompt(
    app_dir: Path,
    brief_text: str,
    limits: ServerLimits,
    wanted: int,
    feedback: str | None,
    design: str | None,
    tracked_in: Path | None,
) -> list[dict]:
    """The messages, sized to the context: the brief, the report (its start, which names the problems, when
    all of it does not fit), then the files most needed, as many as the context holds."""
    _, room = split_context(limits, wanted, len(SYSTEM) + len(brief_text) + PROMPT_WORDS)
    if feedback and len(feedback) > room:
        feedback = feedback[: max(0, room - 80)] + "\n[… the rest is left out to fit the model's context]"
    files, omitted = app_files(app_dir, max(0, room - len(feedback or "")), tracked_in)
    return build_messages(brief_text, files, omitted, feedback=feedback, design=design)


def cut_note(usage: Usage, asked: int, limits: ServerLimits, wanted: int) -> str:
    """'The answer was cut at N tokens', and what to change so it is not."""
    about = "about " if usage.estimated else ""
    said = f"the answer was cut at {about}{usage.output_tokens:,} tokens"
    if usage.output_tokens < asked * 0.9:
        return (
            f"{said}, before the {asked:,} asked for: the server's context ({limits.context:,} tokens, "
            f"{limits.source}) was full; start the server with a larger context"
        )
    if asked < wanted:
        return (
            f"{said}, all that fits beside the prompt in the server's context of {limits.context:,} tokens; "
            "start the server with a larger context (MACARON_DRAFT_CONTEXT for `macaron draft serve`)"
        )
    return f"{said}, the most macaron asks for; raise MACARON_DRAFT_MAX_TOKENS (now {wanted:,})"


def _nothing_note(text: str, files: list[AnswerFile], skipped: list[dict]) -> str:
    if not text.strip():
        return "the answer was empty"
    if not files:
        return "no whole files were found in the answer"
    return f"every file it printed was skipped ({'; '.join(s['path'] + ': ' + s['why'] for s in skipped[:3])})"


def _save_answer(app_dir: Path, text: str) -> None:
    """Keep the raw answer privately, to see what the model said when a draft goes wrong."""
    private = app_dir / ".macaron"
    if private.is_dir():
        (private / "draft-answer.md").write_text(text, encoding="utf-8")
