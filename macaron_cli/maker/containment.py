"""The coder's walls, built by the platform rather than by matching strings (issue 38).

The Agent SDK's bundled CLI runs every Bash command in bubblewrap (its `sandbox` settings;
socat bridges the sandbox's network proxy): the system read-only, writes only in the app
(its .git, .claude and .macaron read-only), no network (no domain allowed; the CLI itself,
outside the sandbox, still reaches the model), and its own PID namespace. Permission deny
rules (`Read(//abs/path/**)`, `Edit(…)`) hide the same places from the file tools (Read,
Grep, Glob, Write, Edit, subagents included) and are merged into the sandbox's rules.

Hidden: what sandbox/walls.py hides from every process that runs app code (the person's
home, macaron's home, the memory store wherever it lies, the apps folder and every other
registered app). Shown inside them: the app itself, a temporary folder of the coder's own
(coder_home.py) and the Python installation that runs it (often under the home).

A deny rule wins over every allow for the file tools, so their rules are the hidden
folders walked down: each entry but the shown folders and the folders on the way to them.
The sandbox carves out directly (`allowRead`), so a file made later in a hidden folder is
hidden from the shell too. Measured against the bundled CLI: FACTS.md, "The coder's reach".

Without bubblewrap or socat the CLI only says "Sandbox disabled" and runs every command
unconfined: `require` refuses a make that uses a cloud coder then, unless the person
accepted that risk (`--accept-unsandboxed`); `SandboxWatch` refuses the shell if the CLI
still says so (a need `require` does not know of).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from macaron_cli import apps
from macaron_cli.errors import UserError
from macaron_cli.sandbox.walls import ACCEPT_FLAG

# The commands the CLI's sandbox runs, and the Debian packages that hold them.
NEEDED = {"bwrap": "bubblewrap", "socat": "socat"}
# Inside the app, only macaron writes these: the CLI's project settings (their hooks would
# run outside the sandbox) and macaron's private record (the brief, make.json). The CLI
# itself keeps .git's config and hooks read-only (git runs them as the person); naming .git
# here too breaks its sandbox (measured).
READ_ONLY_IN_APP = (".claude", apps.PRIVATE_DIR)


def missing() -> list[str]:
    """Why the sandbox cannot run here: one phrase per missing part (empty when it can)."""
    from macaron_cli.sandbox.base import SandboxUnavailable
    from macaron_cli.sandbox.bubblewrap import BubblewrapSandbox

    lacking = [f"{package} (no `{command}`)" for command, package in NEEDED.items() if not shutil.which(command)]
    if shutil.which("bwrap"):
        try:
            BubblewrapSandbox.check_available()
        except SandboxUnavailable as exc:  # installed, but namespaces are refused here
            lacking.append(str(exc))
    return lacking


def require(accept_risk: bool) -> None:
    """Refuse (UserError, before anything is written) a cloud coder that would run unconfined."""
    lacking = missing()
    if not lacking or accept_risk:
        return
    packages = " ".join(NEEDED.values())
    raise UserError(
        f"the coder's sandbox cannot run here: {'; '.join(lacking)}. Install it (sudo apt-get install {packages}), "
        f"or make with --offline, or pass {ACCEPT_FLAG} to let the coder run unconfined "
        "(it could read your memory and files and reach the network)."
    )


class SandboxWatch:
    """The second check, at run time: the CLI's stderr says when its sandbox did not start
    (it then runs every command unconfined); from then on the shell is refused, unless the
    person accepted that risk. Chained before the guard hook (hooks.py)."""

    DISABLED = "Sandbox disabled"  # the CLI's own words (claude-agent-sdk 0.2.190)

    def __init__(self, accept_risk: bool, stderr: Callable[[str], None] | None = None):
        self.accept_risk = accept_risk
        self.disabled: str | None = None
        self._stderr = stderr

    def stderr(self, line: str) -> None:
        if self.DISABLED in line:
            self.disabled = line.strip().lstrip("⚠ ").strip()
        if self._stderr:
            self._stderr(line)

    async def hook(self, input_data, tool_use_id, context):
        if self.disabled is None or self.accept_risk or input_data.get("tool_name") != "Bash":
            return {}
        return {
            "hookSpecificOutput": {
                "hookEventName": "PreToolUse",
                "permissionDecision": "deny",
                "permissionDecisionReason": f"no shell: the sandbox did not start ({self.disabled})",
            }
        }


@dataclass(frozen=True)
class Walls:
    app: Path
    hidden: tuple[Path, ...]  # what the coder may not see
    shown: tuple[Path, ...]  # seen again inside them: the app, the Python that runs it

    def denied(self) -> list[Path]:
        """The hidden folders walked down to the shown ones: the paths the file tools' deny
        rules name."""
        found: list[Path] = []
        for root in self.hidden:
            _walk_down(root, self.shown, found)
        unique = sorted(set(found))
        return [p for p in unique if not any(p != q and p.is_relative_to(q) for q in unique)]

    def settings(self, accept_risk: bool = False) -> dict:
        """The CLI's settings: the sandbox and the permission rules. Unless the person accepted
        running unconfined, a sandbox that fails to start refuses every command: by default
        the CLI says "Sandboxing is disabled for the rest of this session" (in a tool result,
        not on stderr, where SandboxWatch listens) and runs the next ones unconfined."""
        rules = [_rule(p) for p in self.denied()]
        return {
            "permissions": {
                "deny": [f"{tool}({rule})" for tool in ("Read", "Edit") for rule in rules]
                + [f"Edit({_rule(self.app / name, folder=True)})" for name in READ_ONLY_IN_APP]
            },
            "sandbox": {
                "enabled": True,
                "failIfUnavailable": not accept_risk,
                "autoAllowBashIfSandboxed": True,
                "allowUnsandboxedCommands": False,  # no `dangerouslyDisableSandbox` way out
                "network": {"allowedDomains": []},
                "filesystem": {
                    "denyRead": [str(p) for p in self.hidden],
                    "allowRead": [str(p) for p in self.shown],
                    "denyWrite": [str(self.app / name) for name in READ_ONLY_IN_APP],
                },
            },
        }


def walls(app: Path, memory_uri: str, scratch: Path) -> Walls:
    """The coder's walls for `app`: the places every process running app code is kept out
    of (sandbox/walls.py); `memory_uri` is the store's (config.memory_uri); `scratch`, the
    temporary folder of the coder's own (coder_home.py), shown inside them."""
    from macaron_cli.sandbox.walls import hidden_places, python_install_dirs

    app = app.resolve()
    shown = (app, scratch.resolve(), *python_install_dirs())
    return Walls(app=app, hidden=_around_the_app(hidden_places(memory_uri, app), shown), shown=shown)


