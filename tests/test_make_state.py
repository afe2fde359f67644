"""A make's record (.macaron/make.json): what `make --resume` continues from, also when an
older macaron wrote it."""

from __future__ import annotations

import json

from macaron_cli.maker import state as make_state
from macaron_cli.maker.state import MakeState

# What macaron wrote before the record was typed: a make stopped by its budget after the
# build, with a key this macaron does not know.
OLD_RECORD = {
    "idea": "a water tracker",
    "slug": "water-tracker",
    "title": "Water",
    "template": "habit-tracker",
    "from": None,
    "mode": "agent",
    "language": "en",
    "accent": "#B5EAD7",
    "settings": {"units": "metric", "currency": "EUR"},
    "advice": None,
    "memory_ids": ["m_1", "m_2"],
    "matched_keywords": ["water"],
    "phases": ["scaffold", "build"],
    "rounds": 1,
    "cost_usd": 1.25,
    "tokens": {"input": 900, "output": 300},
    "status": "budget",
    "budget_usd": 1.0,
    "max_rounds": 3,
    "draft": None,
    "timings": {"prepare": 0.4, "agent": 12.5, "verify": 3.0},
    "session_id": "s_42",
    "subagents": ["frontend"],
    "phase_costs": [
        {
            "phase": "build",
            "where": "cloud",
            "input_tokens": 900,
            "output_tokens": 300,
            "seconds": 12.5,
            "cost_usd": 1.25,
        }
    ],
    "from_a_newer_macaron": {"kept": True},
}


def test_an_older_record_resumes_where_it_stopped_and_keeps_every_key(tmp_path):
    (tmp_path / ".macaron").mkdir()
    make_state.path(tmp_path).write_text(json.dumps(OLD_RECORD), encoding="utf-8")
    state = make_state.load(tmp_path)
    assert (state.slug, state.status, state.rounds) == ("water-tracker", "budget", 1)
    assert state.phases == ["scaffold", "build"]
    assert (state.session_id, state.cost_usd, state.memory_ids) == ("s_42", 1.25, ["m_1", "m_2"])
    state.rounds += 1
    make_state.save(tmp_path, state)
    written = json.loads(make_state.path(tmp_path).read_text(encoding="utf-8"))
    new = {"variant": None, "fit": "good", "similarity": None, "missing": [], "change": None}
    assert written == {**OLD_RECORD, "rounds": 2, **new}


def test_a_record_from_before_agent_sessions_gets_empty_ones(tmp_path):
    first_records = {k: v for k, v in OLD_RECORD.items() if k not in ("session_id", "subagents", "phase_costs")}
    state = MakeState.from_json(first_records)
    assert (state.session_id, state.subagents, state.phase_costs, state.from_app) == (None, [], [], None)


def test_lineage_is_written_as_from(tmp_path):
    state = MakeState(idea="tea", slug="tea", template="habit-tracker", mode="offline", from_app="water-tracker")
    make_state.save(tmp_path, state)
    written = json.loads(make_state.path(tmp_path).read_text(encoding="utf-8"))
    assert written["from"] == "water-tracker" and "from_app" not in written
    assert make_state.load(tmp_path) == state


def test_no_record_or_a_damaged_one_is_no_make_to_resume(tmp_path):
    assert make_state.load(tmp_path) is None
    (tmp_path / ".macaron").mkdir()
    for text in ("{not json", "[1, 2]", json.dumps({"idea": "no slug"})):
        make_state.path(tmp_path).write_text(text, encoding="utf-8")
        assert make_state.load(tmp_path) is None
