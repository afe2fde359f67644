"""bench/change_kinds.py, whether a change is done kind by kind: every change row of its two
corpora names the app it changes and what that app must then hold, and the judge counts a
refusal as not done."""

from __future__ import annotations

import json
from collections import Counter

from tests.conftest import REPO
from tests.support.bench_module import bench_module

DONE_KEYS = {"shows", "keeps", "gone", "figures", "period", "currency", "events"}


BENCH = bench_module("change_kinds")


def test_every_change_row_names_its_app_and_what_it_must_hold():
    rows = [row for row, _ in BENCH.rows_of(None)]
    assert len(rows) >= 80
    for row in rows:
        assert row["app"].strip() and row["done"], row["id"]
        assert set(row["done"]) <= DONE_KEYS, row["id"]
    langs = Counter(r["lang"] for r in rows)
    assert set(langs) == {"en", "ja", "ko", "zh", "tl"} and min(langs.values()) >= 16
    assert sum(r["split"] == "untuned" for r in rows) * 4 >= len(rows)


def test_a_refused_change_is_never_counted_done(macaron_home):
    corpus = json.loads((REPO / "bench" / "data" / "change-kinds.json").read_text(encoding="utf-8"))
    row = next(r for r in corpus["rows"] if r["id"] == "dates-en-c2")
    refused = {**row, "text": "add a dark mode toggle"}
    judged = BENCH.judged(refused, BENCH.date.fromisoformat(corpus["today"]))
    assert not judged["is_done"] and judged["why"][0].startswith("refused")


def test_only_the_kinds_asked_are_run():
    rows = BENCH.rows_of({"names", "swap"})
    assert rows and {row["kind"] for row, _ in rows} == {"names", "swap"}


def test_already_counts_done_only_when_the_app_as_it_was_holds_what_was_asked(macaron_home):
    """ "单位换成毫升" on a water app already in mL is met: done. Switching a timer to the minutes
    it already has is met; asking 50/10 of the same app and getting "already" would not be."""
    corpus = json.loads((REPO / "bench" / "data" / "change-kinds.json").read_text(encoding="utf-8"))
    today = BENCH.date.fromisoformat(corpus["today"])
    row = next(r for r in corpus["rows"] if r["id"] == "pair-ko-c2")  # 25 and 5: the timer's own
    met = BENCH.judged(row, today)
    assert met["is_done"] and met["already"], met["why"]
    unmet = BENCH.judged({**row, "done": {"figures": [50, 10]}}, today)
    assert not unmet["is_done"] and unmet["why"][0].startswith("refused"), unmet["why"]
