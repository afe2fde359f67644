"""Verify an app: its tests pass and it opens in a real browser on the first try.

Both checks run in the sandbox, each on its own temporary copy of the app and its data
(the person's data is never touched), at the same time:
- tests: the manifest's `test` command;
- open: open_check.py starts the manifest's `run` command on a free loopback port, waits
  until it answers, loads `/` in headless Chromium (the system's, driven by Playwright),
  collects console errors and failed requests, checks that `main_selector` rendered and
  takes a screenshot. The browser runs inside the sandbox, next to the server, because a
  bubblewrap sandbox's loopback is its own.
"Opens" means HTTP 200 on `/`, no console errors, and the main element rendered.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from macaron_cli.apps import PRIVATE_DIR, private_dir
from macaron_cli.config import Settings
from macaron_cli.errors import UserError
from macaron_cli.manifest import Manifest
from macaron_cli.sandbox import Sandbox, open_check, sandbox_for_untrusted
from macaron_cli.sandbox.base import Result
from macaron_cli.sandbox.manifest import DATA_DIR, runnable_manifest
from macaron_cli.sandbox.open_check import expand_argv
from macaron_cli.sandbox.pytest_summary import parse as parse_pytest
from macaron_cli.sandbox.report import VerifyReport
from macaron_cli.sandbox.test_inputs import read_by_tests

__all__ = ["VerifyReport", "page_shown", "verify_app"]

TEST_TIMEOUT = 180
TEST_MEMORY_MB = 2048
OPEN_TIMEOUT = 90
SERVER_MEMORY_MB = 1024
BROWSER_MEMORY_MB = 2048
STARTUP_TIMEOUT = 30
# What verification leaves out of its copies: history, private state, caches.
_NOT_COPIED = shutil.ignore_patterns(".git", PRIVATE_DIR, "__pycache__", ".pytest_cache")
# Short tracebacks and one summary line per failure: what pytest_summary reads. Plugins
# installed alongside macaron are not loaded into apps' test runs (hypothesis alone adds
# seconds); anyio's is, since FastAPI apps may test async routes with it.
_PYTEST_ENV = {
    "PYTEST_ADDOPTS": "-p no:cacheprovider -p anyio --tb=short -rfE",
    "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
    "COLUMNS": "200",  # pytest cuts its summary lines to the terminal's width
}


def verify_app(
    app_dir,
    screenshot: bool = True,
    sandbox: Sandbox | None = None,
    settings: Settings | None = None,
    reuse_tests: bool = False,
    accept_unsandboxed: bool = False,
) -> VerifyReport:
    """Verify the app in `sandbox`, else the strongest one for the person's `settings`
    (refused where none has walls, unless the app's code is macaron's own or the person
    accepted the risk: `accept_unsandboxed`).

    `reuse_tests`: when the tests would read exactly what they read in the last verification
    and passed then (sandbox/test_inputs.py), that run stands and they are not run again;
    the app is still opened in the browser with what changed."""
    app_dir = Path(app_dir).resolve()
    if not app_dir.is_dir():
        raise UserError(f"{app_dir} is not a folder; verify an app's folder.")
    sandbox = sandbox or sandbox_for_untrusted("its tests", accept_unsandboxed, app_dir, settings=settings)
    chromium = _chromium(sandbox)
    try:
        manifest = runnable_manifest(app_dir)
    except UserError as exc:
        # A broken manifest is the app's fault, and the agent can fix it: report it.
        report = VerifyReport(backend=sandbox.name, problems=[str(exc)])
        _save_report(app_dir, report)
        return report
    started = time.monotonic()
    report = VerifyReport(main_selector=manifest.main_selector, backend=sandbox.name)
    report.tests_input = read_by_tests(app_dir)
    passed = _passed_before(app_dir, report.tests_input) if reuse_tests else None
    with tempfile.TemporaryDirectory(prefix="macaron-verify-") as tmp:
        work = Path(tmp)
        # The three checks at once: the tests and the open each on a copy, the digest
        # reading the app as it is (it writes nothing).
        with ThreadPoolExecutor(max_workers=3) as pool:
            tests = pool.submit(_run_tests, sandbox, manifest, work / "tests") if passed is None else None
            opened = pool.submit(_open, sandbox, manifest, work / "open", chromium, screenshot)
            digest = pool.submit(_check_digest, sandbox, manifest)
            test_result, open_result = tests.result() if tests else None, opened.result()
            digest_problem = digest.result()
        _browser_started(sandbox, open_result)
        if passed is None:
            _read_tests(report, manifest, test_result)
        else:
            report.tests_ok, report.tests_passed, report.tests_reused = True, passed, True
        _read_open(report, open_result)
        if open_result.get("screenshot"):
            report.screenshot = str(_save_private(app_dir, "screenshot.png", Path(open_result["screenshot"])))
    if digest_problem:
        report.problems.append(digest_problem)
    spec_problem = spec_check(app_dir)
    if spec_problem:
        report.problems.append(spec_problem)
    report.ok = (
        report.tests_ok
        and report.opened
        and not report.missing_glyphs
        and not report.layout
        and not digest_problem
        and not spec_problem
    )
    report.seconds = round(time.monotonic() - started, 2)
    report.timings = {
        "tests": round(test_result.duration, 2) if test_result else None,  # None: not run (none, or reused)
        **{f"open_{k}": v for k, v in open_result.get("timings", {}).items()},
    }
    _save_report(app_dir, report)
    return report


def page_shown(app_dir, settings: Settings | None = None, accept_unsandboxed: bool = False) -> dict | None:
    """What the app's page shows now (its text and form fields, open_check.PAGE_JS), opened as
    verification opens it: a copy with its data, in the sandbox. None where it does not open."""
    app_dir = Path(app_dir).resolve()
    sandbox = sandbox_for_untrusted("its page", accept_unsandboxed, app_dir, settings=settings)
    chromium = _chromium(sandbox)
    try:
        manifest = runnable_manifest(app_dir)
    except UserError:
        return None  # a broken manifest shows no page: verification says what is wrong
    with tempfile.TemporaryDirectory(prefix="macaron-page-") as tmp:
        found = _open(sandbox, manifest, Path(tmp), chromium, screenshot=False)
    _browser_started(sandbox, found)
    return found.get("page")


def _browser_started(sandbox: Sandbox, found: dict) -> None:
    """Refuse (UserError) where the browser itself could not start: the machine's fault, not the app's."""
    if found.get("browser_error"):
        raise UserError(
            f"Chromium could not start in the {sandbox.name} sandbox ({found['browser_error']}); "
            "`macaron doctor` shows what is missing, MACARON_SANDBOX picks another sandbox."
        )


def _passed_before(app_dir: Path, fingerprint: str) -> int | None:
    """How many tests passed in the last verification, when it read these same inputs."""
    try:
        last = json.loads((app_dir / PRIVATE_DIR / "verify.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    same = isinstance(last, dict) and last.get("tests_input") == fingerprint and last.get("tests_ok") is True
    return int(last.get("tests_passed") or 0) if same else None


def _save_report(app_dir: Path, report: VerifyReport) -> None:
    text = json.dumps(report.to_dict(), ensure_ascii=False, indent=1)
    private_dir(app_dir).joinpath("verify.json").write_text(text, encoding="utf-8")


# ── the two checks (each in its own copy, in the sandbox) ────────────────────────────────
def _copy_app(manifest: Manifest, dest: Path) -> Path:
    assert manifest.folder is not None  # read from the app's folder
    shutil.copytree(manifest.folder, dest, ignore=_NOT_COPIED, symlinks=True)
    (dest / DATA_DIR).mkdir(exist_ok=True)
    return dest


def _run_tests(sandbox: Sandbox, manifest: Manifest, work: Path) -> Result | None:
    if not manifest.test:
        return None
    app = _copy_app(manifest, work)
    env = {"MACARON_APP_DATA": str(app / DATA_DIR), **_PYTEST_ENV}
    # Templates' tests include a journey in headless Chromium: the memory limit is
    # RLIMIT_DATA (per process), which Chromium tolerates, unlike RLIMIT_AS.
    result = sandbox.run(
        expand_argv(manifest.test, sandbox.python), app, timeout=TEST_TIMEOUT, memory_mb=TEST_MEMORY_MB, env=env
    )
    # Paths relative to the app, as the agent knows them, not to this temporary copy.
    result.stdout, result.stderr = (text.replace(f"{app}/", "") for text in (result.stdout, result.stderr))
    return result


def _open(sandbox: Sandbox, manifest: Manifest, work: Path, chromium: str, screenshot: bool) -> dict:
    """Run open_check.py in the sandbox; its JSON report, or what went wrong with it."""
    app = _copy_app(manifest, work / "app")
    check = work / "check"
    check.mkdir()
    script = check / "open_check.py"
    shutil.copyfile(open_check.__file__, script)
    config = {
        "run": manifest.run,
        "cwd": str(app),
        "env": {"MACARON_APP_DATA": str(app / DATA_DIR)},
        "main_selector": manifest.main_selector,
        "chromium": chromium,
        "screenshot": str(check / "screenshot.png") if screenshot else None,
        "report": str(check / "report.json"),
        "startup_timeout": STARTUP_TIMEOUT,
        "server_memory_mb": SERVER_MEMORY_MB,
    }
    (check / "config.json").write_text(json.dumps(config), encoding="utf-8")
    result = sandbox.run(
        [sandbox.python, str(script), str(check / "config.json")],
        work,
        timeout=OPEN_TIMEOUT,
        memory_mb=BROWSER_MEMORY_MB,
    )
    try:
        return json.loads((check / "report.json").read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        why = (
            "it ran out of time"
            if result.killed_reason == "timeout"
            else ((result.stderr or result.stdout).strip().splitlines() or ["no output"])[-1]
        )
        return {"error": f"the browser check did not finish ({why})", "check_failed": True}


def _check_digest(sandbox: Sandbox, manifest: Manifest) -> str | None:
    """The life-log contract: the app's digest runs in the sandbox and prints its JSON."""
    import datetime as dt

    from macaron_cli.errors import WorkFailed
    from macaron_cli.sandbox.digest import period_start, run_digest

    if not manifest.digest:
        return (
            'macaron.json has no "digest" command; add ["{python}", "-m", "server.macaron_life", '
            '"--since", "{since}", "--today", "{today}", "--period", "{period}"] and server/digest.py'
        )
    today = dt.date.today()
    period = manifest.records.period
    try:
        run_digest(manifest, period_start(period, today), today, period, sandbox)
    except WorkFailed as exc:
        return str(exc).rstrip(".")
    return None


