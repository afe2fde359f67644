"""The friend's parts in process: fair gifts and persona, learning, superseding, the router."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

import pytest

from macaron_cli import config, privacy
from macaron_cli.config import Settings
from macaron_cli.friend import onboarding, router
from macaron_cli.friend.extract import Extractor, parse_memories
from macaron_cli.friend.persona import Persona
from macaron_cli.friend.recall import recall, reward, upcoming
from macaron_cli.manifest import Manifest
from macaron_cli.memory import MemoryStore
from macaron_cli.models.registry import open_model
from macaron_cli.privacy import CLOUD_LEVELS
from tests.friend_support import EXTRACT_MARK
from tests.support.model_server import ModelServer, Reply

CLOUD = privacy.claude(Settings(), "https://api.anthropic.com")
MANIFESTS = [
    Manifest.from_json(m)
    for m in [
        {
            "name": "habit-tracker",
            "title": "Habit tracker",
            "description": "Daily habits and streaks",
            "keywords": ["habit", "streak", "習慣"],
        },
        {
            "name": "run-log",
            "title": "Run log",
            "description": "Log your runs, pace and distance",
            "keywords": ["running", "run", "pace", "ラン"],
        },
        {
            "name": "recipe-box",
            "title": "Recipe box",
            "description": "Recipes you love, with a shopping list",
            "keywords": ["cooking", "recipe", "food"],
        },
        {
            "name": "budget",
            "title": "Budget",
            "description": "Track spending against a monthly budget",
            "keywords": ["money", "budget"],
        },
        {
            "name": "reading-list",
            "title": "Reading list",
            "description": "Books to read and notes",
            "keywords": ["reading", "book"],
        },
    ]
]


@pytest.mark.parametrize(
    "traits",
    [
        ("I'm a woman", "I'm a man"),
        ("she/her, 62 years old", "he/him, 19 years old"),
        ("as a muslim mother", "as a christian father"),
    ],
)
def test_gifts_and_persona_do_not_depend_on_protected_traits(traits):
    results = []
    for trait in traits:
        answers = {
            "call_me": "Kim",
            "evening": "a",
            "interests": f"cooking, {trait}, money",
            "style": "c",
            "change": "b",
            "flavour": "b",
            "language": "en",
        }
        quiz = onboarding.result_from_answers(answers)
        gifts = [g.name for g in onboarding.choose_gifts(quiz.interests, MANIFESTS)]
        results.append((quiz.persona, quiz.interests, gifts))
    assert results[0] == results[1]
    persona, _interests, gifts = results[0]
    assert set(gifts) == {"run-log", "recipe-box", "budget"}
    assert persona.flavour == "raspberry" and persona.style == "playful"


def test_gifts_follow_interests_in_other_languages():
    gifts = onboarding.choose_gifts(["習慣づくり", "reading"], MANIFESTS, n=2)
    assert {g.name for g in gifts} == {"habit-tracker", "reading-list"}


def test_the_voice_uses_polite_forms_in_japanese_and_korean():
    assert "です・ます" in Persona(language="ja").voice()
    assert "존댓말" in Persona(language="ko").voice()
    assert "lavender" in Persona(flavour="lavender").voice()


def test_a_later_chat_opens_politely_from_what_the_friend_knows(macaron_home):
    from macaron_cli.friend.conversation import Conversation
    from macaron_cli.models.chat import NoModel

    store = MemoryStore.open()
    store.add("Interested in pottery", kind="preference")
    store.add("Aoi's birthday", event_at=(datetime.now(UTC) + timedelta(days=2)).isoformat())
    lines = Conversation(store, NoModel(), Persona(language="ja", call_me="Aoi")).opening()
    assert lines[0].startswith("こんにちは Aoiさん") and "です" in lines[0]
    assert any("pottery" in line for line in lines) and any("Aoi's birthday" in line for line in lines)


def test_the_opening_shows_the_person_private_memories_but_never_a_secret(macaron_home):
    from macaron_cli.friend.conversation import Conversation
    from macaron_cli.models.chat import NoModel

    store = MemoryStore.open()
    store.add("Interested in pottery", kind="preference", privacy="private")
    store.add("Saving for a surprise trip to Lisbon", kind="preference", privacy="secret")
    lines = Conversation(store, NoModel(), Persona()).opening()
    assert any("pottery" in line for line in lines), lines
    assert not any("Lisbon" in line for line in lines), lines


def test_the_claude_endpoint_is_cloud_even_on_loopback_unless_trusted(macaron_home, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    assert open_model(None, config.load_settings()).privacy_levels == CLOUD_LEVELS
    config.save_settings({"trusted_endpoints": ["http://127.0.0.1:9"]})
    assert "private" in open_model("claude", config.load_settings()).privacy_levels
    monkeypatch.setenv("MACARON_DRAFT_URL", "http://10.0.0.7:8000")
    assert open_model("local", config.load_settings()).privacy_levels == CLOUD_LEVELS  # remote counts as cloud


def test_model_replies_are_parsed_leniently():
    assert parse_memories('Sure! ```json\n{"memories": [{"text": "Likes tea"}]}\n```') == [{"text": "Likes tea"}]
    assert parse_memories("no json here") == []


def _extractor(store, server):
    import anthropic  # noqa: F401  (the backend imports it lazily)

    from macaron_cli.models.chat import AnthropicWireModel

    model = AnthropicWireModel("claude", server.url, "m", "k", None, privacy.claude(Settings(), server.url))
    return Extractor(store, model)


def test_a_new_fact_supersedes_the_old_one_and_both_are_kept(macaron_home):
    store = MemoryStore.open()
    old = store.add("Lives in Berlin", domain="home")
    store.add("Keeps a diary of health symptoms", privacy="private", domain="health")

    def respond(req):
        assert EXTRACT_MARK in req.system
        assert "symptoms" not in req.raw  # related memories sent for linking are privacy-filtered too
        facts = [
            {
                "text": "Lives in Lisbon",
                "kind": "fact",
                "domain": "home",
                "privacy": "personal",
                "supersedes": old.id,
                "stressed": False,
            }
        ]
        return Reply.text(json.dumps({"memories": facts}))

    with ModelServer(respond) as server:
        extractor = _extractor(store, server)
        extractor.submit("I moved! I live in Lisbon now, not Berlin.")
        extractor.drain()
    assert not extractor.take_errors()
    new = extractor.saved[0]
    assert new.supersedes == old.id and new.reward > 0  # "moved!" was stressed
    assert store.get(old.id).valid_until is not None
    found = [h.memory.text for h in recall(store, "where do I live, Berlin or Lisbon?", CLOUD)]
    assert "Lives in Lisbon" in found and "Lives in Berlin" not in found


def test_a_model_that_invents_a_link_cannot_expire_an_unrelated_memory(macaron_home):
    store = MemoryStore.open()
    keep = store.add("Secret plan for a surprise", privacy="secret")
    reply = {"memories": [{"text": "Likes jazz", "supersedes": keep.id}]}
    with ModelServer([Reply.text(json.dumps(reply))]) as server:
        extractor = _extractor(store, server)
        extractor.submit("I like jazz")
        extractor.drain()
    assert extractor.saved[0].supersedes is None
    assert store.get(keep.id).valid_until is None


def test_good_and_bad_move_the_reward_of_the_memories_used(macaron_home):
    store = MemoryStore.open()
    store.add("Prefers morning runs", domain="fitness")
    hits = recall(store, "when do I like to run?", CLOUD)
    reward(store, hits, liked=True)
    reward(store, hits, liked=True)
    reward(store, hits, liked=False)
    assert store.get(hits[0].memory.id).reward == pytest.approx(0.5)


def test_events_in_the_next_week_come_up_privacy_filtered(macaron_home):
    store = MemoryStore.open()
    now = datetime.now(UTC)
    store.add("Mia's birthday", event_at=(now + timedelta(days=3)).isoformat())
    store.add("Dentist appointment", event_at=(now + timedelta(days=2)).isoformat(), privacy="private")
    store.add("Trip to Kyoto", event_at=(now + timedelta(days=30)).isoformat())
    assert [m.text for m in upcoming(store, CLOUD)] == ["Mia's birthday"]
    assert [m.text for m in upcoming(store, privacy.person())] == ["Dentist appointment", "Mia's birthday"]


@pytest.mark.parametrize(
    "text,wanted",
    [
        ("can you make me something to track my runs?", True),
        ("Could you build a tracker for my water intake", True),
        ("I need an app for my reading list", True),
        ("ランニングの記録アプリを作ってください", True),
        ("I made a cake yesterday", False),
        ("can you make sense of this?", False),
        ("my app at work crashed", False),
    ],
)
def test_the_router_notices_requests_for_a_tool(text, wanted):
    assert router.wants_a_tool(text) is wanted


def test_every_slash_command_in_help_runs_and_every_handler_is_in_help():
    """/help and dispatch read one table: a command cannot be listed and unknown, or run and unlisted."""
    from rich.console import Console

    from macaron_cli.friend import repl

    console = Console(record=True, width=120)
    chat = repl.Repl(console, conversation=None, settings=Settings())
    chat.command("/help")
    listed = [line.split()[0] for line in console.export_text().splitlines() if line.startswith("/")]
    assert listed == [f"/{c.name}" for c in repl.COMMANDS]
    assert "/memory" in listed and "/forget" in listed
    assert chat.command("/exit") == "exit" and chat.command("/quit") == "exit"
    chat.command("/nosuch")
    assert "Unknown command /nosuch" in console.export_text()
    handlers = {name for name in vars(repl.Repl) if name.startswith("cmd_")}
    assert handlers == {c.handler.__name__ for c in repl.COMMANDS}


def test_every_line_the_friend_says_is_in_five_languages_and_fills_in_as_english_does():
    """A key a language lacks would be said in English; a placeholder English does not fill
    would end the chat with a KeyError, so each language's lines use only English's."""
    import string

    from macaron_cli import lang
    from macaron_cli.friend.phrases import said

    def holes(line: str) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(line) if name}

    for language in ("en", "ja", "ko", "zh", "tl"):
        lines = lang.lines(language)
        assert set(lines) == set(lang.SAYINGS), language
        for key, line in lines.items():
            assert holes(line) <= holes(lang.line(key, "en")), (language, key)
    assert said("zh", "change.declined") == "什么都没有改。" and said("xx", "change.declined") == "Nothing changed."


@pytest.mark.parametrize(
    ("idea", "language", "asked"),
    [
        ("毎日の水分補給を記録する", "ja", "もっと落ち着いた感じにして"),
        ("bilangin ang baso ng tubig na iniinom ko araw-araw", "tl", "gawin mong mas kalmado ang itsura"),
    ],
)
def test_a_change_the_rules_cannot_read_is_refused_in_one_sentence_of_the_askeds_language(
    macaron_home, tmp_path, idea, language, asked
):
    from macaron_cli.friend.changes import not_done
    from macaron_cli.maker.change import plan_change
    from tests.test_change import scaffolded

    slug = scaffolded(idea, language, tmp_path / "apps")
    line = not_done(plan_change(slug, asked, offline=True), language)
    said, hint = line.split("macaron change", 1)
    assert asked in said and asked in hint, line  # quoted as the language quotes
    assert not re.search(r"\b(rules|change|know|not)\b", said), line  # no English inside the reply
    assert "\n" not in line


def test_a_change_the_app_already_does_is_said_in_the_chats_language_whole(macaron_home, tmp_path):
    """ "민수 추가해줘" where 민수 is in the app: the friend's one line is Korean throughout,
    what the app already does included (reading/change_ask.py's Asked.already)."""
    from macaron_cli.friend.changes import not_done
    from macaron_cli.maker.change import plan_change
    from tests.test_change import scaffolded

    slug = scaffolded("룸메이트 지훈이랑 민수랑 집안일 당번", "ko", tmp_path / "apps")
    line = not_done(plan_change(slug, "민수 추가해줘", offline=True), "ko")
    assert line.endswith("이미 그래요: 민수 님은 이미 이 앱에 있어요."), line
    assert not re.search(r"\b(already|this app)\b", line), line
