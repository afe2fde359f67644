"""The starter apps macaron builds from: complete manifests, words in every language, one
source for the shared runtime (composed into every app), and each template, personalised,
passing its own tests and opening in the headless browser through verify_app."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from macaron_cli.resources import SHARED, agents_dir, compose_template, templates_dir
from tests.support.generated_apps import FIXTURE, differences, generated_apps

TEMPLATES = templates_dir()
NAMES = sorted(p.name for p in TEMPLATES.iterdir() if (p / "macaron.json").is_file())
LANGUAGES = ["en", "ja", "ko", "zh", "tl"]
COMMON_PARAMETERS = {"title", "language", "accent", "units", "currency", "date_format"}
# One keyword list serves every language; each script must be there for its speakers.
SCRIPTS = {
    "latin": r"[A-Za-z]",
    "kana (ja)": r"[\u3040-\u30ff]",
    "hangul (ko)": r"[\uac00-\ud7af]",
    "han (zh/ja)": r"[\u4e00-\u9fff]",
}


def manifest(name: str) -> dict:
    return json.loads((TEMPLATES / name / "macaron.json").read_text(encoding="utf-8"))


def test_there_are_starters_for_what_people_build_most():
    assert {"habit-tracker", "diary", "planner", "budget", "converter"} <= set(NAMES)


@pytest.fixture(scope="module")
def composed(tmp_path_factory) -> Path:
    """Every template as an app gets it: the shared runtime with the template's files over it."""
    root = tmp_path_factory.mktemp("composed")
    for name in NAMES:
        compose_template(TEMPLATES / name, root / name, lambda rel: rel.name == "__pycache__")
    return root


def test_the_shared_runtime_has_one_copy():
    shared = TEMPLATES / SHARED
    runtime = [path.relative_to(shared) for path in shared.rglob("*") if path.is_file()]
    assert runtime
    for name in NAMES:
        own = TEMPLATES / name
        copies = [
            rel for rel in runtime if (own / rel).is_file() and (own / rel).read_bytes() == (shared / rel).read_bytes()
        ]
        assert not copies, f"{name} repeats templates/{SHARED}: {copies}"


def test_apps_are_made_of_the_same_bytes_as_before(macaron_home):
    """The fixture was written when every template held its own copy of the shared runtime.
    After an intended change to a template: python3 tests/support/generated_apps.py --update"""
    expected = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert not differences(expected, generated_apps())


@pytest.mark.parametrize("name", NAMES)
def test_manifest_is_complete(name, composed):
    m = manifest(name)
    assert m["name"] == name
    for field in ("title", "description"):
        assert isinstance(m[field], str) and m[field].strip(), field
    assert len(m["keywords"]) >= 30 and all(isinstance(k, str) and k for k in m["keywords"])
    for script, pattern in SCRIPTS.items():
        assert any(re.search(pattern, k) for k in m["keywords"]), f"no {script} keywords"
    assert set(m["parameters"]) >= COMMON_PARAMETERS
    for pname, spec in m["parameters"].items():
        assert {"type", "default", "description"} <= set(spec), pname
        if "enum" in spec:
            assert spec["default"] in spec["enum"], pname
    assert m["parameters"]["language"]["enum"] == LANGUAGES
    assert "{python}" in m["run"] and "{port}" in m["run"]
    assert m["test"][0] == "{python}"
    assert m["main_selector"] == "#app"
    assert 'id="app"' in (composed / name / "static" / "index.html").read_text(encoding="utf-8")
    for path in m["data_files"]:
        assert not Path(path).is_absolute() and path.startswith("data/"), path


@pytest.mark.parametrize("name", NAMES)
def test_settings_file_holds_every_parameter_at_its_default(name):
    config = json.loads((TEMPLATES / name / "config" / "app.json").read_text(encoding="utf-8"))
    defaults = {pname: spec["default"] for pname, spec in manifest(name)["parameters"].items()}
    assert config == defaults


@pytest.mark.parametrize("name", NAMES)
def test_runs_without_macaron(name, composed):
    folder = composed / name
    requirements = (folder / "requirements.txt").read_text(encoding="utf-8")
    assert "fastapi" in requirements and "uvicorn" in requirements
    assert (folder / "README.md").is_file()
    assert "data/" in (folder / ".gitignore").read_text(encoding="utf-8").split()
    assert not (folder / "package.json").exists(), "no build step: no npm"


@pytest.mark.parametrize("name", NAMES)
def test_every_language_has_every_word(name, composed):
    for dictionary in ("common.json", "app.json"):
        words = json.loads((composed / name / "static" / "i18n" / dictionary).read_text(encoding="utf-8"))
        for lang in LANGUAGES:
            assert set(words[lang]) == set(words["en"]), f"{dictionary}: {lang} differs from en"
            assert all(text.strip() for text in words[lang].values()), f"{dictionary}: {lang} has empty text"


