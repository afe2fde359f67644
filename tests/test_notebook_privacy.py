"""What the notebook (`macaron chat` with no model) keeps, and how privately: a line said to
be private stays private once a model is connected, through every way out (the model's
requests, an MCP client's search and recent, `feedback export`); and, per language, the
rules that read a line (privately said, sensitive, a fact worth keeping, a request)."""

from __future__ import annotations

import pytest

from macaron_cli import privacy
from macaron_cli.friend.extract import is_a_request, worth_noting
from macaron_cli.memory import MemoryStore
from tests.friend_support import PROMPT, chat_env, is_chat, leave, meet_friend_already, responder, say, spawn_chat
from tests.support.model_server import ModelServer

SAID_PRIVATE = "this stays between us but i applied to culinary school in lyon"
PLAIN = "my sister mia lives in lisbon now"


@pytest.mark.slow
def test_a_line_said_private_offline_never_leaves_once_a_model_is_connected(macaron_home, macaron, tmp_path):
    from tests.test_mcp_server import run, stdio_session, text_of

    meet_friend_already()
    child = spawn_chat(chat_env(), "--model", "none")
    child.expect_exact(PROMPT)
    assert "kept private" in say(child, SAID_PRIVATE)
    assert "Noted." in say(child, PLAIN)
    leave(child)
    kept = [m for m in MemoryStore.open().iter_all() if "culinary" in m.text]
    assert {m.kind for m in kept} == {"fact", "episode"}  # the line, and the episode quoting it
    assert all(m.privacy == "private" for m in kept), [(m.kind, m.privacy) for m in kept]

    with ModelServer(responder("Lyon sounds exciting!")) as server:
        child = spawn_chat(chat_env(server))
        child.expect_exact(PROMPT)
        say(child, "what do you remember about school, lyon and lisbon?")
        say(child, "/good")
        leave(child)
    sent = "\n".join(r.raw for r in server.requests)
    assert "lisbon now" in sent  # the plain fact goes to the model (it was asked about)
    assert "culinary" not in sent.lower()

    async def ask_as_a_client():
        async with stdio_session("claude-code") as session:
            found = await session.call_tool("search", {"query": "culinary school lyon"})
            recent = await session.call_tool("recent", {"n": 50})
            return text_of(found) + text_of(recent)

    assert "culinary" not in run(ask_as_a_client()).lower()
    _app_with_both_lines_pasted()
    exported = tmp_path / "feedback.jsonl"
    done = macaron("feedback", "export", exported)
    assert done.returncode == 0, done.stderr
    assert "lisbon now" in exported.read_text()  # the plain line, pasted, goes
    assert "culinary" not in exported.read_text().lower()


def _app_with_both_lines_pasted() -> None:
    """An offline app whose page the person edited, pasting both lines they said, committed."""
    import subprocess

    from macaron_cli import config
    from macaron_cli.apps import register
    from macaron_cli.ledger import signals

    app = config.apps_dir() / "notes"
    (app / "static").mkdir(parents=True)
    page = app / "static" / "index.html"
    for text, message in (("<p>hello</p>", "scaffold"), (f"<p>{SAID_PRIVATE}</p><p>{PLAIN}</p>", "my notes")):
        page.write_text(text + "\n")
        for step in (["init", "-q"], ["add", "-A"], ["commit", "-qm", message]):
            subprocess.run(["git", "-C", str(app), "-c", "user.name=t", "-c", "user.email=t@t", *step], check=True)
    register("notes", path=str(app), idea="a notes app", template="habit-tracker", mode="offline")
    signals.brief_made("notes", privacy.nothing(privacy.app_folder()), template="habit-tracker", domain="family")


@pytest.mark.slow
def test_a_memory_kept_private_is_opened_with_share(macaron_home):
    meet_friend_already()
    child = spawn_chat(chat_env(), "--model", "none")
    child.expect_exact(PROMPT)
    say(child, "i take metformin 500 mg twice a day")
    leave(child)  # what was noted is written by the time the chat ends
    [kept] = [m for m in MemoryStore.open().iter_all() if m.kind == "fact"]
    assert kept.privacy == privacy.PRIVATE
    child = spawn_chat(chat_env(), "--model", "none")
    child.expect_exact(PROMPT)
    assert "any model may hear" in say(child, f"/share {kept.id}")
    assert "no memory" in say(child, "/share m-nothing-like-it").lower()  # one line; the chat goes on
    leave(child)
    assert MemoryStore.open().get(kept.id).privacy == privacy.opened()


