"""The one way host-side code runs git on an app: hardened, so nothing the app holds runs.

An app's git metadata is the coder's to write (its Bash reaches `.git/config` and can make
a repository anywhere below the app), and git runs commands named in config: fsmonitor,
hooks, filters, textconv and diff drivers, a pager, an editor, an ssh command, a signing
program, and a nested repository's own config on the outer `git status`. So every git
process on an app
- reads no system or global config, and gets the person's commit identity from outside
  the app instead (their global config, read by a git that runs in no repository);
- runs with command-line settings that outrank the repository's own and switch off what
  runs commands (COMMAND_LINE), and with its repository and work tree named (GIT_DIR,
  GIT_WORK_TREE), so core.worktree or a gitfile cannot move it elsewhere;
- starts only after `guard`: `.git` is a real folder pointing at no other repository
  (POINTERS) and holding no link (git reads and writes through one: refused), its config
  holds nothing but the keys an app repo needs (ALLOWED_KEYS: any other config is set
  aside, a copy kept in macaron's home), and no nested repository lies
  anywhere below the app root (moved to macaron's home: a nested clone may hold the
  person's own history, so it is never deleted). Each is said in one line.
`macaron_cli/git_plumbing.py` (GitPython, for checkpoints) gets its environment from here;
any other module runs `run(app, ...)`. tests/test_untrusted_git.py scans for bypasses.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from macaron_cli import config
from macaron_cli.errors import UserError
from macaron_cli.files import PRIVATE_DIR

# Used only when the person has no git identity at all (CI runs as root without one).
FALLBACK_IDENTITY = {"name": "macaron", "email": "macaron@localhost"}

# Keys an app repo's .git/config may hold: what `git init`, a clone and an identity write.
# Anything else (a driver, a hook path, an include, a worktree elsewhere) is set aside.
ALLOWED_KEYS = re.compile(
    r"core\.(repositoryformatversion|filemode|bare|logallrefupdates|ignorecase|precomposeunicode|symlinks"
    r"|autocrlf|safecrlf|eol|quotepath|checkstat|trustctime|untrackedcache|splitindex|preloadindex)"
    r"|core\.(commentchar|whitespace|abbrev)|advice\.[a-z]+|pull\.(rebase|ff)|push\.(default|autosetupremote)"
    r"|fetch\.prune|user\.(name|email)|init\.defaultbranch|gc\.auto|i18n\.(commitencoding|logoutputencoding)"
    r"|branch\..+\.(remote|merge|rebase)|remote\..+\.(url|pushurl|fetch)"
)

# Settings given on the command line outrank every config file, the app's included.
COMMAND_LINE = {
    "core.fsmonitor": "false",
    # No hook runs: git looks for each hook inside this path, and nothing can be inside it.
    # (macaron installs no git hooks of its own; a folder of its own would have to be kept
    # empty, this cannot be written at all.)
    "core.hooksPath": os.devnull,
    "core.pager": "cat",
    "core.editor": "true",
    "sequence.editor": "true",
    "core.askPass": "",
    "core.sshCommand": "false",
    "core.attributesFile": os.devnull,
    "diff.ignoreSubmodules": "all",
    "status.submoduleSummary": "false",
    "submodule.recurse": "false",
    "fetch.recurseSubmodules": "false",
    "protocol.allow": "never",
    "commit.gpgSign": "false",
    "tag.gpgSign": "false",
    "credential.helper": "",
}

SET_ASIDE = "set-aside"  # in macaron's home: what was moved out of an app, kept for the person


def environment(app: Path) -> dict[str, str]:
    """The variables every git process on `app` runs with, on top of the person's own."""
    app = Path(app).absolute()
    return {
        "GIT_DIR": str(app / ".git"),
        "GIT_WORK_TREE": str(app),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_ATTR_NOSYSTEM": "1",
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_PAGER": "cat",
        "GIT_EDITOR": "true",
        # Passed on to a git that git itself starts in a nested repository, too (FACTS.md).
        "GIT_CONFIG_PARAMETERS": " ".join(f"{_quoted(k)}={_quoted(v)}" for k, v in COMMAND_LINE.items()),
        **identity(app),
    }


def run(app: Path, *args: str, say: Callable[[str], None] | None = None, **options) -> subprocess.CompletedProcess:
    """`git ARGS` on the app at `app`, hardened, after `guard(app)`; options as subprocess.run's."""
    app = Path(app).absolute()
    guard(app, say)
    env = {**os.environ, **environment(app), **options.pop("env", {})}
    return subprocess.run(["git", *args], cwd=app, env=env, **options)


