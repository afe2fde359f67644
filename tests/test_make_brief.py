"""The brief: relevant memories, filtered by where the brief goes; the person's locale."""

from __future__ import annotations

import pytest

from macaron_cli import privacy
from macaron_cli.config import Settings
from macaron_cli.maker.brief import build_brief
from macaron_cli.memory import MemoryStore
from macaron_cli.reading.advice import advice_kind
from macaron_cli.reading.personal import personal_settings

HABITS = "Log daily habits and intake against goals: water, steps, sleep."


@pytest.fixture
def store(macaron_home):
    s = MemoryStore.open()
    s.add("I drink my water from a 500 ml bottle at my desk", domain="health")
    s.add("I am saving for a trip to Kyoto in spring", domain="finance")
    s.add("My kidney doctor told me to limit water after 8 pm", domain="health", privacy="private")
    s.add("The surprise party water balloons are hidden in the garage", privacy="secret")
    return s


def texts(brief):
    return " | ".join(m.text for m in brief.memories)


def test_cloud_brief_has_personal_memories_but_never_private_or_secret(store):
    brief = build_brief(
        "a hydration tracker",
        store,
        Settings(),
        privacy.claude(Settings(), "https://api.anthropic.com"),
        context=HABITS,
    )
    assert "500 ml bottle" in texts(brief)  # found through what the app is about (its template: water)
    assert "kidney" not in texts(brief) and "surprise" not in texts(brief)
    assert "kidney" not in brief.markdown()


def test_a_template_saying_today_brings_no_memory_for_being_from_today(store):
    """Every memory in the fixture was made today; "today's log" in what the app is about names
    no day of the person's, so a memory no word of the idea or the app matches stays out."""
    brief = build_brief("a sleep tracker", store, Settings(), None, context="Progress bars and today's log.")
    assert "Kyoto" not in texts(brief) and "bottle" not in texts(brief)


def test_local_or_trusted_endpoint_may_see_private_but_never_secret(store):
    local = build_brief(
        "a hydration tracker",
        store,
        Settings(),
        privacy.local_model("http://127.0.0.1:8000", Settings()),
        context=HABITS,
    )
    trusted_settings = Settings(trusted_endpoints=["https://gpu.example:9000"])
    trusted = build_brief(
        "a hydration tracker",
        store,
        trusted_settings,
        privacy.claude(trusted_settings, "https://gpu.example:9000"),
        context=HABITS,
    )
    for brief in (local, trusted):
        assert "kidney" in texts(brief) and "surprise" not in texts(brief)


def test_brief_speaks_the_ideas_language_with_its_currency(store):
    brief = build_brief("家計簿アプリがほしい", store, Settings(color="pistachio"), None)
    assert brief.language == "ja" and brief.app_settings["currency"] == "JPY" and brief.accent == "#B5EAD7"
    assert build_brief("Gusto ko ng talaan ng gastos ko", store, Settings(), None).language == "tl"


def test_memories_override_language_defaults():
    assert personal_settings("en", ["I get paid in pesos"])["currency"] == "PHP"
    assert personal_settings("en", ["I weigh myself in pounds"])["units"] == "imperial"
    assert personal_settings("ko", [])["currency"] == "KRW"


@pytest.mark.parametrize(
    "idea,kind",
    [
        ("an insulin dose calculator", "medical"),
        ("a symptom checker that diagnoses my rash", "medical"),
        ("薬の服用量を計算するアプリ", "medical"),
        ("an app that tells me which stocks to invest in", "financial"),
        ("a loan repayment planner", "financial"),
        ("대출 상환 계산기", "financial"),
        ("投资组合建议", "financial"),
        ("a water tracker", None),
        ("a mood diary", None),
        ("track my spending", None),
        ("毎日の水分記録", None),
        ("a medication taken checklist", None),
    ],
)
def test_advice_apps_are_recognised_and_plain_trackers_are_not(idea, kind):
    assert advice_kind(idea) == kind


@pytest.mark.parametrize(
    "memory",
    [
        "I use kilometers, not miles",
        "マイルじゃなくてキロで考えてる",
        "마일 말고 킬로미터를 써요",
        "我跑步不用英里，用公里",
        "hindi milya kundi kilometro ang gamit ko",
    ],
)
def test_a_unit_said_not_to_be_used_keeps_the_app_metric(memory):
    assert personal_settings("en", [memory])["units"] == "metric"
    assert personal_settings("en", ["I think in miles, not km"])["units"] == "imperial"


def test_the_coder_hears_what_is_true_now_not_what_a_newer_memory_replaced(macaron_home):
    """The brief and the coder's memory tool answer from what is true now: "we moved to
    Tokyo" goes to the coder, "I live in Osaka", which it replaced, stays home as history."""
    from macaron_cli.maker.tools import search_memories

    store = MemoryStore.open()
    store.add("I live in Osaka and walk to the market", created_at="2024-03-01T09:00:00Z")
    store.add("we moved to Tokyo, not in Osaka anymore", created_at="2024-04-20T09:00:00Z")
    cloud = privacy.claude(Settings(), "https://api.anthropic.com")
    brief = build_brief("a walking tracker for where I live", store, Settings(), cloud, context="Osaka walks")
    asked = search_memories(store, "where do I live", cloud)
    for found in (texts(brief), " | ".join(m.text for m in asked.memories)):
        assert "moved to Tokyo" in found and "I live in Osaka" not in found, found
    assert asked.left_out == 1
