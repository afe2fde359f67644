"""A change verifies the app again, and runs the app's tests again only when they would read
something new: a change of the person's settings the tests lay their own over (language,
units, currency) leaves their last pass standing and still opens the app in the browser; a
change of what the app tracks, or any file the tests read, runs them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from macaron_cli.sandbox.test_inputs import pinned_settings, read_by_tests
from tests.test_change import scaffolded


def _edit_config(app: Path, **changes) -> None:
    path = app / "config" / "app.json"
    path.write_text(json.dumps({**json.loads(path.read_text(encoding="utf-8")), **changes}), encoding="utf-8")


def test_what_the_tests_read_is_the_same_after_a_settings_change_and_not_after_any_other(macaron_home, tmp_path):
    app = tmp_path / "apps" / scaffolded("track my daily water intake", "en", tmp_path / "apps")
    assert pinned_settings(app) == {
        "title": "", "language": "en", "units": "metric", "currency": "USD", "date_format": "locale"
    }  # fmt: skip
    before = read_by_tests(app)
    _edit_config(app, language="ja", units="imperial", currency="JPY")
    assert read_by_tests(app) == before  # the tests lay their own settings over these
    _edit_config(app, habits=[])
    after_habits = read_by_tests(app)
    assert after_habits != before
    (app / "static" / "app.js").write_text("// edited by hand\n", encoding="utf-8")
    assert read_by_tests(app) != after_habits
    (app / "tests" / "test_mine.py").write_text(
        'import json\nCONFIG = json.load(open("config/app.json"))\n', encoding="utf-8"
    )
    assert pinned_settings(app) is None  # a test reads the config itself: every byte of it counts


@pytest.mark.slow
def test_a_units_change_reuses_the_tests_last_pass_and_a_goal_change_runs_them(macaron, macaron_home, tmp_path):
    slug = scaffolded("track my daily water intake", "en", tmp_path / "apps")
    report = tmp_path / "apps" / slug / ".macaron" / "verify.json"

    def change(request: str) -> tuple[str, dict]:
        shown = macaron("change", slug, request, "--offline", "--yes", timeout=300)
        assert shown.returncode == 0, shown.stdout + shown.stderr
        return shown.stdout, json.loads(report.read_text(encoding="utf-8"))

    said, verified = change("set the water goal to 2.5 liters")
    assert not verified["tests_reused"] and verified["tests_passed"] > 0 and "not run again" not in said
    said, verified = change("show it in imperial units")
    assert verified["tests_reused"] and verified["opened"] and verified["ok"]
    assert "tests passed (not run again: nothing they read changed)" in " ".join(said.split())
    said, verified = change("set the water goal to 3 liters")
    assert not verified["tests_reused"] and verified["tests_passed"] > 0