def guard(app: Path, say: Callable[[str], None] | None = None) -> None:
    """Before any git on `app`: its .git a real folder, its config only ALLOWED_KEYS, no
    nested repository below it. What was set aside is said through `say` (else stderr)."""
    tell = say or _stderr
    app = Path(app).absolute()
    git_dir = app / ".git"
    if git_dir.is_symlink() or (git_dir.exists() and not git_dir.is_dir()):
        raise UserError(
            f"{app}/.git is a link or a file pointing elsewhere, not the app's own repository; "
            f"replace it with a real repository (`git clone` it into {app})."
        )
    _refuse_links_inside(app)
    for line in _pointers_set_aside(app) + _config_set_aside(app) + set_aside_nested(app):
        tell(line)


def _refuse_links_inside(app: Path) -> None:
    """Refuse, before anything is written, a .git holding a link (its config and POINTERS
    aside: those are removed or set aside below). git reads and writes through one: a
    linked refs/, objects/ or logs/ gets the next commit's files wherever it points, a
    linked index or packed-refs is rewritten in place there (measured, git 2.39), and macaron itself
    appends to info/exclude. Which side holds the person's repository is not ours to guess,
    so nothing is repaired."""
    git_dir = app / ".git"
    if not git_dir.is_dir():
        return
    set_aside = {git_dir / "config", *(git_dir / rel for rel in POINTERS)}
    links = [link for link in _links_below(git_dir) if link not in set_aside]
    if links:
        rel = links[0].relative_to(app).as_posix()  # a name the app chose: shown escaped if need be
        more = f" (and {len(links) - 1} more link(s) inside .git)" if len(links) > 1 else ""
        raise UserError(
            f"{app.name}'s {rel if rel.isprintable() else ascii(rel)} is a link{more}; git would read and write "
            "the app's repository through it, outside the app. Nothing was changed: put the real files in place "
            "of the link (or remove it) and retry."
        )


def _links_below(git_dir: Path) -> list[Path]:
    """Every symbolic link inside `git_dir`, never following one. The loose objects' own
    folders are checked but not listed (most of a repository's files, so every git call
    would pay for them): git reads an object only by its id and never writes over one."""
    found, pending = [], [git_dir]
    loose = git_dir / "objects"
    while pending:
        folder = pending.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_symlink():
                    found.append(Path(entry.path))
                elif entry.is_dir(follow_symlinks=False) and not (folder == loose and _LOOSE.fullmatch(entry.name)):
                    pending.append(Path(entry.path))
    return sorted(found)


_LOOSE = re.compile(r"[0-9a-f]{2}")


# Files inside .git that make git read another repository's config, refs or objects.
POINTERS = ("commondir", "objects/info/alternates", "objects/info/http-alternates", "config.worktree")


def _pointers_set_aside(app: Path) -> list[str]:
    """Move out of .git what points git at another repository (its config would be read)."""
    found = [rel for rel in POINTERS if (app / ".git" / rel).exists() or (app / ".git" / rel).is_symlink()]
    if not found:
        return []
    kept = _aside(app) / "git"
    for rel in found:
        (kept / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(app / ".git" / rel), str(kept / rel))
    return [f"{app.name}'s .git held {', '.join(found)}, which point git at another repository; moved to {kept}"]


def set_aside_nested(app: Path) -> list[str]:
    """Move every repository nested below `app` to macaron's home, one line for each: the
    metadata of a working tree (a `.git` folder, file or link, at any depth, ignored folders
    too) and a repository's own folder wherever it lies (a gitfile's target, a bare one).

    Moved, not deleted: a nested repository may be the person's own clone with history of
    its own. Once moved, its files are plain files of the app, and no config of it runs."""
    found = []
    for root, dirs, files in os.walk(app):
        here = Path(root)
        if here == app:
            dirs[:] = [d for d in dirs if d != ".git"]
            continue
        if _is_repository(here, dirs, files):
            found.append(here)
            dirs[:] = []
        elif ".git" in dirs or ".git" in files:
            found.append(here / ".git")
            dirs[:] = [d for d in dirs if d != ".git"]
    lines = []
    for meta in found:
        rel = meta.relative_to(app)
        kept = _aside(app) / rel
        kept.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(meta), str(kept))
        lines.append(
            f"{rel.parent if meta.name == '.git' else rel} was a git repository inside {app.name}; "
            f"its git metadata was moved to {kept} "
            "(git never enters a nested repository: its config could run commands), and its files stay in the app"
        )
    return lines


