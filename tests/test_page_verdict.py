"""Make and change judged by the page (issue 52), end to end through the CLI offline, the page
read in real Chromium: what the page does not show is `missing` (fit not good), a plain idea
fits; a change the page does not show is undone (exit 1, the app and its data as they were),
one it shows is ✓ with the page's difference."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.test_one_life import get, post, serve

pytestmark = pytest.mark.slow


def made(macaron, idea: str) -> dict:
    run = macaron("make", idea, "--offline", "--json", "--yes", timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    return json.loads(run.stdout)


def test_an_idea_no_template_can_do_says_what_the_page_does_not_show(macaron, macaron_home):
    out = made(macaron, "water tracker that texts my mom when I forget")
    assert out["fit"] != "good" and {"texts", "mom"} <= set(out["missing"]), out["missing"]
    shown = macaron("make", "水分補給の記録、忘れたら母にLINEで知らせて", "--offline", "--yes", timeout=600)
    said = [line for line in shown.stdout.splitlines() if "画面に出ていないもの" in line]
    assert len(said) == 1 and "母" in said[0] and "LINE" in said[0], shown.stdout


def test_a_plain_idea_fits_and_its_verification_keeps_what_the_page_shows(macaron, macaron_home):
    out = made(macaron, "water tracker, 2 liters a day")
    assert (out["fit"], out["missing"]) == ("good", [])
    page = json.loads((Path(out["path"]) / ".macaron" / "verify.json").read_text(encoding="utf-8"))["page"]
    assert "Water" in page["text"] and "2,000 mL" in page["text"]


def test_the_kind_of_app_asked_is_met_by_the_template_made(macaron, macaron_home):
    out = made(macaron, "ポモドーロ 25分集中")
    assert (out["template"], out["fit"], out["missing"]) == ("timer", "good", [])


def _state(app: Path) -> dict[str, bytes]:
    """The app's settings and the person's data, byte for byte."""
    files = [app / "macaron.json", app / "config" / "app.json", *sorted((app / "data").rglob("*"))]
    return {str(f.relative_to(app)): f.read_bytes() for f in files if f.is_file()}


def test_a_change_the_page_does_not_show_is_undone_and_one_it_shows_is_said_with_the_difference(macaron, macaron_home):
    out = made(macaron, "water tracker, 2 liters a day")
    slug, app = out["app"], Path(out["path"])
    proc, url = serve(slug)
    try:
        for day in ("2026-11-02", "2026-11-03", "2026-11-04"):
            post(url, "/api/entries", {"habit": "water", "amount": 250, "day": day})
    finally:
        proc.terminate()
        proc.wait()
    before = _state(app)

    undone = macaron("change", slug, "log it in the morning and evening", "--offline", "--yes", timeout=300)
    assert undone.returncode == 1, undone.stdout + undone.stderr
    assert "unchanged" in undone.stdout and "✓" not in undone.stdout
    assert "Undone: the page shows nothing different after it" in undone.stdout
    assert _state(app) == before  # its settings back, the person's data untouched
    listed = macaron("checkpoints", slug).stdout
    assert "Roll back to checkpoint 1" in listed

    shown = macaron("change", slug, "目标改成3升", "--offline", "--yes", timeout=300)
    assert shown.returncode == 0, shown.stdout + shown.stderr
    assert "✓" in shown.stdout and "the page now: + 0 mL / 3,000 mL; − 0 mL / 2,000 mL" in shown.stdout
    proc, url = serve(slug)
    try:
        kept = [
            e for day in ("2026-11-02", "2026-11-03", "2026-11-04") for e in get(url, f"/api/days/{day}")["entries"]
        ]
    finally:
        proc.terminate()
        proc.wait()
    assert len(kept) == 3
