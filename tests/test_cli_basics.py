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