def _is_repository(folder: Path, dirs: list[str], files: list[str]) -> bool:
    """A repository's own folder (what a `.git` folder holds), as git itself recognises one."""
    return "HEAD" in files and "objects" in dirs and "refs" in dirs and (folder / "HEAD").is_file()


def _config_set_aside(app: Path) -> list[str]:
    """Set aside a .git/config that holds keys beyond ALLOWED_KEYS: a copy kept in macaron's
    home, the config rewritten with only the allowed ones."""
    path = app / ".git" / "config"
    if not path.is_file() or path.is_symlink():
        if path.is_symlink():
            path.unlink()
            return [f"{app.name}'s .git/config was a link; it was removed (git on an app reads only its own config)"]
        return []
    entries = _config_entries(path)
    refused = sorted({key for key, _ in entries if not ALLOWED_KEYS.fullmatch(key)})
    if not refused:
        return []
    kept = _aside(app) / "git-config"
    kept.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(path, kept)
    fresh = path.with_name(f"config.macaron-{os.getpid()}")
    fresh.write_text("")
    for key, value in entries:
        if ALLOWED_KEYS.fullmatch(key):
            _outside("config", "--file", str(fresh), "--add", key, value)
    os.replace(fresh, path)
    return [
        f"{app.name}'s .git/config held settings that can run commands or reach outside the app "
        f"({', '.join(refused)}); they were removed and the old config kept at {kept}"
    ]


def _config_entries(path: Path) -> list[tuple[str, str]]:
    """(key, value) of every entry in a config file, includes not followed."""
    out = _outside("config", "--file", str(path), "--no-includes", "--list", "-z")
    if out is None:  # git cannot read it at all: nothing in it is kept
        return [("unreadable.config", "")]
    entries = []
    for item in out.split("\0"):
        if item:
            key, _, value = item.partition("\n")
            entries.append((key, value))
    return entries


def identity(app: Path) -> dict[str, str]:
    """GIT_AUTHOR_*/GIT_COMMITTER_* naming the person as their own config does, since git on
    an app reads no global config: empty when the app's config or the environment names
    someone already; the fallback identity when nothing does."""
    if os.environ.get("GIT_COMMITTER_EMAIL") and os.environ.get("GIT_COMMITTER_NAME"):
        return {}
    config_file = Path(app).absolute() / ".git" / "config"
    if config_file.is_file() and _outside("config", "--file", str(config_file), "--no-includes", "--get", "user.email"):
        return {}
    where = (str(Path.home()), os.environ.get("XDG_CONFIG_HOME", ""), os.environ.get("GIT_CONFIG_GLOBAL", ""))
    name, email = _persons_identity(*where)
    if not (name and email):
        name, email = FALLBACK_IDENTITY["name"], FALLBACK_IDENTITY["email"]
    return {
        "GIT_AUTHOR_NAME": name,
        "GIT_AUTHOR_EMAIL": email,
        "GIT_COMMITTER_NAME": name,
        "GIT_COMMITTER_EMAIL": email,
    }


def has_identity(app: Path) -> bool:
    """Whether anything but the fallback would name the committer of a checkpoint in `app`."""
    return identity(app).get("GIT_COMMITTER_EMAIL") != FALLBACK_IDENTITY["email"]


@lru_cache(maxsize=8)
def _persons_identity(home: str, xdg: str, global_config: str) -> tuple[str, str]:
    """user.name and user.email from the person's own config, read by a git run in no
    repository (keyed by where that config lies, so a test's own home is read afresh)."""
    del home, xdg, global_config
    found = []
    for key in ("user.name", "user.email"):
        found.append((_outside("config", "--get", key, system=True) or "").strip())
    return found[0], found[1]


def _outside(*args: str, system: bool = False) -> str | None:
    """git run in no repository (the filesystem root, no GIT_DIR); its stdout or None."""
    own = ("GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM") if system else ()
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") or k in own}
    if not system:
        env.update(GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull)
    env["GIT_CEILING_DIRECTORIES"] = "/"
    done = subprocess.run(["git", *args], cwd="/", env=env, capture_output=True, text=True, check=False)
    return done.stdout if done.returncode == 0 else None


def _aside(app: Path) -> Path:
    """A folder of macaron's home for what is moved out of `app` now."""
    base = config.home() / SET_ASIDE
    base.mkdir(parents=True, exist_ok=True)
    os.chmod(base, PRIVATE_DIR)
    return base / f"{app.name}-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _stderr(line: str) -> None:
    from macaron_cli.output import Out

    Out(stderr=True).text(line)
