"""Every command and subcommand, driven with generated bad values: strings with lone
surrogates, markup or huge lengths, numbers out of range, paths that are files, folders or
missing. Whatever comes in, macaron answers with exit 0 or 2, never a traceback, and when it
says no (exit 2) nothing under its homes has changed.

The commands are read from the Typer app, so a new command or option is driven too. The
CLI runs in this process (a subprocess per example would take minutes). Commands that start
long work (chat, make, run, draft serve, memory serve) always get one value the edge must refuse, so they
never start it; the memory browser (bare `macaron memory`) is not driven here."""

from __future__ import annotations

import gc
import inspect
import types
import typing
from pathlib import Path

import pytest
import typer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.models import ArgumentInfo, OptionInfo
from typer.testing import CliRunner

from macaron_cli.cli import app

LONG_WORK = {("chat",), ("make",), ("run",), ("draft", "serve"), ("memory", "serve")}


def commands(typer_app: typer.Typer, path: tuple[str, ...] = ()):
    for info in typer_app.registered_commands:
        yield (*path, info.name or info.callback.__name__.replace("_", "-")), info.callback
    for group in typer_app.registered_groups:
        yield from commands(group.typer_instance, (*path, group.name))


def parameters(callback) -> list[dict]:
    """Each parameter of a command: how it is given (option name or position), its type, bounds."""
    hints = typing.get_type_hints(callback)
    found = []
    for name, param in inspect.signature(callback).parameters.items():
        info = param.default
        if not isinstance(info, (OptionInfo, ArgumentInfo)):
            continue
        kind = hints[name]
        if typing.get_origin(kind) in (typing.Union, types.UnionType):  # Optional[X] or X | None
            kind = next(a for a in typing.get_args(kind) if a is not type(None))
        assert kind in (bool, int, float, str, Path), f"{callback.__name__}({name}): no bad values for {kind}"
        found.append(
            {
                "name": name,
                "kind": kind,
                "option": info.param_decls[0] if isinstance(info, OptionInfo) else None,
                "required": info.default is ...,
                "min": getattr(info, "min", None),
                "max": getattr(info, "max", None),
            }
        )
    return found


COMMANDS = sorted(((path, parameters(callback)) for path, callback in commands(app)), key=lambda c: c[0])

# ── bad values ──────────────────────────────────────────────────────────────────────────
PIECES = [
    "[",
    "]",
    "[/]",
    "[bold]",
    "[/bold]",
    "\udcff",
    "\ud800",
    "é",
    "日本語",
    " ",
    "x",
    "\\",
    "'",
    '"',
    "{}",
    "%s",
    "\n",
    "\t",
    "m_",
    "-",
]
TEXT = st.one_of(
    st.lists(st.sampled_from(PIECES), max_size=8).map("".join),
    st.sampled_from(["", "last", "x" * 200_000, "[/]" * 50_000, "m_" + "0" * 5000]),
)
INTEGER = st.one_of(
    st.integers(-(10**30), 10**30).map(str),
    st.sampled_from(["99999999999999999999", "-1", "0", "abc", "1.5", "", "1e3", "\udcff"]),
)
NUMBER = st.one_of(st.floats().map(repr), st.sampled_from(["nan", "inf", "-inf", "-1", "0", "1e400", "abc", ""]))
PATH_NAMES = ["a-file.jsonl", "a-folder", "missing.jsonl", "a-file.jsonl/inside", "caf\udce9.jsonl", ""]


def refused(param) -> st.SearchStrategy[str]:
    """A value the edge refuses before any work: not UTF-8, out of range, not a number."""
    if param["kind"] is int:
        if param["max"] is not None:
            return st.sampled_from([str(param["max"] + 1), "99999999999999999999", "abc"])
        return st.just("abc")
    if param["kind"] is float:
        return st.sampled_from(["nan", "inf", "abc"])
    return st.lists(st.sampled_from(PIECES), max_size=4).map(lambda s: "".join(s) + "\udcff")


