"""git on an app never runs what the app's git metadata names (untrusted/git.py): a
.git/config with any setting that runs a command, hooks, a nested repository (plain, a
gitfile, in an ignored folder, already recorded as a gitlink) — checkpoints, rollback,
the share archive, a diff and the person's own `git status` afterwards run none of them,
no gitlink lands in a commit, and what was set aside is kept in macaron's home."""

from __future__ import annotations

import ast
import base64
import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from macaron_cli.checkpoints import AppRepo
from macaron_cli.errors import UserError
from macaron_cli.untrusted import git as untrusted_git
from tests.support.app_dirs import git, make_app_dir

PACKAGE = Path(__file__).resolve().parents[1] / "macaron_cli"


@pytest.fixture
def marker(tmp_path):
    return tmp_path / "ran.txt"


@pytest.fixture
def app(tmp_path, macaron_home):
    files = {"app.py": "print('hi')\n", "static/a.txt": "one\n", ".gitignore": "node_modules/\n"}
    path = make_app_dir(tmp_path / "water", files=files)
    AppRepo.open(path).checkpoint("build", "first")
    return path


def _command(marker: Path, tag: str) -> str:
    return f"sh -c 'echo {tag} >> {marker}; exit 1'"


def _hooks(folder: Path, marker: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("pre-commit", "post-commit", "post-checkout", "post-index-change", "reference-transaction"):
        (folder / name).write_text(f"#!/bin/sh\necho hook-{name} >> {marker}\n")
        (folder / name).chmod(0o755)
    return folder


def _dangerous(app: Path, marker: Path) -> dict[str, tuple[str, str]]:
    """Each .git/config setting that names something git runs (or reads from elsewhere):
    {name: (key, value)}."""
    included = app.parent / "included.gitconfig"
    fsmonitor = _command(marker, "included")
    included.write_text(f'[core]\n\tfsmonitor = {fsmonitor}\n[filter "x"]\n\tclean = cat {marker}\n')
    settings = {
        "core.fsmonitor": _command(marker, "fsmonitor"),
        "core.hooksPath": str(_hooks(app.parent / "their-hooks", marker)),
        "filter.x.clean": _command(marker, "clean"),
        "filter.x.smudge": _command(marker, "smudge"),
        "filter.x.process": _command(marker, "process"),
        "diff.x.textconv": _command(marker, "textconv"),
        "diff.x.command": _command(marker, "diffcmd"),
        "diff.external": _command(marker, "external"),
        "merge.x.driver": _command(marker, "merge"),
        "core.pager": _command(marker, "pager"),
        "core.editor": _command(marker, "editor"),
        "core.sshCommand": _command(marker, "ssh"),
        "gpg.program": _command(marker, "gpg"),
        "core.alternateRefsCommand": _command(marker, "altrefs"),
        "include.path": str(included),
    }
    return {**{k: (k, v) for k, v in settings.items()}, "includeIf": (f"includeIf.gitdir:{app}/.path", str(included))}


DANGEROUS_KEYS = [
    "core.fsmonitor", "core.hooksPath", "filter.x.clean", "filter.x.smudge", "filter.x.process",
    "diff.x.textconv", "diff.x.command", "diff.external", "merge.x.driver", "core.pager", "core.editor",
    "core.sshCommand", "gpg.program", "core.alternateRefsCommand", "include.path", "includeIf",
]  # fmt: skip


def _every_git_macaron_runs(app: Path) -> None:
    """A checkpoint, a rollback and its undo, and the other git commands macaron runs on an app."""
    repo = AppRepo.open(app)
    repo.checkpoint("change", "second")
    repo.rollback(to=1)
    repo.undo()
    for args in (
        ("status", "--porcelain", "--ignore-submodules=all"),
        ("diff", "--no-textconv", "--no-ext-diff", "HEAD~1", "HEAD"),
        ("diff",),
        ("log", "-p", "-2"),
        ("show", "HEAD"),
        ("archive", "--format=tar", "HEAD"),
        ("ls-files", "-z"),
        ("commit", "--allow-empty", "-qm", "by hand"),
    ):
        untrusted_git.run(app, *args, capture_output=True, check=False, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("key", DANGEROUS_KEYS)
def test_a_git_config_setting_that_runs_a_command_never_runs(app, marker, key, capsys):
    full_key, value = _dangerous(app, marker)[key]
    git(app, "config", full_key, value)
    if key == "gpg.program":
        git(app, "config", "commit.gpgSign", "true")
    (app / ".gitattributes").write_text("* filter=x diff=x merge=x\n")
    _hooks(app / ".git" / "hooks", marker)
    (app / "static/a.txt").write_text("two\n")

    _every_git_macaron_runs(app)

    assert not marker.exists(), marker.read_text()
    said = " ".join(capsys.readouterr().err.split())
    assert "settings that can run commands" in said and full_key.split(".")[0].lower() in said.lower()
    kept = list(Path(os.environ["MACARON_HOME"]).glob("set-aside/water-*/git-config"))
    assert kept and value in kept[0].read_text()  # the old config is the person's to look at
    assert git(app, "config", "--get", "user.email").strip()  # an identity set in the app is kept
    assert "two" in git(app, "show", "HEAD:static/a.txt")


def test_an_ordinary_config_is_left_as_it_is(app, capsys):
    for key, value in (("remote.origin.url", "https://example.org/water.git"), ("pull.rebase", "false")):
        git(app, "config", key, value)
    before = (app / ".git" / "config").read_bytes()
    (app / "app.py").write_text("print('changed')\n")
    AppRepo.open(app).checkpoint("change", "mine")
    assert (app / ".git" / "config").read_bytes() == before and capsys.readouterr().err == ""
    for args in (("diff", "HEAD~1", "HEAD"), ("diff", "HEAD~1"), ("log", "-p", "-1"), ("show", "HEAD")):
        shown = untrusted_git.run(Path(os.path.relpath(app)), *args, capture_output=True, text=True)
        assert shown.returncode == 0 and "print('changed')" in shown.stdout, (args, shown.stderr)


def test_the_persons_identity_names_checkpoints_without_reading_global_config_in_the_app(app, tmp_path, monkeypatch):
    for name in ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"):
        monkeypatch.delenv(name, raising=False)
    home = tmp_path / "person"
    home.mkdir()
    (home / ".gitconfig").write_text("[user]\n\tname = Ada Person\n\temail = ada@example.org\n")
    monkeypatch.setenv("HOME", str(home))
    git(app, "config", "--unset-all", "user.name", check=False)
    git(app, "config", "--unset-all", "user.email", check=False)
    (app / "app.py").write_text("print('changed')\n")
    AppRepo.open(app).checkpoint("change", "mine")
    assert git(app, "log", "-1", "--format=%an <%ae> %cn").strip() == "Ada Person <ada@example.org> Ada Person"


@pytest.mark.parametrize("how", ["plain", "gitfile", "ignored", "recorded"])
def test_a_nested_repository_is_set_aside_never_entered_never_a_gitlink(app, marker, how, capsys):
    fsmonitor = _command(marker, "nested-fsmonitor")
    if how == "gitfile":  # a gitdir elsewhere in the app, and a gitfile pointing at it
        nested = app / "static/sub3"
        (app / "vendor").mkdir()
        subprocess.run(["git", "init", "-q", "--separate-git-dir", str(app / "vendor/subgit"), str(nested)], check=True)
        (nested / ".git").write_text("gitdir: ../../vendor/subgit\n")
    else:
        nested = app / ("node_modules/lib" if how == "ignored" else "static/sub2")
        subprocess.run(["git", "init", "-q", str(nested)], check=True)
    (nested / "code.js").write_text("1\n")
    git(nested, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "--allow-empty", "-qm", "x")
    if how == "recorded":  # a gitlink an earlier checkpoint (or plain git) already committed
        git(app, "add", "-A")
        git(app, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "link")
        assert "160000" in git(app, "ls-tree", "-r", "HEAD")
    git(nested, "config", "core.fsmonitor", fsmonitor)  # what runs as the person when git enters it

    _every_git_macaron_runs(app)
    subprocess.run(["git", "status"], cwd=app, capture_output=True, check=True)  # the person's own
    subprocess.run(["git", "add", "-A"], cwd=app, capture_output=True, check=True)

    assert not marker.exists(), marker.read_text()
    assert not (nested / ".git").exists() and (nested / "code.js").read_text() == "1\n"
    assert "160000" not in git(app, "ls-tree", "-r", "HEAD") and "160000" not in git(app, "ls-files", "-s")
    said = " ".join(capsys.readouterr().err.split())
    assert f"{nested.relative_to(app)} was a git repository inside water" in said
    kept = list(Path(os.environ["MACARON_HOME"]).glob(f"set-aside/water-*/{nested.relative_to(app)}/.git"))
    assert kept, "the nested repository's metadata is kept for the person"
    if how != "ignored":
        assert f"{nested.relative_to(app)}/code.js" in git(app, "ls-tree", "-r", "--name-only", "HEAD")
    if how == "gitfile":  # the repository it pointed at is set aside too, never committed
        assert not (app / "vendor/subgit").exists() and "vendor/" not in git(app, "ls-tree", "-r", "HEAD")


def test_a_git_folder_that_points_elsewhere_is_refused_before_git_runs(app, tmp_path, marker):
    elsewhere = tmp_path / "elsewhere.git"
    os.rename(app / ".git", elsewhere)
    git(tmp_path, "config", "--file", str(elsewhere / "config"), "core.fsmonitor", _command(marker, "x"))
    (app / ".git").symlink_to(elsewhere)
    with pytest.raises(UserError, match="link or a file pointing elsewhere"):
        AppRepo.open(app).checkpoint("change", "x")
    (app / ".git").unlink()
    (app / ".git").write_text(f"gitdir: {elsewhere}\n")
    with pytest.raises(UserError, match="link or a file pointing elsewhere"):
        untrusted_git.run(app, "status")
    assert not marker.exists()


def test_a_git_folder_that_borrows_another_repositorys_config_is_cut_loose(app, tmp_path, marker, capsys):
    other = tmp_path / "other.git"
    subprocess.run(["cp", "-a", str(app / ".git"), str(other)], check=True)
    git(tmp_path, "config", "--file", str(other / "config"), "core.fsmonitor", _command(marker, "x"))
    git(tmp_path, "config", "--file", str(other / "config"), "filter.x.clean", _command(marker, "clean"))
    (app / ".gitattributes").write_text("* filter=x\n")
    (app / ".git" / "commondir").write_text(f"{other}\n")
    _every_git_macaron_runs(app)
    assert not marker.exists()
    assert not (app / ".git" / "commondir").exists() and "point git at another repository" in capsys.readouterr().err


# Where a git process can be started: a call given an argv whose program is "git", or
# GitPython's repo, command object or execute. Only the hardened module and the GitPython
# plumbing built on it may.
_GITPYTHON = re.compile(r"\bgit\.(Repo|Git)\s*\(|\bRepo\.(init|clone_from)\s*\(|\.git\.execute\(")
ALLOWED = {"untrusted/git.py", "git_plumbing.py"}


def _starts_git(call: ast.Call) -> bool:
    argv = call.args[0] if call.args else None
    if isinstance(argv, ast.List | ast.Tuple) and argv.elts:
        first = argv.elts[0]
        if isinstance(first, ast.Constant) and first.value == "git":
            return True
    return bool(_GITPYTHON.search(ast.unparse(call.func) + "("))


def test_no_module_but_the_hardened_one_starts_git_on_an_app():
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel in ALLOWED:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and _starts_git(node):
                found.append(f"{rel}:{node.lineno}: {ast.unparse(node)[:80]}")
    assert found == [], "run git on an app through untrusted.git.run (or git_plumbing):\n" + "\n".join(found)


# ── route 1 end to end: the coder plants nested repositories through the real make ─────────
def _nested_repo_routes(marker: Path) -> list[str]:
    """The coder's Bash calls, inside its sandbox: a nested repo whose fsmonitor writes a file
    outside the app (plain; a hand-built gitdir and a gitfile; its config written by hand)."""
    # Encoded, as an attacker would: macaron's own guard refuses a command naming a path outside.
    encoded = base64.b64encode(f"echo fired >> {marker}".encode()).decode()
    run = f"sh -c 'echo {encoded} | base64 -d | sh; exit 1'"
    commit = "-c user.name=c -c user.email=c@c commit --allow-empty -qm x"
    return [
        f'git init -q static/sub2 && git -C static/sub2 config core.fsmonitor "{run}" && git -C static/sub2 {commit}',
        "git init -q --bare vendor/subgit && git --git-dir=vendor/subgit config core.bare false"
        f' && git --git-dir=vendor/subgit config core.fsmonitor "{run}" && mkdir -p static/sub3'
        f" && printf 'gitdir: ../../vendor/subgit\\n' > static/sub3/.git && git -C static/sub3 {commit}",
        f"git init -q static/sub4 && git -C static/sub4 {commit}"
        f" && printf '[core]\\n\\tfsmonitor = \"{run}\"\\n' >> static/sub4/.git/config",
        "ls -la static static/sub2 static/sub3 static/sub4; git status --short",
    ]


def _make_responder(commands: list[str]):
    from tests.support import scripted_make as script
    from tests.support.model_server import Reply

    base = script.build_and_fix()

    def responder(req) -> Reply:
        if not req.body.get("tools"):
            return Reply.text("ok")
        first = script._first_user_text(req)
        if any(task in first for task in (script.FRONTEND_TASK, script.BACKEND_TASK, script.BACKEND_FIX_TASK)):
            return base(req)
        if script.FIX_PROMPT_MARK in req.raw:
            return base(req)
        n = req.assistant_turns()
        if n < len(commands):
            return Reply.tool("Bash", {"command": commands[n]})
        return base(_shifted(req, len(commands)))

    return responder


class _shifted:
    """A request seen as if its first `k` assistant turns were not there (the script's own
    steps follow the planted ones)."""

    def __init__(self, req, k: int):
        self._req, self._k = req, k

    def __getattr__(self, name):
        return getattr(self._req, name)

    def assistant_turns(self) -> int:
        return self._req.assistant_turns() - self._k


@pytest.mark.slow
def test_a_nested_repository_the_coder_plants_never_runs_on_the_persons_side(macaron, tmp_path, monkeypatch):
    import tarfile
    import uuid

    from tests.support import scripted_make as script
    from tests.support.model_server import ModelServer

    # Outside /tmp, so the sandbox's own hiding of /tmp cannot be why nothing is written there.
    outside = Path("/var/tmp") / f"macaron-nested-{uuid.uuid4().hex[:8]}"
    outside.mkdir()
    marker = outside / "fired.txt"
    home = outside / "person"
    monkeypatch.setenv("MACARON_HOME", str(home / ".macaron"))
    monkeypatch.setenv("MACARON_APPS_DIR", str(home / "apps"))
    try:
        with ModelServer(_make_responder(_nested_repo_routes(marker))) as server:
            made = script.cloud_make(macaron, server)
            bash_results = "\n".join(str(r.tool_results()) for r in server.requests)
        assert made.returncode == 0, made.stdout + made.stderr
        assert "sub2" in bash_results  # the coder's listing ran: the repos were there to find
        app = Path(json.loads(made.stdout)["path"])
        slug = app.name
        assert "was a git repository inside" in made.stderr
        for args in (
            ("change", slug, "rename the app to Hydration", "--offline", "--yes"),
            ("rollback", slug, "--steps", "1", "--yes"),
            ("checkpoint", slug, "-m", "by hand"),
            ("share", slug),
        ):
            # Each command finds the nested repos again, should the coder have planted more.
            subprocess.run(["git", "init", "-q", str(app / "static/again")], check=True)
            git(app / "static/again", "config", "core.fsmonitor", f"sh -c 'echo again >> {marker}'")
            done = macaron(*args, cwd=outside, timeout=300)
            assert done.returncode in (0, 1), done.stdout + done.stderr
            assert "static/again was a git repository" in done.stderr, args
            subprocess.run(["git", "status"], cwd=app, capture_output=True, check=True)  # the person's own
        assert not marker.exists(), marker.read_text()
        for commit in git(app, "rev-list", "--all").split():
            assert "160000" not in git(app, "ls-tree", "-r", commit), commit
        bundle = next(outside.glob("*.macaron.tar.gz"))
        with tarfile.open(bundle) as tar:
            names = tar.getnames()
            shared = b"".join(tar.extractfile(m).read() for m in tar.getmembers() if m.isfile())
        assert not [n for n in names if ".git" in n.split("/") or "subgit" in n], names
        assert b"fsmonitor" not in shared and str(marker).encode() not in shared
    finally:
        import shutil

        shutil.rmtree(outside, ignore_errors=True)


def _outside_state(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize(
    "inside", ["refs", "objects", "logs", "HEAD", "index", "info/exclude", "packed-refs", "refs/heads/main"]
)
def test_a_link_inside_the_git_folder_is_refused_and_nothing_is_written_through_it(app, tmp_path, inside):
    """git 2.39 writes a commit's refs, objects and logs into a linked folder wherever it
    points, and rewrites a linked index or packed-refs in place there; macaron appends to
    info/exclude. A link anywhere in .git is refused before anything is written."""
    git_dir = app / ".git"
    if inside == "packed-refs":
        git(app, "pack-refs", "--all")
    outside = tmp_path / "outside" / inside
    outside.parent.mkdir(parents=True, exist_ok=True)
    os.rename(git_dir / inside, outside)
    (git_dir / inside).symlink_to(outside)
    (app / "app.py").write_text("print('changed')\n")

    def state():
        return _outside_state(tmp_path / "outside"), _outside_state(git_dir), git(app, "status", check=False)

    before = state()
    with pytest.raises(UserError, match=f"water's .git/{inside} is a link; .*Nothing was changed"):
        AppRepo.open(app).checkpoint("change", "through the link")
    with pytest.raises(UserError, match="is a link"):
        untrusted_git.run(app, "status")
    assert state() == before


def test_a_link_inside_the_git_folder_is_one_line_exit_2(macaron, app, tmp_path):
    os.rename(app / ".git" / "refs", tmp_path / "refs")
    (app / ".git" / "refs").symlink_to(tmp_path / "refs")
    done = macaron("checkpoint", str(app), "-m", "x")
    assert done.returncode == 2 and done.stderr.strip().count("\n") == 0
    assert "water's .git/refs is a link" in done.stderr
