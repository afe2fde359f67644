"""Why a change is not done is one sentence in the request's language (maker/refusal.py), for
`macaron change`, the chat and a correction of what a make understood: what the rules read and
cannot do is said in the request's language (the command's own refusals: tests/test_change.py)."""

from __future__ import annotations

import re

import pytest

from tests.conftest import REPO
from tests.test_change import ENGLISH, scaffolded


@pytest.mark.parametrize(
    ("asked", "reason"),
    [
        ("水の目標を2リットルに、それと体重を外して", "このアプリでは記録していません"),
        ("체중을 빼 줘", "이 앱은 기록하지 않아요"),
    ],
)
def test_what_the_rules_read_and_cannot_do_is_said_in_the_requests_language(macaron_home, tmp_path, asked, reason):
    from macaron_cli.maker.change import plan_change
    from macaron_cli.maker.change_plan import ChangeResult, change_of
    from macaron_cli.maker.refusal import partly

    slug = scaffolded("track my daily water intake", "en", tmp_path / "apps")
    plan = plan_change(slug, asked, offline=True)
    result = ChangeResult.planned(plan)
    assert any(reason in what for what in result.missing), result.missing
    if change_of(plan).done:
        assert not ENGLISH.search(partly(result).split("macaron change")[0]), partly(result)


def test_the_rules_say_what_they_cannot_do_only_through_the_requests_language():
    source = (REPO / "macaron_cli" / "reading" / "change_rules.py").read_text(encoding="utf-8")
    written = re.findall(r"missing\.append\((f?[\"'].*)\)", source)
    # Not even the request itself, quoted: reading/change_ask.py writes it (no_rule_reads).
    assert written == [], written
