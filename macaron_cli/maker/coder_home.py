"""Where the coder's CLI keeps what it writes: outside the app, in macaron's home, one folder
per app (`$MACARON_HOME/coder/<app>-<hash>/`), which the walls hide with the rest of that home.

- `claude/`: the CLI's config and transcripts (CLAUDE_CONFIG_DIR). They hold the brief and
  every memory the coder was shown: inside the app, the coder of a later change read a memory
  relabelled private since out of a make's transcript (issue 50);
- `home/`: the CLI's HOME (its caches); its shell is handed the same path, hidden from it;
- the scratch folder, beside it in the machine's temporary folder: the CLI's and its
  shell's temporary files (TMPDIR, CLAUDE_CODE_TMPDIR), the one temporary folder the walls
  show. The CLI's default, /tmp/claude-<uid>, is shared by every Claude Code session of the
  person's (their outputs too); its name stays short because the CLI makes unix sockets
  in it and hands its shell a TMPDIR there only while the path is short (else it falls
  back to the shared one; measured, FACTS.md);
- `key`: the model key (0600), printed by the CLI's `apiKeyHelper`. The CLI runs the helper
  itself, outside its sandbox, and sends the answer as `x-api-key` and `Authorization: Bearer`
  (measured, FACTS.md), so the key is never in the CLI's environment nor its shell's;
- `walls.json`: the CLI's settings (the walls and the key helper), naming every hidden place;
- `claude-cli`: the launcher. The Agent SDK starts its CLI with the whole of macaron's own
  environment (the person's tokens too) under what macaron sets, and the CLI's shell inherits
  it; the launcher execs the CLI with `env -i` and only the variables macaron named.

The folder lasts one run (a make, a change, a resume): made afresh when its coder starts,
removed when the run ends. Nothing of a session outlives it, so a memory relabelled or
forgotten later has no copy left here, and `--resume` starts a new session from the app's
files and its re-gated brief rather than from an old transcript.
"""

from __future__ import annotations

import hashlib
import json
import re
import shlex
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from macaron_cli import config
from macaron_cli.errors import UserError
from macaron_cli.files import write_atomic

FOLDER = "coder"
# What the Agent SDK itself sets for its CLI besides `options.env` (claude-agent-sdk 0.2.190,
# _internal/transport/subprocess_cli.py): kept by the launcher where set.
SDK_VARIABLES = (
    "CLAUDE_CODE_ENTRYPOINT",
    "CLAUDE_AGENT_SDK_VERSION",
    "CLAUDE_CODE_SDK_READS_SESSION_STATE",
    "CLAUDE_AGENT_SDK_CLIENT_APP",
    "CLAUDE_AGENT_SDK_DERIVED_CLIENT_APP",
    "CLAUDE_CODE_ENABLE_SDK_FILE_CHECKPOINTING",
    "PWD",
)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class CoderHome:
    root: Path

    @classmethod
    def of(cls, app: Path) -> CoderHome:
        """The app's folder (not made): its name, then a hash of its path (two apps may share a name)."""
        app = app.resolve()
        digest = hashlib.sha256(str(app).encode("utf-8", "surrogateescape")).hexdigest()[:10]
        return cls(config.home() / FOLDER / f"{app.name}-{digest}")

    @classmethod
    def fresh(cls, app: Path) -> CoderHome:
        """The app's folder, emptied of what an earlier run left (one killed before its end)."""
        home = cls.of(app)
        home.close()
        for folder in (home.root, home.config_dir, home.home):
            config.ensure_private_dir(folder)
        try:
            home.scratch.mkdir(mode=0o700)  # never one another user made beforehand
        except FileExistsError:
            raise UserError(
                f"{home.scratch} is in the way of the coder's temporary folder and is not macaron's; remove it."
            ) from None
        return home

    @property
    def config_dir(self) -> Path:
        return self.root / "claude"

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def scratch(self) -> Path:
        return Path(tempfile.gettempdir()) / f"macaron-coder-{self.root.name.rsplit('-', 1)[-1]}"

    @property
    def key_file(self) -> Path:
        return self.root / "key"

    def settings_file(self, settings: dict, key: str) -> Path:
        """The CLI's settings with the key helper added, and the key it reads (both 0600)."""
        write_atomic(self.key_file, key)
        path = self.root / "walls.json"
        helper = {"apiKeyHelper": f"cat {shlex.quote(str(self.key_file))}"}
        write_atomic(path, json.dumps({**settings, **helper}, ensure_ascii=False, indent=1))
        return path

    def launcher(self, names) -> Path:
        """A script that execs the CLI with only `names` (and the SDK's own variables) of the
        environment it is started with."""
        kept = sorted({*names, *SDK_VARIABLES})
        bad = [n for n in kept if not _NAME.fullmatch(n)]
        assert not bad, f"not a variable's name: {bad}"
        pairs = " ".join(f'${{{n}+"{n}=${n}"}}' for n in kept)
        script = (
            "#!/bin/sh\n"
            "# macaron: the coder's CLI with only the variables macaron named (maker/coder_home.py)\n"
            f'exec /usr/bin/env -i {pairs} {shlex.quote(_cli())} "$@"\n'
        )
        return write_atomic(self.root / "claude-cli", script, mode=0o700)

    def close(self) -> None:
        """The folder gone (transcripts, key and settings), and the scratch folder."""
        shutil.rmtree(self.root, ignore_errors=True)
        shutil.rmtree(self.scratch, ignore_errors=True)


def _cli() -> str:
    """The CLI the Agent SDK would start: its bundled one, else `claude` on the PATH."""
    import claude_agent_sdk

    bundled = Path(claude_agent_sdk.__file__).parent / "_bundled" / "claude"
    found = str(bundled) if bundled.is_file() else shutil.which("claude")
    if not found:
        raise UserError(
            "the Agent SDK's CLI is missing; reinstall it (pip install --force-reinstall claude-agent-sdk)."
        )
    return found
