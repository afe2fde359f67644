"""Where the secrets are in a text: a detector, not a phrase table.

Three kinds of evidence, each in its module: a form proven by check digits (formats.py:
card numbers, IBANs, seed phrases, bitcoin keys, national ids), a shape a service gives
its keys or a place credentials sit (tokens.py: known prefixes, private key blocks,
passwords in URLs and headers), a sentence that names a secret followed by a value
that looks like one (phrases.py, in the eight languages), and the codes an account gives
for a second factor (codes.py: backup code lists, authenticator seeds). Every finder reads
the text in one form (widths.py: full-width digits, Unicode spaces); what sits beside a
secret's name and is code, a stand-in or a heading is none (innocent.py). Measured on corpora
of secrets and look-alikes: `python3 bench/secrets_eval.py`.
"""

from __future__ import annotations

from macaron_cli.memory.secrets import codes, formats, innocent, phrases, tokens, widths

Span = tuple[int, int, str]
# The kinds a value is taken for by the name beside it or its place, not by a proof
_BY_NAME = frozenset({"password", "pin", "api-key", "token", "cvv", "national-id"})


def find(text: str) -> list[Span]:
    """Non-overlapping (start, end, kind) spans of the secrets in `text`, in order; where
    two finders overlap, the union goes, named by the longer finding."""
    text = widths.normal(text)  # one character for one: the spans hold for the text as written
    spans = sorted(
        (s for finder in (tokens.find, formats.find, phrases.find, codes.find) for s in finder(text) if s[1] > s[0]),
        key=lambda s: (s[0], -(s[1] - s[0])),
    )
    # A value found by the name beside it (phrases) or its place (a URL's password) may be
    # code or a stand-in (innocent.py); a form proven by check digits, a key block or a
    # list of codes is what it looks like.
    spans = [s for s in spans if s[2] not in _BY_NAME or not innocent.innocent(text[s[0] : s[1]])]
    merged: list[list] = []
    for start, end, kind in spans:
        if merged and start < merged[-1][1]:
            last = merged[-1]
            if end - start > last[1] - last[0]:
                last[2] = kind
            last[1] = max(last[1], end)
        else:
            merged.append([start, end, kind])
    return [(s, e, k) for s, e, k in merged]
