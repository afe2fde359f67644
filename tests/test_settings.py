"""config.toml belongs to the person: macaron changes one setting and keeps the rest as
they wrote it; onboarding keeps only answers that make sense."""

from __future__ import annotations

import os
import stat
import tomllib

from macaron_cli import config
from macaron_cli.friend import onboarding

WRITTEN_BY_HAND = """# my macaron settings
budget_usd = 3.5  # enough for a weekend
"my key" = "kept"
started = 2024-05-01
at = 1979-05-27T07:32:00Z
draft_url = "http://127.0.0.1:8080"

[persona]
# the lemon one, chosen on a Sunday
flavour = "lemon"
style = "warm"

[net.proxy.deep]
port = 8080

[[hosts]]
name = "laptop"

[[hosts]]
name = "desktop"  # the big one
"""


def test_saving_one_setting_keeps_everything_else_byte_for_byte(macaron_home, macaron):
    config.ensure_private_dir(macaron_home)
    path = config.config_path()
    path.write_text(WRITTEN_BY_HAND, encoding="utf-8")

    config.save_settings({"draft_url": "http://127.0.0.1:9090", "budget_usd": 3.5})

    after = path.read_text(encoding="utf-8")
    assert after == WRITTEN_BY_HAND.replace("127.0.0.1:8080", "127.0.0.1:9090")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert [p.name for p in macaron_home.iterdir()] == ["config.toml"]  # no temp file left

    # A new key and a new value inside a table: every line the person wrote is still there, in order.
    config.save_settings({"language": "ja", "persona": {"flavour": "matcha", "traits": ["calm"], "call_me": None}})
    before = after.splitlines()
    lines = path.read_text(encoding="utf-8").splitlines()
    assert [line for line in lines if line in before] == [line for line in before if line != 'flavour = "lemon"']
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert data["persona"] == {"flavour": "matcha", "style": "warm", "traits": ["calm"]}
    assert data["my key"] == "kept" and data["net"]["proxy"]["deep"]["port"] == 8080
    assert [h["name"] for h in data["hosts"]] == ["laptop", "desktop"]
    assert data["started"].isoformat() == "2024-05-01" and data["at"].year == 1979
    assert config.load_settings().language == "ja"

    # And every command still works with it.
    done = macaron("memory", "list")
    assert done.returncode == 0, done.stderr


def test_a_setting_of_the_wrong_type_is_one_line_naming_it(macaron_home, macaron):
    config.ensure_private_dir(macaron_home)
    config.config_path().write_text('budget_usd = "lots"\n', encoding="utf-8")
    done = macaron("memory", "list")
    assert done.returncode == 2
    assert "budget_usd" in done.stderr and "Traceback" not in done.stderr


def test_the_tables_and_the_agents_model_are_typed_settings_too(macaron_home, macaron):
    # `model` (the coder's Claude), [prices] and the persona were read around the typed
    # settings, so a wrong one was ignored or failed deep in a make; now it is one line.
    config.ensure_private_dir(macaron_home)
    path = config.config_path()
    for line, key in (
        ("model = 4\n", "`model`"),
        ('prices = "cheap"\n', "`prices`"),
        ('persona = "me"\n', "`persona`"),
    ):
        path.write_text(line, encoding="utf-8")
        done = macaron("memory", "list")
        assert done.returncode == 2 and key in done.stderr and "Traceback" not in done.stderr, line
    path.write_text('model = "claude-opus-4-5"\ndocker_image = "python:3.12"\n[prices."m"]\ninput = 1\noutput = 2\n')
    settings = config.load_settings()
    assert (settings.agent_model, settings.docker_image) == ("claude-opus-4-5", "python:3.12")
    assert dict(settings.prices["m"]) == {"input": 1, "output": 2}


def quiz(answers: list[str]):
    said: list[str] = []
    replies = iter(answers)
    result = onboarding.run_quiz(lambda _prompt: next(replies), said.append)
    return result, said


def test_onboarding_refuses_a_command_as_a_language_and_asks_again():
    result, said = quiz(["Kim", "/help", "klingon please", "pt-br", "skip"])
    assert result.persona.language == "pt-BR"
    assert sum("I don't know that language" in line or "Commands can wait" in line for line in said) == 2


def test_onboarding_takes_no_question_for_a_name_and_asks_again():
    """Someone who thinks the chat has begun asks it something at "What should I call you?"."""
    result, said = quiz(["where do I live?", "I just moved here and need help with my rent", "Mika", "skip"])
    assert result.persona.call_me == "Mika"
    assert sum("a name or a nickname" in line for line in said) == 3  # the question, then two asks again


def test_onboarding_takes_a_language_by_name_or_falls_back_to_english():
    assert quiz(["", "Japanese", "skip"])[0].persona.language == "ja"
    assert quiz(["", "", "skip"])[0].persona.language == "en"
    assert onboarding.result_from_answers({"language": "/help"}).persona.language == "en"