def bad(param, scratch: Path) -> st.SearchStrategy:
    kind = param["kind"]
    if kind is bool:
        return st.booleans()
    if kind is int:
        return INTEGER
    if kind is float:
        return NUMBER
    if kind is Path:
        return st.sampled_from(PATH_NAMES).map(lambda name: str(scratch / name) if name else "")
    return TEXT


@st.composite
def invocation(draw, path, params, scratch: Path) -> list[str]:
    values = {}
    for param in params:
        if param["required"] or draw(st.booleans()):
            values[param["name"]] = draw(bad(param, scratch))
    if path in LONG_WORK:
        stoppers = [p for p in params if p["kind"] in (str, int, float)]
        stopper = draw(st.sampled_from(stoppers))
        values[stopper["name"]] = draw(refused(stopper))
    args = list(path)
    for param in params:
        if param["name"] not in values:
            continue
        value = values[param["name"]]
        if param["kind"] is bool:
            args += [param["option"]] if value else []
        elif param["option"]:
            args += [param["option"], value]
    # Positional arguments after `--`, so a value that starts with "-" is still a value.
    positional = [values[p["name"]] for p in params if not p["option"] and p["name"] in values]
    return args + (["--", *positional] if positional else [])


def snapshot(*roots: Path) -> list:
    """Every file under the homes. SQLite's -shm and -wal change when a database is only read;
    connections left to the garbage collector are closed first, so a write is in the database."""
    gc.collect()
    return sorted(
        (str(p), p.stat().st_size, p.stat().st_mtime_ns)
        for root in roots
        if root.exists()
        for p in root.rglob("*")
        if p.is_file() and not p.name.endswith(("-shm", "-wal"))
    )


@pytest.fixture
def lived_in(macaron_home, tmp_path, monkeypatch):
    """Homes with a memory and an app in them, as a person's are; a scratch folder of paths."""
    from macaron_cli import apps
    from macaron_cli.checkpoints import AppRepo
    from macaron_cli.memory import MemoryStore

    MemoryStore.open().add("I like tea [green] with \\ milk", domain="food")
    app_dir = tmp_path / "apps" / "tea-log"
    AppRepo.init(app_dir)
    (app_dir / "macaron.json").write_text('{"title": "tea log"}')
    AppRepo.open(app_dir).checkpoint("manual", "first")
    apps.register("tea-log", path=str(app_dir), idea="a log of my [teas]", template="habit-tracker")
    apps.pinned(app_dir)  # pinned from its template, as the first command after an upgrade leaves it
    scratch = tmp_path / "scratch"
    (scratch / "a-folder").mkdir(parents=True)
    (scratch / "a-file.jsonl").write_text('{"text": "x", "reward": NaN}\nnot json\n')
    monkeypatch.chdir(scratch)  # `share` writes its bundle in the current folder
    for args in (["memory", "list"], ["why"], ["apps", "--tree"]):  # a ledger, an opened store: lived in
        CliRunner().invoke(app, args)
    return macaron_home, tmp_path / "apps", scratch


@pytest.mark.slow
@pytest.mark.parametrize("path, params", COMMANDS, ids=[" ".join(p) for p, _ in COMMANDS])
def test_every_command_answers_bad_input_with_exit_2_or_0_and_no_traceback(lived_in, path, params):
    home, apps_dir, scratch = lived_in
    runner = CliRunner()

    @settings(
        max_examples=6,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(args=invocation(path, params, scratch))
    def check(args):
        before = snapshot(home, apps_dir)
        result = runner.invoke(app, args)
        shown = f"macaron {args!r:.300}\nexit {result.exit_code}\n{result.stderr[-2000:]}"
        assert "Traceback" not in result.stderr + result.stdout, shown
        assert result.exit_code in (0, 2), shown
        if result.exit_code == 2:
            assert snapshot(home, apps_dir) == before, shown

    check()


def test_the_commands_driven_are_all_of_them():
    """The list above comes from the app itself: a command added later is driven too."""
    names = {" ".join(path) for path, _ in COMMANDS}
    assert {"make", "chat", "memory add", "memory import", "draft serve", "feedback export", "rollback"} <= names
