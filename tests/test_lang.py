"""Languages in one place (issue 39): every concept a rule reads has its words in every
language, a language is one file that the rules pick up, and no module outside
macaron_cli/lang/ holds a concept's word list."""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from macaron_cli import lang
from macaron_cli.reading.slots import read

PACKAGE = Path(lang.__file__).resolve().parents[1]

# Modules that still hold words of a concept, until their words move to lang/ (the list
# only shrinks: a module here that no longer holds any fails too, so it is taken off).
NOT_YET_MOVED: set[str] = set()

# Modules whose code still writes Han, Kana or Hangul letters, until their words move to lang/
# (the list only shrinks, as NOT_YET_MOVED).
WRITTEN_INLINE: set[str] = set()


def test_every_concept_has_its_words_in_every_language():
    assert set(lang.languages()) >= {"en", "ja", "ko", "zh", "tl"}
    assert lang.missing() == []


ESPERANTO = """WORDS = {"unit.steps": r"\\bpaŝoj\\b", "period.daily": r"\\bĉiutage\\b"}\n"""


@pytest.fixture
def esperanto(tmp_path, monkeypatch):
    """Esperanto added as one file in lang/ (a folder on the package's path)."""
    (tmp_path / "eo.py").write_text(ESPERANTO, encoding="utf-8")
    monkeypatch.setattr(lang, "__path__", [*lang.__path__, str(tmp_path)])
    lang.reread()
    yield
    monkeypatch.undo()
    sys.modules.pop("macaron_cli.lang.eo", None)
    lang.reread()


def test_a_language_added_as_one_file_is_read_by_the_rules(esperanto):
    said = read("10000 paŝoj ĉiutage")
    assert said.units == ("steps",) and said.period == "daily"
    assert [a.value for a in said.amounts] == [10000]
    # the file is partial: the completeness test names what it lacks
    assert ("eo", "saving") in lang.missing() and ("eo", "unit.steps") not in lang.missing()


def test_a_language_read_only_for_secrets_is_asked_only_for_their_words(tmp_path, monkeypatch):
    (tmp_path / "it.py").write_text('SCOPE = ("secret",)\nWORDS = {"secret.password": r"parola d\'ordine"}\n')
    monkeypatch.setattr(lang, "__path__", [*lang.__path__, str(tmp_path)])
    lang.reread()
    try:
        assert ("it", "secret.pin") in lang.missing() and ("it", "saving") not in lang.missing()
        assert "parola d'ordine" in lang.pattern("secret.password")
    finally:
        monkeypatch.undo()
        sys.modules.pop("macaron_cli.lang.it", None)
        lang.reread()


ESPERANTO_LINES = """LINES = {"hello": "Saluton{name}! Estas bone revidi vin.", "called": " {name}"}\n"""


def test_the_friend_speaks_a_language_added_as_one_file(tmp_path, monkeypatch):
    """Esperanto's file holds the friend's lines too: a chat in Esperanto opens in it, asks
    the model to answer in it, and says in English what the file does not hold yet."""
    from macaron_cli.friend.conversation import _say
    from macaron_cli.friend.persona import Persona

    (tmp_path / "eo.py").write_text(ESPERANTO + ESPERANTO_LINES, encoding="utf-8")
    monkeypatch.setattr(lang, "__path__", [*lang.__path__, str(tmp_path)])
    lang.reread()
    try:
        friend = Persona(language="eo", call_me="Zam")
        assert _say(friend, "hello") == "Saluton Zam! Estas bone revidi vin."
        assert _say(friend, "change.declined") == "Nothing changed."
        assert friend.voice().endswith("Answer in the language the person writes in.")
        # the completeness test names the lines it lacks, as it names concepts
        assert ("eo", "line.change.declined") in lang.missing() and ("eo", "line.hello") not in lang.missing()
    finally:
        monkeypatch.undo()
        sys.modules.pop("macaron_cli.lang.eo", None)
        lang.reread()
    assert _say(friend, "hello") == "Hi Zam! Good to see you."


def test_a_full_language_lacking_a_line_of_the_friends_is_reported(monkeypatch):
    from macaron_cli.lang import ko

    monkeypatch.setattr(ko, "LINES", {k: v for k, v in ko.LINES.items() if k != "change.ask"})
    assert lang.missing() == [("ko", "line.change.ask")]


