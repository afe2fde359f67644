"""Every language the app speaks has every word, and every word the UI asks for exists.

Generated from macaron's templates/_shared/.
"""

import json
import re
from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[1] / "static"
DICTIONARIES = ["common.json", "app.json"]
LANGUAGES = ["en", "ja", "ko", "zh", "tl"]
# t("some.key") or t('some.key', …) in the front-end code
USED_KEY = re.compile(r"""\bt\(\s*["']([\w-]+\.[\w.-]+)["']""")


def load(name: str) -> dict:
    return json.loads((STATIC / "i18n" / name).read_text(encoding="utf-8"))


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


@pytest.mark.parametrize("name", DICTIONARIES)
def test_every_language_has_every_key_with_the_same_placeholders(name):
    words = load(name)
    assert set(LANGUAGES) <= set(words), f"{name} lacks languages {set(LANGUAGES) - set(words)}"
    for lang, table in words.items():
        assert set(table) == set(words["en"]), (
            f"{name}: {lang} lacks {sorted(set(words['en']) - set(table))}, "
            f"has extra {sorted(set(table) - set(words['en']))}"
        )
        for key, text in table.items():
            assert text.strip(), f"{name}: {lang}.{key} is empty"
            assert placeholders(text) == placeholders(words["en"][key]), f"{name}: {lang}.{key} placeholders differ"


def test_every_key_the_ui_uses_is_translated():
    known = set(load("common.json")["en"]) | set(load("app.json")["en"])
    used = {
        key
        for path in STATIC.rglob("*.js")
        if "vendor" not in path.parts
        for key in USED_KEY.findall(path.read_text(encoding="utf-8"))
    }
    assert used, "the UI uses no translated text at all"
    assert used <= known, f"missing from static/i18n: {sorted(used - known)}"