# ── reading the results into the report ──────────────────────────────────────────────────
def _read_tests(report: VerifyReport, manifest: Manifest, result: Result | None) -> None:
    if result is None:
        report.problems.append(
            'macaron.json has no "test" command; add one, e.g. ["{python}", "-m", "pytest", "-q", "tests"]'
        )
        return
    output = result.stdout + "\n" + result.stderr
    summary = parse_pytest(output)
    report.tests_passed, report.tests_failed = summary.passed, summary.failed
    report.tests_ok = result.ok
    report.failing_tests = [f.to_dict() for f in summary.failures]
    if result.ok:
        return
    report.tests_output = output[-4000:]
    if result.killed_reason == "timeout":
        report.problems.append(f"the tests did not finish within {TEST_TIMEOUT} s and were stopped")
    elif result.killed_reason == "memory":
        report.problems.append(f"the tests ran out of memory (limit {TEST_MEMORY_MB} MB)")
    elif result.exit_code == 5 and summary.recognised:
        report.problems.append("no tests ran; add at least one test under tests/")
    for failure in summary.failures:
        report.problems.append(f"test {failure.kind}: {failure.name} — {failure.message}")
    if not summary.failures and not result.killed_reason and result.exit_code != 5:
        report.tests_failed = report.tests_failed or 1
        report.problems.append(f"the test command {' '.join(manifest.test or ())} exited with code {result.exit_code}")


