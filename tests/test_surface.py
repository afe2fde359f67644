"""The surface a person touches: bad arguments, the one error handler, text shown as typed,
output to a pipe, and the import-record schema. Most run the CLI in this process (fast);
the ones that need real argv bytes or a pipe run `macaron` in a subprocess."""

from __future__ import annotations

import errno
import io
import json
import os
import re
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from macaron_cli.cli import app

SURROGATE = "caf\udce9"  # the Latin-1 byte of "café", as Python receives it in argv


def cli(*args: str, input: str | None = None):
    """Run `macaron ARGS` in this process; stdout and stderr kept apart."""
    return CliRunner().invoke(app, list(args), input=input)


def files_under(*roots) -> list[tuple[str, int]]:
    return sorted((str(p), p.stat().st_size) for root in roots if root.exists() for p in root.rglob("*") if p.is_file())


def one_line_error(result, *words: str, code: int = 2) -> str:
    assert result.exit_code == code, (result.exit_code, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr + result.stdout, result.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


# ── arguments ───────────────────────────────────────────────────────────────────────────
@pytest.mark.parametrize(
    "args, option",
    [
        (["memory", "search", "coffee", "--k", "99999999999999"], "--k"),
        (["memory", "list", "--limit", "99999999999999"], "--limit"),
        (["make", "a water tracker", "--budget", "nan"], "--budget"),
        (["make", "a water tracker", "--budget", "inf"], "--budget"),
        (["make", "a water tracker", "--max-rounds", "99999999999999999999"], "--max-rounds"),
        (["run", "--port", "70000"], "--port"),
        (["memory", "serve", "--port", "70000"], "--port"),
        (["rollback", "--to", "99999999999999999999999"], "--to"),
        (["draft", "serve", "--gpus", "0"], "--gpus"),
    ],
)
def test_numbers_out_of_range_are_one_line_and_write_nothing(macaron_home, args, option):
    one_line_error(cli(*args), option)
    assert not macaron_home.exists() and not (macaron_home.parent / "apps").exists()


@pytest.mark.parametrize(
    "args, what",
    [
        (["memory", "add", SURROGATE], "text"),
        (["memory", "edit", "m_123", SURROGATE], "text"),
        (["memory", "forget", SURROGATE], "ID"),
        (["memory", "add", "ok", "--domain", SURROGATE], "--domain"),
        (["why", SURROGATE], "MEMORY_ID"),
        (["make", SURROGATE, "--offline", "--yes"], "idea"),
        (["checkpoint", "-m", SURROGATE], "--message"),
    ],
)
def test_arguments_that_are_not_utf8_are_refused_before_anything_is_written(macaron, macaron_home, args, what):
    # A real subprocess: the bytes reach Python through argv exactly as a terminal sends them.
    result = macaron(*args)
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert what in result.stderr and "UTF-8" in result.stderr
    assert not macaron_home.exists() and not (macaron_home.parent / "apps").exists()


def test_make_with_a_bad_idea_leaves_no_folder_and_the_next_make_keeps_its_name(macaron, macaron_home):
    apps = macaron_home.parent / "apps"
    assert macaron("make", f"a tracker for {SURROGATE}", "--offline", "--yes").returncode == 2
    assert not apps.exists()


def test_a_scaffold_that_fails_leaves_no_half_made_app(tmp_path, macaron_home, monkeypatch):
    from macaron_cli.maker import scaffold as scaffolding
    from macaron_cli.maker.brief import Brief
    from macaron_cli.maker.choose import choose_template

    def broken(app, brief, destination=None):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(scaffolding, "write_brief", broken)
    template = choose_template("a water tracker", None)
    brief = Brief(
        idea="a water tracker", language="en", accent="#FF9AA2", app_settings={"units": "metric", "currency": "EUR"}
    )
    apps_root = tmp_path / "apps"
    with pytest.raises(OSError):
        scaffolding.scaffold(template, brief, "water-tracker", apps_root)
    assert list(apps_root.iterdir()) == []  # neither the app nor its hidden work folder
    assert scaffolding.make_slug("a water tracker", template.name, apps_root) == "water-tracker"


# ── the one handler ─────────────────────────────────────────────────────────────────────
def test_a_home_that_is_a_file_is_named(tmp_path, monkeypatch, macaron_home):
    home = tmp_path / "not-a-folder"
    home.write_text("x")
    monkeypatch.setenv("MACARON_HOME", str(home))
    for args in (["memory", "list"], ["memory", "add", "hello"]):
        line = one_line_error(cli(*args), "MACARON_HOME", "a file")
        assert "backup" not in line
    assert home.read_text() == "x"


def test_an_apps_dir_that_is_a_file_is_named(tmp_path, monkeypatch, macaron_home):
    apps = tmp_path / "apps-file"
    apps.write_text("x")
    monkeypatch.setenv("MACARON_APPS_DIR", str(apps))
    one_line_error(cli("make", "a water tracker", "--offline", "--yes"), "MACARON_APPS_DIR", "a file")


def test_a_full_disk_says_to_free_space_not_to_restore(macaron_home, monkeypatch):
    assert cli("memory", "add", "I like tea").exit_code == 0
    import lancedb.table

    def full(self, *args, **kwargs):  # what LanceDB raises when a write finds no room
        raise RuntimeError("lance error: LanceError(IO): No space left on device (os error 28)")

    monkeypatch.setattr(lancedb.table.LanceTable, "add", full)
    line = one_line_error(cli("memory", "add", "I like coffee"), "free some space")
    assert "backup" not in line
    assert [m["text"] for m in json.loads(cli("memory", "list", "--json").stdout)] == ["I like tea"]


@pytest.mark.slow
def test_a_really_full_disk(tmp_path, macaron):
    """On a small tmpfs filled to the brim (needs root; skipped elsewhere)."""
    mount = tmp_path / "tiny"
    mount.mkdir()
    if (
        os.geteuid() != 0
        or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=2M", "tmpfs", str(mount)], capture_output=True
        ).returncode
    ):
        pytest.skip("cannot mount a small tmpfs here")
    try:
        env = {"MACARON_HOME": str(mount / "home"), "MACARON_APPS_DIR": str(mount / "apps")}
        assert macaron("memory", "add", "first", env=env).returncode == 0
        with open(mount / "filler", "wb") as fh:
            try:
                while True:
                    fh.write(b"\0" * 65536)
            except OSError:
                pass
        for args in (["memory", "add", "second"], ["make", "a water tracker", "--offline", "--yes"]):
            result = macaron(*args, env=env)
            assert result.returncode == 2 and "free some space" in result.stderr, result.stderr
            assert "backup" not in result.stderr and "Traceback" not in result.stderr
        (mount / "filler").unlink()
        assert macaron("memory", "list", env=env).stdout.startswith("m_")
    finally:
        subprocess.run(["umount", str(mount)], capture_output=True)