def test_subagents_are_focused_and_limited():
    for name, model in (("frontend", "sonnet"), ("backend", "sonnet"), ("tester", "haiku")):
        text = (agents_dir() / f"{name}.md").read_text(encoding="utf-8")
        front = text.split("---")[1]
        fields = dict(line.split(":", 1) for line in front.strip().splitlines())
        assert fields["name"].strip() == name
        assert fields["model"].strip() == model
        assert fields["description"].strip()
        tools = {t.strip() for t in fields["tools"].split(",")}
        assert tools and "WebFetch" not in tools and "WebSearch" not in tools
        assert "macaron-tokens.css" in text or name == "tester"
    assert "Write" not in (agents_dir() / "tester.md").read_text(encoding="utf-8").split("---")[1]


def test_claude_md_template_imports_the_private_brief():
    from string import Template

    text = Template((TEMPLATES / "CLAUDE.md.tmpl").read_text(encoding="utf-8")).substitute(
        title="Water", description="Drink more.", template="habit-tracker", idea="a water tracker"
    )
    assert "\n@.macaron/brief.md\n" in text
    assert "macaron-tokens.css" in text and "python -m pytest -q tests" in text
    assert "$MACARON_APP_DATA" in text


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_personalised_it_passes_verification_and_opens(name, tmp_path):
    from macaron_cli.sandbox.verify import verify_app

    app = tmp_path / name
    compose_template(TEMPLATES / name, app, lambda rel: rel.name in ("__pycache__", "data", ".pytest_cache"))
    # Personalised as make does it: another language, colour, currency, units and date format.
    # The app's own tests must still pass, and its page must open.
    config_path = app / "config" / "app.json"
    config = json.loads(config_path.read_text(encoding="utf-8"))
    language = LANGUAGES[1 + NAMES.index(name) % 4]
    config.update(language=language, accent="#B5EAD7", currency="JPY", units="imperial", date_format="DD/MM/YYYY")
    config_path.write_text(json.dumps(config, ensure_ascii=False), encoding="utf-8")
    collected = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "tests"], cwd=app, capture_output=True, text=True
    ).stdout
    expected = int(re.search(r"(\d+) tests? collected", collected).group(1))

    # verify_app runs the manifest's test command on a fresh copy, in the sandbox, then opens the page.
    report = verify_app(app, screenshot=True)
    assert report.ok, report.problems
    assert (report.tests_passed, report.tests_failed) == (expected, 0), "every test ran, the journey too"
    assert report.main_rendered and not report.console_errors and not report.failed_requests
    assert Path(report.screenshot).is_file() and Path(report.screenshot).stat().st_size > 5_000


# Sizes only the units table holds: a copy anywhere else (a Python dict, a JS object) is a
# second table that can drift from the one the page, the digest and macaron read.
UNIT_SIZES = ("29.57", "0.62137", "2.2046", "453.59", "0.45359", "28.3495", "1609.34", "0.3048", "0.0254", "3.2808")


def unit_tables(roots: list[Path]) -> list[str]:
    """Files under `roots` (Python and JavaScript; not vendored, not an app's tests, which
    check a known answer) that write a unit's size."""
    found = []
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.suffix not in (".py", ".js") or {"vendor", "_bundled", "tests"} & set(path.parts):
                continue
            text = path.read_text(encoding="utf-8")
            if any(size in text for size in UNIT_SIZES):
                found.append(str(path))
    return found


def test_unit_sizes_live_in_one_table(tmp_path):
    table = json.loads((TEMPLATES / SHARED / "static" / "units.json").read_text(encoding="utf-8"))
    assert table["sizes"]["volume"]["fluid-ounce"][1] == 29.5735295625
    package = Path(__file__).resolve().parents[1] / "macaron_cli"
    assert unit_tables([TEMPLATES, package]) == []
    planted = tmp_path / "units.js"
    planted.write_text("const IMPERIAL = { milliliter: { unit: 'fluid-ounce', factor: 1 / 29.5735 } };\n")
    assert unit_tables([tmp_path]) == [str(planted)]


def test_every_measure_the_rules_write_has_a_name_in_each_language_and_an_icon():
    """A measure the rules write is shown by its name in the app's language ("ランニング"),
    never its key ("run_time") nor an English name in a Japanese app, and by its own icon."""
    from macaron_cli.reading.spec_rules import measure_keys

    tracker = TEMPLATES / "habit-tracker" / "static"
    words = json.loads((tracker / "i18n" / "app.json").read_text(encoding="utf-8"))
    icons = re.search(r"const ICONS = \{(.*?)\};", (tracker / "app.js").read_text(encoding="utf-8"), re.S)
    assert icons
    drawn = set(re.findall(r"(\w+): \"", icons.group(1)))
    unnamed = {(lang, key) for lang, said in words.items() for key in measure_keys() if f"habit.{key}" not in said}
    assert unnamed == set()
    assert set(measure_keys()) <= drawn
