"""Verification tells a good app from a broken one, and says exactly what broke.

Every broken variant is the known-good fixture app with one deliberate fault.
"""

from __future__ import annotations

import json

import pytest

from macaron_cli.errors import UserError
from macaron_cli.sandbox.process import ProcessSandbox
from macaron_cli.sandbox.verify import verify_app
from tests.support.fixture_apps import copy_app

pytestmark = pytest.mark.slow


@pytest.fixture
def app(tmp_path, macaron_home):
    path = copy_app("good", tmp_path / "good")
    (path / "data").mkdir()
    (path / "data" / "notes.json").write_text('["the person\'s own note"]')
    return path


def _replace(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_a_good_app_passes_and_is_photographed(app):
    report = verify_app(app)
    assert report.ok, report.feedback()
    assert report.tests_ok and report.tests_passed == 1 and report.tests_failed == 0
    assert report.opened and report.http_status == 200 and report.main_rendered
    assert report.console_errors == [] and report.failed_requests == [] and report.problems == []
    shot = app / ".macaron" / "screenshot.png"
    assert report.screenshot == str(shot)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 2000
    # The test added a note and the browser read the notes, each on a copy: the person's data is untouched.
    assert json.loads((app / "data" / "notes.json").read_text()) == ["the person's own note"]
    assert json.loads((app / ".macaron" / "verify.json").read_text())["ok"] is True
    assert (app / ".macaron" / ".gitignore").read_text() == "*\n"
    assert report.feedback().startswith("Verified:")


def test_a_javascript_error_is_reported_with_its_message(app):
    _replace(
        app / "static" / "app.js",
        'const app = document.getElementById("app");',
        'const app = document.getElementById("app"); app.renderNotes(data);',
    )
    report = verify_app(app, screenshot=False)
    assert report.tests_ok and not report.opened and not report.ok
    assert any("app.renderNotes is not a function" in e for e in report.console_errors)
    assert "the main element #app stayed empty (nothing rendered into it)" in report.problems
    assert report.screenshot is None
    feedback = report.feedback()
    assert "- console error: Uncaught TypeError: app.renderNotes is not a function (/static/app.js:5)" in feedback


def test_a_server_that_fails_to_start_is_reported_with_its_error(app):
    _replace(app / "server" / "main.py", "import json\n", "import json\nimport notes_helpers\n")
    report = verify_app(app, screenshot=False)
    assert not report.opened and report.http_status is None
    assert not report.tests_ok  # the tests import the same module
    problem = next(p for p in report.problems if p.startswith("the server did not start"))
    assert "ModuleNotFoundError: No module named 'notes_helpers'" in problem
    feedback = report.feedback()
    assert "test error: tests/test_api.py — ModuleNotFoundError: No module named 'notes_helpers'" in feedback
    # The server's traceback, cut to the app's own frame and the error.
    assert 'File "server/main.py", line 4, in <module>' in feedback and "site-packages" not in feedback


def test_a_missing_route_and_a_missing_asset_are_named(app):
    _replace(app / "static" / "app.js", 'fetch("/api/notes")', 'fetch("/api/notes-list")')
    _replace(
        app / "static" / "index.html",
        '<script src="/static/app.js">',
        '<link rel="stylesheet" href="/static/style.css"><script src="/static/app.js">',
    )
    report = verify_app(app, screenshot=False)
    assert report.http_status == 200 and not report.opened
    assert "404 GET /api/notes-list" in report.failed_requests
    assert "404 GET /static/style.css" in report.failed_requests
    assert "request failed: 404 GET /static/style.css" in report.feedback()


def test_a_page_route_that_is_missing_reports_the_status(app):
    _replace(app / "server" / "main.py", '@app.get("/")', '@app.get("/home")')
    report = verify_app(app, screenshot=False)
    assert report.http_status == 404 and not report.opened
    assert "GET / returned HTTP 404 (it must return the page with 200)" in report.problems


def test_a_server_error_shows_the_apps_traceback(app):
    _replace(app / "server" / "main.py", 'return {"notes": notes()}', 'return {"notes": notes()[5]}')
    report = verify_app(app, screenshot=False)
    assert not report.opened and not report.tests_ok
    assert "500 GET /api/notes" in report.failed_requests
    feedback = report.feedback()
    assert 'File "server/main.py", line ' in feedback
    assert "    IndexError: list index out of range" in feedback  # the server's own error line


def test_a_failing_test_is_named_with_its_assertion(app):
    _replace(app / "tests" / "test_api.py", 'assert "buy rice" in', 'assert "buy bread" in')
    report = verify_app(app, screenshot=False)
    assert report.opened and not report.tests_ok and not report.ok
    assert report.tests_failed == 1 and report.tests_passed == 0
    assert report.problems[0].startswith("test failed: tests/test_api.py::test_a_note_is_kept — assert 'buy bread' in")
    feedback = report.feedback()
    assert "E   assert 'buy bread' in" in feedback
    assert "at tests/test_api.py:" in feedback


def test_the_process_backend_verifies_too(app):
    report = verify_app(app, screenshot=False, sandbox=ProcessSandbox())
    assert report.ok, report.feedback()
    assert report.backend == "process"


def test_a_broken_manifest_is_reported_for_the_agent_to_fix(app):
    manifest = json.loads((app / "macaron.json").read_text())
    manifest["run"] = "uvicorn server.main:app"
    (app / "macaron.json").write_text(json.dumps(manifest))
    report = verify_app(app)
    assert not report.ok
    assert len(report.problems) == 1
    assert report.problems[0].startswith(f'{app}/macaron.json: "run" must be a list of strings')


def test_the_run_command_an_app_writes_is_not_the_one_macaron_serves(app):
    # macaron runs the command it pinned (untrusted/pinned.py), whatever the app's file says now.
    manifest = json.loads((app / "macaron.json").read_text())
    manifest["run"] = ["sh", "-c", "echo never run; exit 3"]
    (app / "macaron.json").write_text(json.dumps(manifest))
    report = verify_app(app, screenshot=False)
    assert report.ok and report.opened, report.feedback()


def test_verifying_what_is_not_a_folder_is_a_user_error(tmp_path):
    with pytest.raises(UserError, match="is not a folder"):
        verify_app(tmp_path / "nowhere")


def test_a_browser_that_cannot_start_is_the_machines_problem_not_the_apps(app, monkeypatch):
    monkeypatch.setenv("MACARON_CHROMIUM", "/bin/false")
    with pytest.raises(UserError, match=r"Chromium could not start in the .* sandbox"):
        verify_app(app)
