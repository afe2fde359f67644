"""Which git config in an app's own .git/config runs a command, under plain git, under the
environment untrusted/git.py gives every git on an app (before its guard rewrites the
config), and with the guard: for each key, the git commands during which it ran.

    python3 bench/git_hardening.py

Each key is set in a fresh repo (with `* filter=x diff=x merge=x` in .gitattributes and
hooks in .git/hooks whose names it prints when they run), a file is changed, and each git
command below is run once; a command that ran writes its tag to a marker file.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from macaron_cli.untrusted import git as untrusted_git

OPS = [
    ["status"], ["add", "-A"], ["diff", "HEAD"], ["diff"], ["write-tree"], ["commit", "-qm", "y"],
    ["checkout", "--", "a.txt"], ["log", "-p", "-1"], ["show", "HEAD"], ["archive", "--format=tar", "HEAD"],
    ["gc", "--auto"], ["ls-files"], ["update-ref", "refs/x", "HEAD"], ["read-tree", "-u", "-m", "HEAD"],
    ["checkout-index", "-a", "-f"],
]  # fmt: skip
HOOKS = ("pre-commit", "post-commit", "post-checkout", "pre-auto-gc", "post-index-change", "reference-transaction")


def keys(marker: Path, repo: Path) -> dict[str, str]:
    def cmd(tag: str) -> str:
        return f"sh -c 'echo {tag} >> {marker}; exit 1'"

    return {
        "(none: hooks in .git/hooks only)": "",
        "core.fsmonitor": cmd("fsmonitor"),
        "core.hooksPath": str(repo / ".git" / "hooks"),
        "filter.x.clean": cmd("clean"),
        "filter.x.smudge": cmd("smudge"),
        "filter.x.process": cmd("process"),
        "diff.x.textconv": cmd("textconv"),
        "diff.x.command": cmd("diffcmd"),
        "diff.external": cmd("external"),
        "merge.x.driver": cmd("merge"),
        "core.pager": cmd("pager"),
        "core.editor": cmd("editor"),
        "core.sshCommand": cmd("ssh"),
        "gpg.program+commit.gpgSign": cmd("gpg"),
        "core.alternateRefsCommand": cmd("altrefs"),
        "credential.helper": "!" + cmd("cred"),
    }


def fresh(root: Path, marker: Path) -> Path:
    repo = root / "repo"
    shutil.rmtree(repo, ignore_errors=True)
    repo.mkdir()

    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t", *args], check=True)

    git("init", "-q")
    (repo / "a.txt").write_text("1\n")
    (repo / ".gitattributes").write_text("* filter=x diff=x merge=x\n")
    git("add", "-A")
    git("commit", "-qm", "x")
    (repo / "a.txt").write_text("2\n")
    for hook in HOOKS:
        (repo / ".git" / "hooks" / hook).write_text(f"#!/bin/sh\necho hook-{hook} >> {marker}\n")
        (repo / ".git" / "hooks" / hook).chmod(0o755)
    return repo


def fired(root: Path, key: str, how: str) -> list[str]:
    marker = root / "marker"
    repo = fresh(root, marker)
    value = keys(marker, repo)[key]
    config = str(repo / ".git" / "config")
    if key.startswith("gpg"):
        subprocess.run(["git", "config", "--file", config, "gpg.program", value], check=True)
        subprocess.run(["git", "config", "--file", config, "commit.gpgSign", "true"], check=True)
    elif value:
        subprocess.run(["git", "config", "--file", config, key, value], check=True)
    found = []
    for op in OPS:
        marker.unlink(missing_ok=True)
        env = {k: v for k, v in os.environ.items() if k not in ("GIT_PAGER", "PAGER")}
        if how != "plain":
            env.update(untrusted_git.environment(repo))
        if how == "guarded":
            untrusted_git.guard(repo, say=lambda line: None)
        args = dict(cwd=repo, env=env, capture_output=True, stdin=subprocess.DEVNULL, timeout=30)
        subprocess.run(["git", *op], **args)  # type: ignore[call-overload]
        if marker.exists():
            found.append(f"{op[0]}:{'+'.join(sorted(set(marker.read_text().split())))}")
    return found


def main() -> None:
    print(subprocess.run(["git", "--version"], capture_output=True, text=True).stdout.strip())
    with tempfile.TemporaryDirectory(dir="/var/tmp") as tmp:
        root = Path(tmp)
        os.environ["MACARON_HOME"] = str(root / "home")
        for how in ("plain", "hardened", "guarded"):
            print(f"\n{how}: key -> the commands during which something ran")
            for key in keys(root / "m", root):
                print(f"  {key:34} {' '.join(fired(root, key, how)) or '-'}")


if __name__ == "__main__":
    main()
