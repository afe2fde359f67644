"""What a make understood is said before anything is written, in the app's language, and
corrected in words (maker/understood.py): the correction is read by the change rules and
folded into the Plan; one they cannot read is said in one sentence; no writes nothing."""

from __future__ import annotations

import pytest


def planned(idea: str):
    from macaron_cli import config
    from macaron_cli.maker.plan import plan_make
    from macaron_cli.maker.progress import Progress
    from macaron_cli.maker.request import MakeRequest
    from macaron_cli.memory import embeddings

    settings = config.load_settings()
    embeddings.choose(settings.embedding_model)
    return plan_make(MakeRequest(idea=idea, offline=True), settings, Progress())


@pytest.mark.parametrize(
    ("idea", "said"),
    [
        ("a budget for food, 300 dollars a month", "Money in USD; a budget of 300 USD a month. Go ahead, or tell me"),
        ("家計簿、月の予算5万円", "お金は JPY。月の予算 50,000 JPY。これで作りますか？"),
        ("countdown to my wedding on 2027-05-16", "Counting down to wedding on 2027-05-16. Go ahead"),
        ("chores for Sam and Mia every week", "People: Sam, Mia. Go ahead"),
    ],
)
def test_what_a_make_understood_is_said_in_the_apps_language(macaron_home, idea, said):
    from macaron_cli.maker.understood import summary

    assert summary(planned(idea)).startswith(said), summary(planned(idea))


def test_a_correction_is_folded_into_the_plan_and_one_no_rule_reads_is_said(macaron_home):
    from macaron_cli.maker.understood import settled

    shown: list[str] = []
    answers = iter(["no, in pounds", "make it cosier", "yes"])

    def ask(text: str, answers_taken: str) -> str:
        shown.append(text)
        assert answers_taken == "yes / no / what to change"
        return next(answers)

    plan = settled(planned("track my weight every morning, goal 62 kg"), ask)
    assert "in kg, goal 62." in shown[0]
    assert "in lb, goal 136.7." in shown[1]  # the page shows pounds: the records stay kilograms
    assert shown[2].startswith("I could not read that as a change: “make it cosier” is not a change the rules know.\n")
    assert plan.corrected == {"units": "imperial"}
    assert not (macaron_home.parent / "apps").exists()  # nothing written while asking


def test_a_no_declines_in_the_apps_language_and_no_one_to_ask_keeps_the_plan(macaron_home):
    from macaron_cli.maker.understood import Declined, settled

    plan = planned("毎日の体重を記録したい、目標62kg")
    with pytest.raises(Declined, match="何も作りませんでした。"):
        settled(plan, lambda text, answers: "いいえ")
    assert settled(plan, None) is plan  # --yes, a pipe, the chat
