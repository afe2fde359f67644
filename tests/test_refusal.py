"""Why a change is not done is one sentence in the request's language (maker/refusal.py), for
`macaron change`, the chat and a correction of what a make understood: a request no rule reads
is "not a change the rules know", never "the rules cannot do “…”", and no English sits inside a
Japanese, Korean, Chinese or Tagalog sentence but the command to run."""

from __future__ import annotations

import re

import pytest

from tests.conftest import REPO
from tests.test_change import scaffolded

ENGLISH = re.compile(r"\b(rules|change|cannot|know|not|connect|template|measure|goal)\b")


@pytest.mark.parametrize(
    ("asked", "said"),
    [
        ("make it feel cosier", "“make it feel cosier” is not a change the rules know;"),
        ("もっと落ち着いた感じにして", "「もっと落ち着いた感じにして」はルールで分かる変更ではありません"),
        ("좀 더 아늑한 느낌으로 해 줘", "“좀 더 아늑한 느낌으로 해 줘”는 규칙이 아는 변경이 아니에요"),
        ("让它感觉更温馨一点", "“让它感觉更温馨一点”不是规则能理解的修改"),
        ("gawin mong mas kalmado ang itsura", "ang “gawin mong mas kalmado ang itsura” ay hindi pagbabagong alam"),
    ],
)
def test_a_change_no_rule_reads_is_said_so_in_one_sentence_of_its_language(
    macaron, macaron_home, tmp_path, asked, said
):
    slug = scaffolded("track my daily water intake", "en", tmp_path / "apps")
    shown = macaron("change", slug, asked, "--offline")
    line = shown.stderr.strip()
    assert shown.returncode == 2 and "\n" not in line, line
    assert said in line and "cannot do “" not in line, line
    assert line.endswith(f"macaron change {slug} '{asked}' --yes"), line  # the command runs as printed
    if not asked.isascii() or asked.startswith("gawin"):
        assert not ENGLISH.search(line.split("macaron change")[0].replace(asked, "")), line


@pytest.mark.parametrize(
    ("asked", "reason"),
    [
        ("水の目標を2リットルに、それと体重を外して", "このアプリでは記録していません"),
        ("체중을 빼 줘", "이 앱은 기록하지 않아요"),
    ],
)
def test_what_the_rules_read_and_cannot_do_is_said_in_the_requests_language(macaron_home, tmp_path, asked, reason):
    from macaron_cli.maker.change import plan_change
    from macaron_cli.maker.refusal import partly

    slug = scaffolded("track my daily water intake", "en", tmp_path / "apps")
    planned = plan_change(slug, asked, offline=True)
    assert any(reason in what for what in planned.result.missing), planned.result.missing
    if planned.edit.done:
        assert not ENGLISH.search(partly(planned.result).split("macaron change")[0]), partly(planned.result)


def test_the_rules_say_what_they_cannot_do_only_through_the_requests_language():
    source = (REPO / "macaron_cli" / "maker" / "change_rules.py").read_text(encoding="utf-8")
    written = re.findall(r"missing\.append\((f?[\"'].*)\)", source)
    assert written == ['f"“{text}”"'], written  # the request itself, quoted: refusal.py says the rest
