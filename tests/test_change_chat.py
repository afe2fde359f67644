"""Changing an app by asking in `macaron chat` (a real REPL in a pseudo-terminal, no model:
the offline rules of `macaron change`): the friend names the app and the change, asks, and
changes it, each change a checkpoint; `/change`; a change to an app the person does not
have is offered as a new app; a no writes nothing; ordinary chat is not taken for a change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from macaron_cli.checkpoints import AppRepo
from tests.friend_support import PROMPT, chat_env, leave, meet_friend_already, say, spawn_chat
from tests.test_change import scaffolded

pytestmark = pytest.mark.slow  # the chat in a real terminal; each change verifies the app in a browser


def _spec(apps: Path, slug: str) -> dict:
    return json.loads((apps / slug / "macaron.json").read_text(encoding="utf-8"))["spec"]


def _changes(apps: Path, slug: str) -> list[tuple[str, str]]:
    return [(c.phase, c.message) for c in AppRepo.open(apps / slug).checkpoints() if c.phase.startswith("change-")]


def _confirm(child, line: str, answer: str) -> str:
    """Say `line`, wait for the friend's yes/no question, answer it; what was shown from the
    line to the next prompt, its lines joined (the terminal wraps long ones)."""
    child.sendline(line)
    child.expect(r"\(y/n\)")
    question = child.before
    child.sendline(answer)
    child.expect_exact(PROMPT)
    return " ".join((question + child.before).split())


def test_a_change_asked_in_english_and_japanese_and_by_slash_command_changes_the_app(macaron_home, tmp_path):
    apps = tmp_path / "apps"
    chores = scaffolded("chores for me, Tom and Lily every week", "en", apps)
    water = scaffolded("track my daily water intake", "en", apps)
    meet_friend_already()
    child = spawn_chat(chat_env(), "--model", "none", timeout=180)
    child.expect_exact(PROMPT)

    shown = _confirm(child, "put Mia on the chores chart", "y")
    assert f"({chores})" in shown and "added Mia" in shown
    assert "Changed" in shown and "change-1" in shown and f"macaron rollback {chores} --steps 1 --yes" in shown
    assert "verify passed" in shown  # progress lines under the conversation

    shown = _confirm(child, "水分の目標を3リットルにして", "y")  # asked in Japanese: answered in Japanese
    assert f"（{water}）を変更しますか" in shown and "water goal 3,000 mL" in shown and "を変更しました" in shown

    shown = _confirm(child, f"/change {water} use cups, not ml", "y")
    assert "water in cups (goal 12 cups)" in shown and "change-2" in shown  # 3000 ml is 12 cups, not 3000

    assert "(y/n)" not in say(child, "I changed my mind about dinner")  # ordinary chat stays chat
    leave(child)

    assert "Mia" in _spec(apps, chores)["tasks"]["assignees"]
    (measure,) = _spec(apps, water)["measures"]
    assert (measure["unit"], measure["goal"]) == ("cups", 12)
    assert _changes(apps, chores) == [("change-1", "change: put Mia on the chores chart")]
    assert _changes(apps, water) == [
        ("change-1", "change: 水分の目標を3リットルにして"),
        ("change-2", "change: use cups, not ml"),
    ]


def test_a_declined_change_writes_nothing_and_a_change_to_no_app_is_offered_as_a_new_one(macaron_home, tmp_path):
    apps = tmp_path / "apps"
    chores = scaffolded("chores for me, Tom and Lily every week", "en", apps)
    before = (apps / chores / "macaron.json").read_bytes(), (apps / chores / "config" / "app.json").read_bytes()
    meet_friend_already()
    child = spawn_chat(chat_env(), "--model", "none", timeout=180)
    child.expect_exact(PROMPT)

    shown = _confirm(child, "집안일에서 Tom을 빼 줘", "n")  # take Tom off the chores (ko), then no
    assert "took off Tom" in shown and "아무것도 바꾸지 않았어요" in shown  # asked in Korean: said in Korean

    shown = _confirm(child, "add a sleep column to my mood diary", "n")
    assert "You have no app for that yet. Shall I make one?" in shown
    shown = _confirm(child, "/change journal add my mood", "n")
    assert "Shall I make one?" in shown
    leave(child)

    assert (
        (apps / chores / "macaron.json").read_bytes(),
        (apps / chores / "config" / "app.json").read_bytes(),
    ) == before
    assert _changes(apps, chores) == []
    assert sorted(p.name for p in apps.iterdir()) == [chores]  # no app made on a no


def test_a_change_in_a_japanese_chat_is_said_in_japanese(macaron_home, tmp_path):
    """The friend's question, its progress lines and its result line are in the chat's
    language; what the rules read (the goal, its unit) goes in as it is."""
    from macaron_cli.friend.persona import Persona, save_persona

    apps = tmp_path / "apps"
    water = scaffolded("毎日の水分補給を記録する", "ja", apps)
    save_persona(Persona(language="ja"))
    child = spawn_chat(chat_env(), "--model", "none", timeout=180)
    child.expect_exact(PROMPT)

    shown = _confirm(child, "水分の目標を3リットルにして", "はい")
    leave(child)

    assert f"（{water}）を変更しますか" in shown and "water goal 3,000 mL" in shown
    assert f"{water} を変更しています" in shown and "確認 合格" in shown
    assert "を変更しました" in shown and "テスト合格" in shown and "change-1" in shown
    assert f"元に戻すには: macaron rollback {water} --steps 1 --yes" in shown
    for english in ("Changed", "Changing", "verify passed", "undo:", "tests passed"):
        assert english not in shown
    assert _spec(apps, water)["measures"][0]["goal"] == 3000


def test_with_a_model_a_change_asked_in_english_and_korean_is_made_by_the_coder(macaron_home, tmp_path):
    """The friend on the scripted model server: a change asked in English, then one in Korean,
    each confirmed, each made by the model (its spec) and the coder (the real Agent SDK) as
    `macaron change` makes it: the spec changed, a `change-N` checkpoint holding the request."""
    from tests.friend_support import responder
    from tests.support.model_server import ModelServer, Reply

    apps = tmp_path / "apps"
    bp = scaffolded("blood pressure every morning", "en", apps)
    weight = {"key": "weight", "name": "체중", "unit": "kilogram", "kind": "quantity", "free_entry": True}

    def spec(req):  # the model's spec: with weight for the Korean request; none (the rules') else
        if "체중" not in req.raw:
            return Reply.text("{}")
        now = _spec(apps, bp)
        return Reply.text(json.dumps({"spec": {**now, "measures": [*now["measures"], weight]}}))

    meet_friend_already()
    with ModelServer(responder("Changed it."), spec=spec) as server:
        child = spawn_chat(chat_env(server), timeout=600)
        child.expect_exact(PROMPT)
        english = _confirm(child, "add my pulse to the blood pressure tracker", "y")
        korean = _confirm(child, "혈압 기록에 체중도 넣어줘", "네")
        leave(child)
        spec_requests = list(server.spec_requests)

    asked = [(english, "add my pulse to the blood pressure tracker"), (korean, "혈압 기록에 체중도 넣어줘")]
    assert f"({bp}): {asked[0][1]} (by Claude)?" in english and "Changed" in english, english
    # asked in Korean, answered in Korean: the app, the change, who makes it, then the result
    assert f"({bp})을(를) 바꿀까요: {asked[1][1]} (by Claude)" in korean and "을(를) 바꿨어요" in korean, korean
    assert "Traceback" not in english + korean
    assert len(spec_requests) == 2
    assert [m["key"] for m in _spec(apps, bp)["measures"]] == ["blood_pressure", "pulse", "weight"]
    assert _changes(apps, bp) == [
        ("change-1", "change: add my pulse to the blood pressure tracker"),
        ("change-2", "change: 혈압 기록에 체중도 넣어줘"),
    ]