def test_without_the_file_the_words_mean_nothing():
    said = read("10000 paŝoj ĉiutage")
    assert said.units == () and said.period is None


def _literals(concept: str) -> set[str]:
    """A concept's plain words (no pattern syntax), long enough to mean something alone."""
    out = set()
    for code in lang.languages():
        for alternative in lang.alternatives(lang.words(concept, code)):
            word = alternative.replace(r"\b", "").strip()
            if re.fullmatch(r"[^\W\d_]+(?: [^\W\d_]+)*", word) and len(word) >= (4 if word.isascii() else 2):
                out.add(word)
    return out


def _strings(source: str) -> list[str]:
    """The string literals of a module's code (its docstrings left out: examples, not rules; and
    the names of concepts it asks lang for)."""
    tree = ast.parse(source)
    docs = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    return [
        n.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs and not _names(n.value)
    ]


def _collections(source: str) -> list[str]:
    """Each collection of strings a module writes ({"the", "le", "la"}, a dict's keys), as one
    string: a word list written a word a string."""
    out = []
    for node in ast.walk(ast.parse(source)):
        items = node.keys if isinstance(node, ast.Dict) else getattr(node, "elts", None)
        if isinstance(node, (ast.Set, ast.List, ast.Tuple, ast.Dict)) and items:
            said = [n.value for n in items if isinstance(n, ast.Constant) and isinstance(n.value, str)]
            out += [" ".join(said)] if len(said) == len(items) else []
    return out


def _said(word: str, strings: str) -> bool:
    """Is `word` in `strings` as a word of its own (any case: "Monday" and "monday")?"""
    edges = rf"(?<![^\W\d_]){re.escape(word)}(?![^\W\d_])" if word.isascii() else re.escape(word)
    return re.search(edges, strings, re.I) is not None


# Concepts named one word each, in a series (month.january…): a module holds the series
# where it names three of them, one word each ("January February March").
SERIES = ("month", "weekday", "count")
# Concepts whose words fill any sentence ("the", "what", "this", "です", "hello"): held only by a
# string made of them, eight words or more and four in five of them theirs ("the a an is are …").
PROSE = (
    "small_words", "secret.prose", "secret.article", "secret.conjunction", "secret.value_end", "secret.copula",
    "chatter.", "judge.",
)  # fmt: skip


def _sentence(string: str) -> bool:
    """A string that says something ("times of day (e.g. morning and evening)"), not a list of
    words: three words or more, one of English's small words among them, and no "|"."""
    said = re.findall(r"[^\W\d_]+", string.lower())
    small = set(lang.alternatives(lang.words("small_words", "en")))
    return "|" not in string and len(said) >= 3 and any(w in small for w in said)


def _a_list_of(concept: str, strings: list[str]) -> bool:
    """Does one of `strings` list the words of `concept` (the letters of its patterns, their
    escapes such as \\s and \\b left out: "hello", "good", "morning" of "good\\s+(?:morning…)")?"""
    said = (re.sub(r"\\.", " ", lang.words(concept, code)) for code in lang.languages())
    words = {w.lower() for pattern in said for w in re.findall(r"[^\W\d_]+", pattern)}
    for string in strings:
        said = [w.lower() for w in re.findall(r"[^\W\d_]+", re.sub(r"\\.", " ", string))]
        if len(said) >= 8 and sum(w in words for w in said) >= 0.8 * len(said):
            return True
    return False


def _names(string: str) -> bool:
    """Whether a string names concepts, as a rule asks lang for them ("journal.mood", f"measure.{kind}")."""
    return string in lang.CONCEPTS or (string.endswith(".") and any(c.startswith(string) for c in lang.CONCEPTS))


def holding_words(source: str) -> list[str]:
    """The concepts whose word list `source` writes in its strings (its sentences left out):
    three of its words or more; for a series, the names of three of its concepts ("lunes martes
    miyerkules")."""
    strings = _strings(source)
    listing = " ".join(s for s in strings if not _sentence(s))
    lists = strings + _collections(source)
    held, named = [], {}
    for concept in lang.CONCEPTS:
        if concept.startswith(PROSE):
            held += [concept] if _a_list_of(concept, lists) else []
            continue
        hits = [word for word in _literals(concept) if _said(word, listing)]
        if len(hits) >= 3:
            held.append(concept)
        elif hits and concept.split(".")[0] in SERIES:
            named.setdefault(concept.split(".")[0], set()).add(concept)
    return held + [f"{series}.*" for series, concepts in named.items() if len(concepts) >= 3]