def test_an_unexpected_error_is_one_line_with_a_log_and_v_shows_the_traceback(macaron_home, monkeypatch):
    from macaron_cli.memory import commands

    def bug(json_out):
        raise ZeroDivisionError("a bug in stats")

    monkeypatch.setattr(commands, "stats", bug)
    line = one_line_error(cli("memory", "stats"), "ZeroDivisionError", "a bug in stats", code=1)
    log = line.split("details are in ")[1].split(")")[0]
    with open(log) as details:
        text = details.read()
    assert "Traceback" in text and "a bug in stats" in text
    verbose = cli("-v", "memory", "stats")
    assert verbose.exit_code == 1 and "Traceback" in verbose.stderr


# ── import records ──────────────────────────────────────────────────────────────────────
DEEP = '{"a": ' * 5000 + "1" + "}" * 5000


@pytest.mark.parametrize(
    "record, field",
    [
        ('{"text": "x", "id": 5}', "id"),
        ('{"text": "x", "id": ""}', "id"),
        ('{"text": "x \\ud800 y"}', "text"),
        ('{"text": "x", "meta": ' + DEEP + "}", "meta"),
        ('{"text": "x", "meta": ' + '{"a": ' * 17 + "1" + "}" * 17 + "}", "meta"),
        ('{"text": "x", "meta": {"k": NaN}}', "meta"),
        ('{"text": "x", "use_count": ' + "9" * 5000 + "}", "use_count"),
        ('{"text": "x", "use_count": 1e23}', "use_count"),
        ('{"text": "x", "reward": 1e23}', "reward"),
        ('{"text": "x", "reward": NaN}', "reward"),
        ('{"text": "x", "reward": Infinity}', "reward"),
        ('{"text": "x", "language": ""}', "language"),
        ('{"text": "x", "language": "' + "a" * 66 + '"}', "language"),
        ('{"text": "x", "language": "/help"}', "language"),
        ('{"text": "x", "source": "telepathy"}', "source"),
    ],
)
def test_import_refuses_a_record_it_could_not_store(tmp_path, macaron_home, record, field):
    file = tmp_path / "in.jsonl"
    file.write_text('{"text": "a good line first"}\n' + record + "\n", encoding="utf-8", errors="surrogatepass")
    line = one_line_error(cli("memory", "import", str(file)), "line 2")
    assert field in line
    assert not macaron_home.exists()


