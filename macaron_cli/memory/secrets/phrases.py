"""Secrets people say in a sentence, in the eight languages macaron speaks: a label
("password", "비번", "PINコード", "密钥", "Die PIN", "mon code PIN", "Ang PIN ng ATM ko"),
a few words saying whose or what for, a verb or a colon, and the value. The label alone
decides nothing: the value must look like a secret of that kind (values.py), so "the
Wi-Fi password is on the fridge" and "pin 3 drives the LED" stay as written.

A value in Japanese, Korean or Chinese text is the run of Latin letters, digits and
symbols after the particle (people type their passwords in ASCII), so prose after 合言葉
is never taken for one."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from macaron_cli import lang
from macaron_cli.memory.secrets import innocent, values

Span = tuple[int, int, str]


# kind → (labels as words of their own, labels written without spaces: ja/ko/zh), every
# language's from lang (secret.<kind>, secret.<kind>.glued), in the order find() reads them
LABELS: dict[str, tuple[str, str]] = {
    kind: (lang.pattern(f"secret.{kind}"), lang.pattern(f"secret.{kind}.glued")) for kind in lang.SECRETS
}

# How each kind's value is judged: (after a verb, after a colon, bare after the label)
_JUDGES: dict[str, tuple[Callable[[str], bool], Callable[[str], bool], Callable[[str], bool]]] = {
    "password": (
        values.looks_like_password,
        values.looks_like_given_password,
        lambda v: values.looks_like_password(v) and bool(re.search(r"[\d\W]", v)),
    ),
    "pin": (values.looks_like_code, values.looks_like_code, values.looks_like_pin),
    "code": (values.looks_like_pin, values.looks_like_pin, values.looks_like_pin),
    "api-key": (values.looks_like_key, values.looks_like_key, values.looks_like_token),
    "key": (values.looks_like_token, values.looks_like_token, values.looks_like_token),
    "cvv": (values.looks_like_cvv, values.looks_like_cvv, values.looks_like_cvv),
    "national-id": (values.looks_like_id_number, values.looks_like_id_number, values.looks_like_id_number),
}

_LATIN = "A-Za-z0-9_À-ɏ"
# A verb ("is", "lautet", "est", "ay"…), maybe with "now"/"set to"; or a colon / equals sign.
_IS = lang.pattern("secret.is")
_VERB = rf"\s+(?:{_IS}|{lang.pattern('secret.verb')})(?:\s+(?:{lang.pattern('secret.now')}))?\s*[:=]?\s+"
_COLON = r"[\"']?\s*[:=：＝]\s*"  # "password": "…" in JSON too
# A particle or copula in Japanese, Korean, Chinese
_PARTICLE = rf"\s*(?:{lang.pattern('secret.particle')}|：|:|=|＝)\s*"
# whose / what for: "for the bank", "ng ATM ko", "für meine Karte", "du wifi" (words, no digits)
_OWNER = rf"(?:\s+(?!(?:{_IS})\b)[^\s\d.,;:!?=：。、]+){{0,4}}?"
_CJK_OWNER = r"[^\s\d.,;:!?=：。、「」]{0,8}?"
_OPEN_QUOTE = "\"'“‘«„「『"
_CLOSE_QUOTE = {'"': '"', "'": "'", "“": "”", "‘": "’", "«": "»", "„": "“", "「": "」", "『": "』"}
_TRAILING = ".,;:)]}>\"'”’»」』"
_ASCII_VALUE = re.compile(r"[!-~]+")
# A value in Japanese, Korean or Chinese text: up to a space, punctuation or the copula
# (lang's secret.value_end); a value set off by spaces ends at a copula (secret.copula).
_CJK_VALUE = re.compile(rf"[^\s。、，,.!?！？「」『』]+?(?=\s|[。、，,.!?！？]|{lang.pattern('secret.value_end')}|$)")
_COPULA = re.compile(rf"\s*(?:{lang.pattern('secret.copula')})?\s*(?:[。.!！]|$)")
_DIGIT_VALUE = re.compile(r"[*#]?\d+(?:[ .-]\d+)*[*#]?(?![\w])")
# An id with letters around its digits: "QQ 12 34 56 C", "X1234567L", "D123-4567-8901"
_ID_VALUE = re.compile(r"(?:[A-Za-z]{1,3}[ -]?)?\d[\d ./-]*\d(?:[ -]?[A-Za-z](?![\w]))?")
# A number with a unit after it is an amount
_QUANTITY = re.compile(rf"(?i)[\d.,]+\s*(?:{lang.pattern('secret.amount')})(?![A-Za-z])")
# "changed my email password to …": the new password follows "to"
_CHANGED_TO = re.compile(rf"(?i)\b(?:{lang.pattern('secret.changed_to')})\s+")
# What makes a "code" a secret one: a door, gate, lock, safe or card named close before it.
_QUALIFIER = re.compile(rf"(?i){lang.pattern('secret.qualifier')}")
# Labels that also mean something else ("la clave del éxito"): a value, never a phrase of words
_ALSO_A_WORD = re.compile(rf"(?i){lang.pattern('secret.also_a_word')}")
_CLAUSE = re.compile(r"[^\n.,;!?。、，；！？]+")


def _compile(kind: str) -> tuple[re.Pattern, re.Pattern, re.Pattern]:
    latin, cjk = LABELS[kind]
    # "db_password" and "WIFI_PASSWORD" are labels too: an underscore may come before one
    any_label = rf"(?:(?<![{_LATIN.replace('_', '')}])(?:{latin})(?![{_LATIN}])|{cjk})"
    said = re.compile(rf"(?i)(?P<label>{any_label})(?P<owner>{_OWNER})(?P<sep>{_VERB}|{_COLON})")
    said_cjk = re.compile(rf"(?i){any_label}(?P<owner>{_CJK_OWNER})(?P<sep>{_PARTICLE})")
    bare = re.compile(rf"(?i){any_label}\s*")
    return said, said_cjk, bare


_PATTERNS = {kind: _compile(kind) for kind in LABELS}


def find(text: str) -> Iterator[Span]:
    for label_kind, (said, said_cjk, bare) in _PATTERNS.items():
        after_verb, after_colon, after_label = _JUDGES[label_kind]
        kind = {"code": "pin", "key": "api-key"}.get(label_kind, label_kind)
        if not bare.search(text):  # no label of this kind at all: one scan, not three
            continue
        for m in said.finditer(text):
            if label_kind == "code" and not _QUALIFIER.search(text, max(0, m.start() - 30), m.end()):
                continue
            # "password manager: Bitwarden": words between the label and a colon name
            # something else, so the value must look like a password by itself
            colon = re.search(r"[:=：＝]", m.group("sep")) is not None
            judge = after_colon if colon and not m.group("owner").strip() else after_verb
            phrase = kind == "password" and not colon and not _ALSO_A_WORD.fullmatch(m.group("label"))
            yield from _value(text, m.end(), kind, judge, phrase=phrase)
        for m in said_cjk.finditer(text):
            if label_kind == "code" and not _QUALIFIER.search(text, max(0, m.start() - 30), m.end()):
                continue
            yield from _cjk_value(text, m.end(), kind, after_colon if kind != "password" else after_verb)
        if label_kind == "code":
            continue
        for m in bare.finditer(text):
            yield from _value(text, m.end(), kind, after_label, ascii_only=True)
    for m in _CHANGED_TO.finditer(text):
        yield from _value(text, m.end(), "password", values.looks_like_password)


def _value(
    text: str, start: int, kind: str, judge: Callable[[str], bool], phrase: bool = False, ascii_only: bool = False
) -> Iterator[Span]:
    """The secret that starts at `start`, if what is there looks like one."""
    if start >= len(text):
        return
    if text[start] in _OPEN_QUOTE:
        if start and text[start - 1].isascii() and text[start - 1].isalnum():
            return  # the quote closes the name itself ("ADD KEY" and then…, {"KEY"|lang})
        close = text.find(_CLOSE_QUOTE[text[start]], start + 1)
        inner = text[start + 1 : close] if close > start else ""
        if close > start and 3 <= len(inner) <= 80 and "\n" not in inner:
            # a quoted password may be a phrase, spaces and all; a quoted key is one only
            # with a key's shape (a key named 'Open with Code' is a registry key's name)
            if judge(inner) or (kind == "password" and inner.strip().lower() not in values.PROSE):
                yield start, close + 1, kind
            return
    if kind in ("pin", "cvv") and _QUANTITY.match(text, start):
        return  # "4 digits", "1234 hours", "10mm": an amount, not a code
    if kind in ("pin", "cvv", "national-id"):
        m = (_ID_VALUE if kind == "national-id" else _DIGIT_VALUE).match(text, start)
        if m and judge(m.group(0)):
            yield m.start(), m.end(), kind
            return
    m = (_ASCII_VALUE if ascii_only else re.compile(r"\S+")).match(text, start)
    if not m or innocent.heading(m.group(0)):  # "Key Skills/Expertise:" is a heading
        return
    token = m.group(0).rstrip(_TRAILING)
    if not ascii_only:  # stop before Japanese, Korean or Chinese glued to the value
        token = re.split(r"[\u3000-\u9fff\uac00-\ud7af\uff00-\uffef]", token)[0].rstrip(_TRAILING)
    if token and judge(token):
        yield start, start + len(token), kind
        return
    if phrase:
        clause = _CLAUSE.match(text, start)
        if clause:
            words = []
            for word in clause.group(0).split():
                if word.lower() in values.CONJUNCTIONS:
                    break
                words.append(word)
            if values.looks_like_pass_phrase(words):
                end = text.index(words[-1], start) + len(words[-1])
                yield start, end, kind


def _cjk_value(text: str, start: int, kind: str, judge: Callable[[str], bool]) -> Iterator[Span]:
    """After は/는/是: a value typed in Latin letters and digits, or one in the text's own
    script that has digits in it ("달빛고양이99") or is set off by spaces before the copula
    ("パスワードは さくら咲く春 です")."""
    if start >= len(text) or text[start] in _OPEN_QUOTE or text[start].isascii():
        yield from _value(text, start, kind, judge, ascii_only=True)
        return
    m = _CJK_VALUE.match(text, start)
    if not m:
        return
    token = m.group(0)
    set_off = text[start - 1].isspace() and _COPULA.match(text, m.end()) is not None and len(token) >= 3
    if judge(token) or (kind == "password" and set_off):
        yield m.start(), m.end(), kind