def test_a_word_list_planted_outside_lang_is_found():
    planted = 'SAVING = r"\\bsavings\\b|貯金|저축|攒钱|\\bipon\\b"\n'
    assert "saving" in holding_words(planted)
    assert holding_words('TITLE = "Savings"\n') == []


@pytest.mark.parametrize(
    "planted, held",
    [
        ('DAYS = "monday tuesday wednesday thursday friday saturday sunday".split()\n', "weekday.*"),
        ('DAYS = r"(Lunes|Martes|Miyerkules|Huwebes|Biyernes|Sabado|Linggo)"\n', "weekday.*"),
        ('MONTHS = ("January", "February", "March", "April")\n', "month.*"),
        ('NUMBERS = {"three": 3, "four": 4, "five": 5}\n', "count.*"),
        ('STOP = frozenset("the a an is are was were be been i you he she we they it".split())\n', "small_words"),
        ('PROSE = frozenset("written printed stored saved kept taped stuck hidden changed".split())\n', "secret.prose"),
        ('AND = frozenset("and but or und aber oder et mais ou y pero o at".split())\n', "secret.conjunction"),
        ('THE = {"the", "le", "la", "les", "der", "die", "das", "el", "los", "las", "ang"}\n', "secret.article"),
        ('COPULA = r"です|でした|だよ|입니다|이에요|예요|이야|야\\b"\n', "secret.value_end"),
        (
            'HELLO = r"\\b(?:hi|hey|hello|hiya|good\\s+(?:morning|afternoon|evening)|weather|sunny|rainy)\\b"\n',
            "chatter.small_talk",
        ),
    ],
)
def test_a_list_of_days_months_or_small_words_planted_outside_lang_is_found(planted, held):
    assert held in holding_words(planted)


def test_a_sentence_is_no_word_list():
    said = 'HELP = "What was it about? Tell me which day, and I will look it up on Monday or in May."\n'
    assert holding_words(said) == []
    described = 'DOC = {"times": "times of day (e.g. morning and evening)", "steps": "not only steps"}\n'
    assert holding_words(described) == []


def test_no_module_outside_lang_holds_a_concepts_words():
    holders = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        if module.startswith(("lang/", "_bundled/")):
            continue
        if held := holding_words(path.read_text(encoding="utf-8")):
            holders[module] = held
    assert set(holders) - NOT_YET_MOVED == set(), holders
    assert NOT_YET_MOVED - set(holders) == set(), "these hold no words now: take them off NOT_YET_MOVED"


# Han, Kana and Hangul letters (their blocks' letters; ・, 「」, 、。 and the other marks are not).
_CJK_LETTER = re.compile(
    r"[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]"
)


def writing_inline(source: str) -> list[str]:
    """The strings of a module's code (docstrings left out: examples, not rules) that hold a
    Han, Kana or Hangul letter: words of a language the house speaks, written outside lang/.
    Only letters count: a class of Japanese punctuation (「」、。) or of full-width signs marks
    where a word ends in any language and may stay in the rule that reads it."""
    return [string for string in _strings(source) if any(_CJK_LETTER.match(c) and c.isalpha() for c in string)]


def test_a_japanese_word_planted_outside_lang_is_found():
    assert writing_inline('DONE = r"(?:です|でした)$"\n') == ["(?:です|でした)$"]
    assert writing_inline('KO = "만"\n') and writing_inline('TEN = "十"\n')
    assert writing_inline('"""An example: 5月1日."""\nEND = r"[。、「」・]"\n') == []


def test_no_module_outside_lang_writes_han_kana_or_hangul():
    writers = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        if not module.startswith(("lang/", "_bundled/")) and (held := writing_inline(path.read_text(encoding="utf-8"))):
            writers[module] = held[:3]
    assert set(writers) - WRITTEN_INLINE == set(), writers
    assert WRITTEN_INLINE - set(writers) == set(), "these write none now: take them off WRITTEN_INLINE"