def test_import_keeps_a_record_with_every_field_in_range(tmp_path, macaron_home):
    record = {
        "text": "teal [blue-green]",
        "id": "m_teal",
        "language": "zh-Hant-TW",
        "reward": -0.5,
        "use_count": 3,
        "meta": {"a": [1, {"b": None}]},
        "source": "chat",
    }
    file = tmp_path / "in.jsonl"
    file.write_text(json.dumps(record) + "\n", encoding="utf-8")
    assert cli("memory", "import", str(file)).exit_code == 0
    [shown] = json.loads(cli("memory", "search", "teal", "--json").stdout)
    assert (shown["id"], shown["language"], shown["meta"]) == ("m_teal", "zh-Hant-TW", record["meta"])


def test_language_tags_follow_bcp47():
    from macaron_cli.memory.records import is_language_tag

    assert all(map(is_language_tag, ["en", "ja", "pt-BR", "zh-Hant-TW", "es-419", "de-CH-1996", "x-klingon"]))
    assert not any(map(is_language_tag, ["", "/help", "help", "english", "en_US", "en-", "a" * 66, "ja\n"]))


# ── text shown as typed ─────────────────────────────────────────────────────────────────
TRICKY = ["in vim I type [/] to search", "teal [blue-green]", "[bold]x[/bold] and [red]", "C:\\dir\\"]


def test_memories_with_brackets_list_and_search_as_typed(macaron_home, monkeypatch):
    monkeypatch.setenv("FORCE_COLOR", "1")  # rich draws styles: a parsed [bold] would vanish into codes
    for text in TRICKY:
        result = cli("memory", "add", text)
        assert result.exit_code == 0 and text in result.stdout, result.stdout
    listed = cli("memory", "list")
    assert listed.exit_code == 0 and all(text in listed.stdout for text in TRICKY), listed.stdout
    found = cli("memory", "search", "vim")
    assert found.exit_code == 0 and TRICKY[0] in found.stdout


def test_ideas_checkpoint_messages_and_doctor_fixes_show_as_typed(tmp_path, macaron_home, monkeypatch):
    from macaron_cli import apps, doctor
    from macaron_cli.checkpoints import AppRepo

    app_dir = tmp_path / "apps" / "reading"
    AppRepo.init(app_dir)
    (app_dir / "macaron.json").write_text('{"title": "reading"}')
    apps.register("reading", path=str(app_dir), idea="a tracker for [my] reading", template="habit-tracker")
    assert "a tracker for [my] reading" in cli("apps").stdout
    assert cli("checkpoint", "reading", "-m", "fix the [bold] toggle [/]").exit_code == 0
    assert "fix the [bold] toggle [/]" in cli("checkpoints", "reading").stdout
    monkeypatch.setattr(
        doctor,
        "CHECKS",
        [lambda settings: doctor.Check("embeddings", False, "missing [x]", "pip install 'macaron[embeddings]'")],
    )
    assert "pip install 'macaron[embeddings]'" in cli("doctor").stdout


def test_the_live_make_panel_shows_model_text_as_typed():
    from rich.console import Console

    from macaron_cli.maker.progress import LiveProgress

    console = Console(record=True, width=120, force_terminal=True, file=io.StringIO())
    progress = LiveProgress(console)
    progress.phase("brief", "for [my] reading")
    progress.agent("coder", "I typed [/] and [bold]x[/bold]")
    progress.note("a note with [brackets]")
    shown = Console(record=True, width=120, file=io.StringIO())
    shown.print(progress._render())
    progress.close()
    text = shown.export_text() + console.export_text()
    for typed in ("for [my] reading", "I typed [/] and [bold]x[/bold]", "a note with [brackets]"):
        assert typed in text


def test_markup_helper_is_exact_with_backslashes_and_brackets():
    from rich.text import Text

    from macaron_cli.output import markup

    for value in ["C:\\dir\\", "x\\[bold]y", "[/]", "a \\\\[b]", "\udcff"]:
        for template in ("{}", "[bold]{}[/]", "{} [dim]x[/]", "{}[dim]x[/]"):
            expected = template.replace("[bold]", "").replace("[/]", "").replace("[dim]", "")
            assert Text.from_markup(markup(template, value)).plain == expected.format(value.replace("\udcff", "\ufffd"))


_TYPED = st.characters(codec="utf-8", exclude_categories=["Cs"]) | st.sampled_from("\x1b\x07\r\x9b[]0;")


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])  # a loaded machine is no failure
@given(st.text(alphabet=_TYPED))
def test_no_control_character_someone_wrote_reaches_the_terminal(value):
    from rich.console import Console

    from macaron_cli.output import Out

    shown = io.StringIO()
    say = Out(target=Console(file=shown, width=80, color_system=None, force_terminal=True))
    say.line("[bold]{}[/] and {}", value, value)
    say.text(value)
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", shown.getvalue())


