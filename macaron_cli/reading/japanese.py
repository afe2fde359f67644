"""Japanese read as Japanese, for app slugs: "毎朝の体重" → maiasa, taijuu (not the
Chinese readings of its characters, "meichao tizhong").

Kana is romanised here (Hepburn, as a person types it: "ジュニュウ" → junyuu), on top of
anyascii's table for single kana. Kanji have no reading without a dictionary: with the
`ja` extra installed (SudachiPy and its small dictionary, Apache-2.0) each word is read
from it; without, kanji are left out of the slug rather than read as Chinese.
Why not pykakasi (GPL-3.0: not for an MIT distribution) or cutlet (MIT, but its
dictionary, unidic-lite, is 260 MB installed): see pyproject's `ja` extra.
"""

from __future__ import annotations

import re
from functools import lru_cache

from macaron_cli.lang import ja

KANA = re.compile(r"[\u3040-\u309f\u30a0-\u30ff\u31f0-\u31ff]")
_JAPANESE_SCRIPT = re.compile(r"[\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
# The kana that change the one before or after them, and the parts of speech that are
# grammar, are Japanese's own: lang/ja.py holds them.
_SMALL_Y = set(ja.SMALL_Y)
_SMALL_VOWEL = set(ja.SMALL_VOWEL)
_SOKUON = set(ja.SOKUON)
_LONG = ja.LONG
_GRAMMAR = ja.GRAMMAR


def is_japanese(text: str) -> bool:
    """Japanese is the CJK text with kana in it (Chinese has none)."""
    return bool(KANA.search(text))


def romaji(kana: str) -> str:
    """Kana in Latin letters: youon (きゃ kya, じゅ ju), small vowels (チェ che, ファ fa),
    the doubling っ (がっこう gakkou) and the long ー (ラーメン raamen)."""
    from anyascii import anyascii

    out: list[str] = []
    double = False
    for ch in kana:
        if ch in _SOKUON:
            double = True
            continue
        if ch == _LONG:
            if out and out[-1][-1:] in "aeiou":
                out[-1] += out[-1][-1]
            continue
        piece = anyascii(ch).lower()
        if (ch in _SMALL_Y or ch in _SMALL_VOWEL) and out and out[-1].endswith("i") and len(out[-1]) > 1:
            stem = out[-1][:-1]  # き + ゃ: k + ya; し + ゃ: sh + a
            vowel = piece[-1]
            out[-1] = stem + (vowel if stem in ("sh", "ch", "j") or ch in _SMALL_VOWEL else "y" + vowel)
            continue
        if ch in _SMALL_VOWEL and out and out[-1] in ("fu", "vu", "tsu"):
            out[-1] = out[-1][:-1] + piece  # ファ fa, ツァ tsa
            continue
        if double and piece:
            piece = ("t" if piece.startswith("ch") else piece[0]) + piece
        double = False
        out.append(piece)
    return "".join(out)


def readings(text: str) -> list[str] | None:
    """The words of Japanese text as romaji, grammar left out (の, を, たい); None when no
    dictionary is installed (the `ja` extra), so the caller reads the kana alone."""
    tokenizer = _tokenizer()
    if tokenizer is None:
        return None
    words = []
    for morpheme in tokenizer.tokenize(text):
        if morpheme.part_of_speech()[0] in _GRAMMAR:
            continue
        surface, reading = morpheme.surface(), morpheme.reading_form()
        # Latin words and numbers as written ("log", "2024"), not as a katakana reading of them.
        words.append(romaji(reading) if _JAPANESE_SCRIPT.search(surface) and KANA.search(reading) else surface)
    return words


@lru_cache(maxsize=1)
def _tokenizer():
    try:
        from sudachipy import Dictionary
    except ImportError:
        return None
    try:
        return Dictionary(dict="small").tokenizer()
    except Exception:  # a broken dictionary install: slugs fall back to the kana, make goes on
        return None
