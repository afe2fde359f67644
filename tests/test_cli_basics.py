"""The CLI's main paths, run as a person runs them: the `macaron` command in a subprocess."""

import json


def test_version_and_help(macaron):
    result = macaron("--version")
    assert result.returncode == 0 and result.stdout.startswith("macaron ")
    help_text = macaron("--help").stdout
    for command in ("chat", "make", "memory", "rollback", "doctor"):
        assert command in help_text


def test_memory_add_then_search_as_json(macaron):
    assert macaron("memory", "add", "I am allergic to peanuts", "--domain", "health").returncode == 0
    assert macaron("memory", "add", "私はカフェインが苦手です").returncode == 0
    hits = json.loads(macaron("memory", "search", "peanuts", "--json").stdout)
    assert hits[0]["text"] == "I am allergic to peanuts"
    assert set(hits[0]) >= {
        "id",
        "text",
        "score",
        "parts",
        "kind",
        "domain",
        "language",
        "privacy",
        "created_at",
        "meta",
    }
    ja = json.loads(macaron("memory", "search", "カフェイン", "--json").stdout)
    assert ja and ja[0]["language"] == "ja"


def test_bad_privacy_value_is_one_clear_line_and_writes_nothing(macaron, macaron_home):
    result = macaron("memory", "add", "x", "--privacy", "top-secret")
    assert result.returncode == 2
    assert "privacy" in result.stderr and "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not (macaron_home / "memory").exists()


def test_doctor_lists_what_is_available(macaron):
    result = macaron("doctor", "--json")
    assert result.returncode == 0
    names = {c["name"] for c in json.loads(result.stdout)}
    assert {"claude", "embeddings", "chromium", "git"} <= names


def test_tab_completion_offers_the_persons_app_slugs(macaron_home, tmp_path):
    import os
    import subprocess
    import sys

    from macaron_cli.apps import register
    from tests.conftest import REPO

    for slug in ("water-tracker", "wallet-watch", "mood-diary"):
        register(slug, path=str(tmp_path / slug))

    def complete(words: str) -> list[str]:
        # As the shell asks the `macaron` script: the program's name decides the variable.
        env = {
            **os.environ,
            "_MACARON_COMPLETE": "complete_bash",
            "_TYPER_COMPLETE_ARGS": words,
            "COMP_WORDS": words,
            "COMP_CWORD": str(len(words.split(" ")) - 1),
        }
        if os.environ.get("MACARON_TEST_INSTALLED") != "1":
            env["PYTHONPATH"] = str(REPO)
        script = "import sys; sys.argv[0] = 'macaron'; from macaron_cli.cli import main; main()"
        done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    assert complete("macaron run wa") == ["wallet-watch", "water-tracker"]
    assert complete("macaron rollback m") == ["mood-diary"]
    assert complete("macaron apps digest ") == ["mood-diary", "wallet-watch", "water-tracker"]


def test_doctor_says_how_to_put_macaron_on_path_and_its_hint_runs_as_printed(macaron_home, tmp_path):
    import json
    import os
    import subprocess
    import sys

    from tests.conftest import REPO

    home = tmp_path / "person"
    home.mkdir()
    venv_bin = tmp_path / "venv" / "bin"
    venv_bin.mkdir(parents=True)
    script = venv_bin / "macaron"  # as pip writes a venv's console script
    path = "" if os.environ.get("MACARON_TEST_INSTALLED") == "1" else f"sys.path.insert(0, {str(REPO)!r}); "
    script.write_text(f"#!{sys.executable}\nimport sys; {path}from macaron_cli.cli import main; main()\n")
    script.chmod(0o755)

    def on_path(search: str) -> dict:
        env = {**os.environ, "HOME": str(home), "PATH": search}
        done = subprocess.run([str(script), "doctor", "--json"], env=env, capture_output=True, text=True, timeout=120)
        return next(check for check in json.loads(done.stdout) if check["name"] == "on PATH")

    system = "/usr/bin:/bin"
    first = on_path(system)
    assert not first["ok"] and "log in again" in first["detail"]
    subprocess.run(["bash", "-c", first["fix"]], env={**os.environ, "HOME": str(home)}, check=True)
    local_bin = home / ".local" / "bin"
    assert (local_bin / "macaron").resolve() == script.resolve()
    waiting = on_path(system)  # linked, but this login's PATH predates the folder
    assert not waiting["ok"] and "log in again" in waiting["fix"]
    assert on_path(f"{local_bin}:{system}")["ok"]