def _read_open(report: VerifyReport, found: dict) -> None:
    report.http_status = found.get("http_status")
    report.console_errors = found.get("console_errors", [])
    report.failed_requests = found.get("failed_requests", [])
    report.main_rendered = bool(found.get("main_rendered"))
    report.page = found.get("page")
    report.server_output = found.get("server_log", "")
    problems = report.problems
    if found.get("check_failed"):
        problems.append(found["error"])
        return
    if not found.get("started"):
        code = found.get("server_exit")
        last = (report.server_output.strip().splitlines() or [""])[-1]
        if code is not None:
            problems.append(
                f"the server did not start: the run command exited with code {code}" + (f" ({last})" if last else "")
            )
        elif found.get("error"):
            problems.append(f"the app could not be checked: {found['error']}")
        else:
            problems.append(f"the server did not answer on / within {STARTUP_TIMEOUT} s")
        return
    if found.get("error"):
        problems.append(f"the page could not be loaded: {found['error']}")
    if report.http_status != 200:
        problems.append(f"GET / returned HTTP {report.http_status} (it must return the page with 200)")
    # A failed load is reported once, as a failed request, not again as Chromium's console line.
    for error in report.console_errors:
        if not (error.startswith("Failed to load resource") and report.failed_requests):
            problems.append(f"console error: {error}")
    problems.extend(f"request failed: {request}" for request in report.failed_requests)
    state, selector = found.get("main_state"), report.main_selector
    if state == "missing":
        problems.append(f"the main element {selector} is not in the page")
    elif state == "empty":
        problems.append(f"the main element {selector} stayed empty (nothing rendered into it)")
    elif state == "hidden":
        problems.append(f"the main element {selector} is hidden")
    report.opened = report.http_status == 200 and not report.console_errors and report.main_rendered
    report.missing_glyphs = found.get("missing_glyphs") or []
    if report.missing_glyphs:
        problems.append(missing_fonts_problem(report.missing_glyphs))
    report.layout = found.get("layout") or []
    if report.layout:
        problems.append(
            "the page's layout: "
            + "; ".join(report.layout[:5])
            + " (put text in the header or a card, class mc-card, or give a line of its own a class mc-…)"
        )


