"""The guard every tool call passes (PreToolUse, for the main agent and its subagents).

Writes stay inside the app repo; the shared tokens stylesheet, the repo's .git and the
private .macaron/ are off limits; shell commands that delete or write outside the repo,
reach the network, escalate privileges or touch credentials are refused. The decision
is a pure function (`check`) so it can be tested without a model.
"""

from __future__ import annotations

import json
import os
import re
import shlex
from collections.abc import Callable, Iterable
from pathlib import Path

from macaron_cli.maker.scaffold import TOKENS_CSS

WRITE_TOOLS = {"Write": "file_path", "Edit": "file_path", "MultiEdit": "file_path", "NotebookEdit": "notebook_path"}
READ_TOOLS = {"Read": "file_path", "Glob": "path", "Grep": "path"}
_PROTECTED_IN_REPO = (".git", ".macaron")

_NETWORK = {"curl", "wget", "nc", "ncat", "netcat", "telnet", "ssh", "scp", "sftp", "rsync", "ftp", "socat", "aria2c"}
_PRIVILEGE = {
    "sudo",
    "su",
    "doas",
    "chroot",
    "mount",
    "umount",
    "mkfs",
    "dd",
    "shutdown",
    "reboot",
    "systemctl",
    "crontab",
    "useradd",
    "passwd",
}
_WRITERS = {
    "rm",
    "rmdir",
    "mv",
    "cp",
    "tee",
    "touch",
    "mkdir",
    "ln",
    "chmod",
    "chown",
    "install",
    "truncate",
    "unlink",
    "shred",
    "sed",
    "perl",
}
_SECRET_PLACES = (
    "~/.ssh",
    "/.ssh",
    "~/.aws",
    "/.aws",
    "~/.gnupg",
    "/.gnupg",
    "/etc/shadow",
    "/etc/sudoers",
    "~/.netrc",
    "/.netrc",
    "~/.config/gcloud",
    "/.docker/config",
    "id_rsa",
    "id_ed25519",
)
_SHELL_SPLIT = re.compile(r"\|\||&&|[;|&\n]|\$\(|`")


def _inside(path: Path, root: Path) -> bool:
    try:
        path.relative_to(root)
        return True
    except ValueError:
        return False


def _resolve(raw: str, root: Path) -> Path:
    p = Path(os.path.expanduser(raw))
    return (p if p.is_absolute() else root / p).resolve()


def _write_target_problem(raw: str, root: Path, private_roots: list[Path]) -> str | None:
    path = _resolve(raw, root)
    if path == Path(os.devnull):
        return None
    if not _inside(path, root):
        return f"{raw} is outside the app repo; write only inside {root}"
    rel = path.relative_to(root)
    if rel.as_posix() == TOKENS_CSS:
        return f"{TOKENS_CSS} is the shared macaron look and may not be edited; use its CSS variables instead"
    if rel.parts and rel.parts[0] in _PROTECTED_IN_REPO:
        return f"{rel.parts[0]}/ is managed by macaron; leave it alone"
    return None


def _read_target_problem(raw: str, root: Path, private_roots: list[Path]) -> str | None:
    path = _resolve(raw, root)
    if any(_inside(path, p) for p in private_roots) and not _inside(path, root):
        return "the person's memory store is private; ask the memory_search tool instead"
    if any(s in raw for s in _SECRET_PLACES) or "/.ssh" in str(path):
        return f"{raw} holds credentials; it is off limits"
    return None


def _bash_problem(command: str, root: Path, private_roots: list[Path]) -> str | None:
    lowered = command.lower()
    if any(s in lowered for s in _SECRET_PLACES):
        return "that command touches credentials (~/.ssh and the like); it is off limits"
    if any(str(p) in command for p in private_roots):
        return "the person's memory store is private; ask the memory_search tool instead"
    if re.search(r"/dev/tcp/|/dev/udp/", command):
        return "network connections from the shell are not allowed"
    for segment in _SHELL_SPLIT.split(command):
        try:
            words = shlex.split(segment, comments=True)
        except ValueError:
            words = segment.split()
        # Skip environment assignments and wrappers to find the program that runs.
        while words and (
            re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=.*", words[0])
            or words[0] in {"env", "nohup", "time", "exec", "command"}
        ):
            words = words[1:]
        if not words:
            continue
        prog = os.path.basename(words[0])
        if prog in {"cd", "pushd"} and len(words) > 1 and not _inside(_resolve(words[1], root), root):
            return "stay inside the app repo (no cd elsewhere)"
        if prog in _NETWORK:
            return f"`{prog}` reaches the network; apps are built offline (no downloads, no uploads)"
        if prog in _PRIVILEGE:
            return f"`{prog}` is not allowed while building an app"
        if (
            prog == "git"
            and len(words) > 1
            and words[1] in {"push", "remote", "clone", "fetch", "pull", "reset", "checkout", "clean", "rebase"}
        ):
            return f"`git {words[1]}` is macaron's job (checkpoints); do not run it"
        if prog in {"pip", "pip3", "npm", "npx", "yarn", "pnpm", "apt", "apt-get"} or (
            prog.startswith("python") and len(words) > 2 and words[1] == "-m" and words[2] in {"pip", "ensurepip"}
        ):
            return "installing packages is not allowed; use what the app runtime already has"
        if prog in _WRITERS or (prog == "sed" and "-i" in words):
            for word in words[1:]:
                if word.startswith("-"):
                    continue
                problem = _write_target_problem(word, root, private_roots) if _looks_like_path(word) else None
                if problem:
                    return problem
        if TOKENS_CSS.split("/")[-1] in segment and (prog in _WRITERS or ">" in segment):
            return f"{TOKENS_CSS} is the shared macaron look and may not be edited"
    for target in re.findall(r"(?<![<>&0-9])>>?\s*([^\s;|&]+)", command):
        if target.startswith("&"):
            continue
        problem = _write_target_problem(target, root, private_roots)
        if problem:
            return problem
    return None


def _looks_like_path(word: str) -> bool:
    return "/" in word or word.startswith(("~", ".")) or word == ".."


def check(tool_name: str, tool_input: dict, root: Path, private_roots: Iterable[Path] = ()) -> str | None:
    """Why this tool call must be refused, or None to let it run."""
    root = root.resolve()
    private = [p.resolve() for p in private_roots]
    if tool_name in WRITE_TOOLS:
        raw = tool_input.get(WRITE_TOOLS[tool_name]) or ""
        return _write_target_problem(raw, root, private) if raw else None
    if tool_name in READ_TOOLS:
        raw = tool_input.get(READ_TOOLS[tool_name]) or ""
        return _read_target_problem(raw, root, private) if raw else None
    if tool_name == "Bash":
        return _bash_problem(tool_input.get("command", ""), root, private)
    return None


def pre_tool_use(root: Path, private_roots: list[Path], on_deny: Callable[[str, dict, str], None] | None = None):
    """The SDK hook callback for this app."""

    async def hook(input_data, tool_use_id, context):
        name = input_data.get("tool_name", "")
        tool_input = input_data.get("tool_input") or {}
        reason = check(name, tool_input, root, private_roots)
        if reason is None:
            return {}
        if on_deny:
            on_deny(name, tool_input, reason)
        return {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            }
        }

    return hook


def log_denial(log_path: Path):
    def record(name: str, tool_input: dict, reason: str) -> None:
        log_path.parent.mkdir(parents=True, exist_ok=True)
        with log_path.open("a", encoding="utf-8") as f:
            f.write(json.dumps({"tool": name, "input": tool_input, "reason": reason}, ensure_ascii=False) + "\n")

    return record
