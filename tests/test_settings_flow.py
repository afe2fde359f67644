"""The person's settings are read once, by the command, and passed down: a library module
that read config.toml itself would see other settings than the command that called it
(after /nudges off, say), and could not be given a test's own."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from macaron_cli import config

PACKAGE = Path(__file__).resolve().parents[1] / "macaron_cli"

# The command layer: where a command (or a process of macaron's own) starts. Only these
# read config.toml; everything under them takes the Settings they were given.
READS_SETTINGS = {
    "config.py",  # defines load_settings; save_settings reads back what it wrote
    "cli.py",  # a forget a crash cut short is finished before any command
    "doctor.py",
    "forget_command.py",
    "run_command.py",
    # The walls hide the store wherever config.toml puts it, for a caller given no settings too:
    # a wall built from the defaults would leave a store kept elsewhere in sight.
    "sandbox/walls.py",
    "friend/commands.py",  # `macaron chat`: the REPL holds what it loaded (and saved)
    "ledger/commands.py",
    "lifelog/commands.py",
    "maker/commands.py",
    "mcp_server/commands.py",  # `macaron memory serve`
    "memory/commands.py",
    "memory/reembed_worker.py",  # a process of its own
    "models/commands.py",
    "tui/app.py",  # `macaron memory` opens the browser
}


def _naming_load_settings(path: Path) -> list[int]:
    """Lines of `path` that import, call or hand on load_settings."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.lineno
        for node in ast.walk(tree)
        if (isinstance(node, ast.Name) and node.id == "load_settings")
        or (isinstance(node, ast.Attribute) and node.attr == "load_settings")
        or (isinstance(node, ast.alias) and node.name == "load_settings")
    ]


def test_only_the_command_layer_reads_the_settings():
    found = [
        f"{rel}:{line}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if (rel := path.relative_to(PACKAGE).as_posix()) not in READS_SETTINGS
        for line in _naming_load_settings(path)
    ]
    assert found == [], "take the Settings as a parameter instead; the command loads them once"


def test_every_module_allowed_to_read_them_still_exists():
    # A moved or renamed command module would otherwise keep an allowance nobody uses.
    assert all((PACKAGE / rel).is_file() for rel in READS_SETTINGS)


def _stores_opened_without_settings(path: Path) -> list[int]:
    """Lines of `path` that call MemoryStore.open(…) with neither `settings=` nor a second argument."""
    return [
        node.lineno
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "open"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "MemoryStore"
        and len(node.args) < 2
        and not any(k.arg == "settings" for k in node.keywords)
    ]


def test_the_package_opens_the_memory_with_the_persons_settings():
    # Without them a store opens with the defaults: the bundled embedding model, which would
    # swap out the vectors of a larger model the person chose, and the default decay.
    found = [
        f"{path.relative_to(PACKAGE).as_posix()}:{line}"
        for path in sorted(PACKAGE.rglob("*.py"))
        for line in _stores_opened_without_settings(path)
    ]
    assert found == []


def test_settings_handed_down_cannot_be_changed_by_one_reader_under_another(macaron_home):
    settings = config.save_settings({"trusted_endpoints": ["http://127.0.0.1:9"], "persona": {"call_me": "Sam"}})
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.app_nudges = False
    with pytest.raises(TypeError):
        settings.raw["persona"]["call_me"] = "Alex"
    with pytest.raises(AttributeError):
        settings.trusted_endpoints.append("https://elsewhere.example")
    assert settings == config.load_settings()
    assert settings.raw["persona"]["call_me"] == "Sam"