# What installs the fonts macaron's languages and apps' emoji need (Debian/Ubuntu names).
FONTS_FIX = "apt-get install fonts-noto-cjk fonts-noto-color-emoji"


def missing_fonts_problem(glyphs: list[str]) -> str:
    shown = ", ".join(glyphs[:8]) + (", …" if len(glyphs) > 8 else "")
    return (
        f"the page shows text no installed font can draw (empty boxes): {shown}; the fonts are "
        f"missing on this machine, not in the app's code: {FONTS_FIX}"
    )


# ── environment and the app's private folder ─────────────────────────────────────────────
def _chromium(sandbox: Sandbox) -> str:
    """The Chromium verification drives: MACARON_CHROMIUM, else the system's."""
    given = os.environ.get("MACARON_CHROMIUM")
    if sandbox.name == "docker":
        return given or "/usr/bin/chromium"  # inside the image; nothing on this machine to check
    if importlib.util.find_spec("playwright") is None:
        raise UserError(
            "verifying apps needs Playwright for Python: pip install playwright (no browser download needed)."
        )
    for candidate in (given, "/usr/bin/chromium", shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    if given:
        raise UserError(f"MACARON_CHROMIUM={given} is not an executable; point it at Chromium or unset it.")
    raise UserError("verifying apps needs Chromium: apt-get install chromium (or set MACARON_CHROMIUM to its path).")


def _save_private(app_dir: Path, name: str, source: Path) -> Path:
    target = private_dir(app_dir) / name
    shutil.copyfile(source, target)
    return target


def spec_check(app_dir: Path) -> str | None:
    """What is wrong with the spec in the app's macaron.json (the one a model may have
    written), or None: valid, or none at all (an app made before specs)."""
    from macaron_cli.manifest import manifest_or_none
    from macaron_cli.resources import app_spec_module

    manifest = manifest_or_none(Path(app_dir))  # a broken one: runnable_manifest has said what is wrong
    if manifest is None or manifest.spec is None:
        return None
    declared = app_spec_module()
    try:
        declared.parse_spec(manifest.spec)
    except declared.SpecError as exc:
        return f"macaron.json's spec is not valid: {exc} (its schema is server/app_spec.py)"
    return None