def test_escape_sequences_in_a_memory_are_shown_not_obeyed_by_list_and_search(macaron):
    typed = "Lunch \x1b]0;owned\x07with Sam\x1b[2J at noon\x9b"
    assert macaron("memory", "add", typed).returncode == 0

    for command in (("memory", "list"), ("memory", "search", "lunch")):
        result = macaron(*command)
        assert result.returncode == 0, result.stderr
        assert "Lunch ␛]0;owned␇with Sam␛[2J at noon" in result.stdout
        assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f]", result.stdout)


def test_only_the_output_helper_prints_markup(tmp_path):
    """A print of an f-string with markup on is how someone's text got parsed: none are left."""
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parents[1] / "macaron_cli"
    offenders = []
    for path in root.rglob("*.py"):
        if path.name == "output.py" or "tui" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "print"
                and node.args
                and isinstance(node.args[0], (ast.JoinedStr, ast.BinOp))
                and not any(k.arg == "markup" for k in node.keywords)
            ):
                offenders.append(f"{path.relative_to(root)}:{node.lineno}")
    assert offenders == []


# ── pipes ───────────────────────────────────────────────────────────────────────────────
def test_piped_output_keeps_each_app_on_one_line(macaron, macaron_home, tmp_path):
    from macaron_cli import apps

    idea = "a tracker for the books I read on the train, with the pages per day and a shelf of the finished ones"
    apps.register("books", path=str(tmp_path / "apps" / "books"), idea=idea, template="habit-tracker")
    (tmp_path / "apps" / "books").mkdir(parents=True)
    lines = macaron("apps").stdout.splitlines()
    assert len(lines) == 1 and idea in lines[0]


# ── the memory browser ──────────────────────────────────────────────────────────────────
def test_the_memory_browser_shows_brackets_as_typed(tmp_path):
    import asyncio

    from textual.widgets import Input

    from macaron_cli.memory import MemoryStore
    from macaron_cli.tui.app import MemoryBrowser
    from tests.support.tui import NOW, settle
    from tests.test_tui import detail

    def status(app) -> str:
        """What the status line draws (Textual's own rendering, markup included if it parsed any)."""
        return app.query_one("#status").render().plain

    path = tmp_path / "memory"
    MemoryStore.open(path).add_many(
        [
            {"id": "m_vim", "text": "in vim I type [/] to search"},
            {"id": "m_teal", "text": "teal [blue-green] and [bold]x[/bold]"},
        ]
    )
    app = MemoryBrowser(MemoryStore.open(path), now=NOW)

    async def main():
        async with app.run_test(size=(120, 36)) as pilot:
            await settle(pilot)
            rows = [app.table.get_row_at(i)[1].plain for i in range(app.table.row_count)]
            assert any("teal [blue-green] and [bold]x[/bold]" in row for row in rows), rows
            assert any("in vim I type [/] to search" in row for row in rows), rows
            app.table.focus()
            await settle(pilot)
            shown = detail(app)
            assert "[blue-green]" in shown or "[/]" in shown, shown
            app.query_one(Input).value = "[/] vim"
            await settle(pilot)
            assert "“[/] vim”" in status(app), status(app)
            assert "in vim I type [/] to search" in detail(app)

    asyncio.run(main())


def test_why_in_a_fresh_home_says_so_and_creates_nothing(macaron_home):
    one_line_error(cli("why"), "nothing to explain yet")
    assert not macaron_home.exists()


def test_json_output_is_valid_json_even_with_a_nan_from_an_older_store(capsys):
    from macaron_cli.output import print_json

    print_json([{"id": "m_1", "reward": float("nan"), "parts": {"w": float("inf")}, "text": "[/]"}])
    assert json.loads(capsys.readouterr().out) == [{"id": "m_1", "reward": None, "parts": {"w": None}, "text": "[/]"}]


def test_a_json_listing_written_item_by_item_reads_as_the_whole_object(capsys):
    from macaron_cli.output import print_json, print_json_listing

    head = {"file": "conversations.json", "added": 2, "reward": float("nan")}
    records = [{"id": "a", "title": "caf\udce9 [/]"}, {"id": "b", "w": float("inf")}]
    print_json({**head, "records": records, "labels": []})
    whole = capsys.readouterr().out
    print_json_listing(head, {"records": iter(records), "labels": iter([])})
    listed = capsys.readouterr().out
    assert json.loads(listed) == json.loads(whole) and listed.count("\n") == 1