@pytest.mark.parametrize(
    ("language", "said", "noted"),
    [
        ("en", "dont tell anyone but im moving to osaka", "Noted, and kept private: no cloud model will hear it"),
        ("ja", "ここだけの話、彼と婚約した", "メモしました。非公開にしておきます"),
    ],
)
def test_the_notebook_answers_in_the_chats_language_wrapped_between_words(macaron_home, language, said, noted):
    from macaron_cli.friend.persona import Persona, save_persona

    save_persona(Persona(language=language))
    child = spawn_chat(chat_env(extra={"COLUMNS": "80"}), "--model", "none", columns=80)
    child.expect_exact(PROMPT)
    answer = say(child, said)
    leave(child)
    lines = [line for line in answer.replace("\r", "").split("\n") if line.strip()][1:]  # after the echo
    assert all(len(line) <= 80 for line in lines), lines  # wrapped by macaron, not cut by the terminal
    assert noted in " ".join(lines) or noted in "".join(lines), lines
    assert any("/share ID" in line for line in lines), lines  # the hint whole, never split mid-word


# ── the rules, per language ─────────────────────────────────────────────────────────────
SAID_PRIVATE_LINES = [
    "dont tell anyone but im moving to osaka",
    "ここだけの話、彼と婚約した",
    "비밀인데 나 시험 떨어졌어",
    "别告诉别人，我在找新工作",
    "sikreto lang natin, lilipat kami sa davao",
]
SENSITIVE_LINES = [
    "i take 20mg of lexapro every night",
    "年収は450万くらい",
    "남편이랑 이혼 준비 중이야",
    "我每个月还房贷八千",
    "may utang ako sa kaibigan ko",
]
FACT_LINES = [
    "my brother leo lives in denver",
    "姉は来月ニューヨークに引っ越す",
    "준호는 고양이를 좋아해",
    "小李下周去北京出差",
    "ikakasal si mara sa hunyo",
]
REQUEST_LINES = [
    "add a mood column to my diary app",
    "睡眠アプリを作って",
    "내 독서 앱에 별점 추가해 줘",
    "把我的跑步记录改成公里",
    "palitan mo yung kulay ng budget app ko",
]


@pytest.mark.parametrize("line", SAID_PRIVATE_LINES + SENSITIVE_LINES)
def test_said_private_or_sensitive_is_private(line):
    assert privacy.level_said(line) == privacy.PRIVATE
    assert worth_noting(line)  # and it is kept, privately


@pytest.mark.parametrize("line", FACT_LINES)
def test_a_plain_fact_is_kept_and_shareable(line):
    assert worth_noting(line) and privacy.level_said(line) == privacy.FLOOR


@pytest.mark.parametrize("line", REQUEST_LINES)
def test_a_request_is_never_a_fact(line):
    assert is_a_request(line) and not worth_noting(line)


def test_a_models_label_can_only_be_stricter(macaron_home):
    """The model calls a sensitive line's memory personal: it is kept private all the same."""
    from macaron_cli.friend.extract import Extractor
    from macaron_cli.models.chat import NoModel

    extractor = Extractor(MemoryStore.open(), NoModel())
    item = {"text": "Takes lexapro at night", "kind": "fact", "privacy": "personal"}
    kept = extractor._store(item, "i take 20mg of lexapro every night", False, [])
    assert kept.privacy == privacy.PRIVATE
    secret = extractor._store({**item, "privacy": "secret"}, "i take 20mg of lexapro every night", False, [])
    assert secret.privacy == privacy.SECRET


def test_the_episode_keeps_every_turn_whole_and_private_ones_apart(macaron_home):
    from macaron_cli.friend.conversation import EPISODE_CHARS, Conversation
    from macaron_cli.friend.persona import Persona
    from macaron_cli.models.chat import NoModel

    store = MemoryStore.open()
    conv = Conversation(store, NoModel(), Persona())
    lines = [f"my friend number {i} keeps {i} bees and sells honey at the market next year" for i in range(12)]
    lines.insert(5, SAID_PRIVATE)
    for line in lines:
        list(conv.reply(line, conv.recall_for(line)))
    episodes = conv.end()
    assert len(episodes) > 2 and all(len(e.text) <= EPISODE_CHARS for e in episodes)  # several, none cut
    for line in lines:
        [holder] = [e for e in episodes if line in e.text]
        expected = privacy.PRIVATE if line == SAID_PRIVATE else privacy.FLOOR
        assert holder.privacy == expected, (line, holder.privacy)


def test_a_turn_said_private_goes_to_the_model_it_is_said_to_and_no_further(macaron_home, monkeypatch):
    """Said to Claude itself, the line is answered; the next request holds it withheld."""
    from macaron_cli import config
    from macaron_cli.friend.conversation import Conversation
    from macaron_cli.friend.persona import Persona
    from macaron_cli.models.registry import open_model

    with ModelServer(responder("Good luck!")) as cloud:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", cloud.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
        conv = Conversation(MemoryStore.open(), open_model("claude", config.load_settings()), Persona())
        for line in (SAID_PRIVATE, "what should i cook tonight?"):
            "".join(conv.reply(line, conv.recall_for(line)))
        conv.extractor.drain()
        first, second = [r for r in cloud.requests if is_chat(r)]
    assert "culinary" in first.last_user_text()
    assert "culinary" not in second.raw and "withheld" in second.raw