def _around_the_app(hidden: tuple[Path, ...], shown: tuple[Path, ...]) -> tuple[Path, ...]:
    """The hidden places but a shared temporary folder that holds the app (an app made
    under /tmp): hidden, whole or entry by entry, the CLI's sandbox left the app inside it
    read-only (measured), so there the coder sees that folder."""
    from macaron_cli.sandbox.walls import SHARED_TEMP

    shared = {p.resolve() for p in SHARED_TEMP}
    return tuple(p for p in hidden if not (p in shared and shown[0].is_relative_to(p)))


def _walk_down(path: Path, shown: tuple[Path, ...], found: list[Path]) -> None:
    if any(path.is_relative_to(s) for s in shown):
        return
    if not any(s.is_relative_to(path) for s in shown) or path.is_symlink() or not path.is_dir():
        found.append(path)
        return
    try:
        children = sorted(path.iterdir())
    except OSError:  # unreadable here: unreadable to the coder too
        return
    for child in children:
        _walk_down(child, shown, found)


def _rule(path: Path, folder: bool | None = None) -> str:
    """A permission rule's path: `//` starts an absolute one; a folder covers what is in it
    (`folder`: None asks the disk). Glob characters in a name are escaped (the rules are
    gitignore patterns)."""
    text = "".join("\\" + c if c in "*?[]\\" else c for c in str(path))
    if folder is None:
        folder = path.is_dir() and not path.is_symlink()
    return "/" + text + ("/**" if folder else "")
