"""What stands beside a secret's name and is still no secret.

A secret is a value with a secret's shape beside a secret's name. Real conversations (code
pasted into a chat, a reply's headings) put many things there that are not one:
- code that refers to a secret rather than holding it: `settings.SECRET_KEY`,
  `os.environ["API_KEY"]`, `${DB_PASSWORD}`, `tokenizer.encode(text)`, `loss.backward()`;
- a stand-in a tutorial writes where the reader's own secret goes: `your_password`,
  `"your_api_key_here"`, `testpassword`, `password123` (the value is the secret's own name,
  with a filler word or digits);
- a heading whose first word is a secret's name: "Key Skills/Expertise:", "**Two-Pass Scan:**".
Measured on real conversation text: `python3 bench/secrets_real_text.py`.
"""

from __future__ import annotations

import re

from macaron_cli import lang

STAND_IN = frozenset(lang.listed("secret.stand_in"))
FILLER = frozenset(lang.listed("secret.filler"))
# A secret's own name, glued inside a stand-in ("mypassword", "super_secret_key", "testpwd")
_OWN_NAME = re.compile(r"passwords?|passwd|pwd|pass|secrets?|keys?|tokens?|api|pins?")

# A reference to a value kept elsewhere: a variable, a template, the rest of a URL
_REFERENCE = re.compile(r"[a-z]+://[A-Z_][A-Z0-9_]*$|\$[{(]|\$[A-Z_][A-Z0-9_]*$|%[A-Za-z_]\w*%|\{\{|//")
# A call or an index, maybe on a dotted path: `os.environ[`, `jwt.create_access_token(`
_CALL = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*[(\[]")
# A dotted path with a lower-case segment: `settings.SECRET_KEY`, `user.username`
_PATH = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_LOWER_SEGMENT = re.compile(r"(?:^|\.)[a-z_]+(?:\.|$)")
_QUOTES = "\"'`“”‘’«»"
_MARKUP = "*_`#"


def code(value: str) -> bool:
    """Is this value code that names where a secret is, not the secret itself?"""
    value = value.strip(_QUOTES)
    if _REFERENCE.match(value) or _CALL.match(value):
        return True
    return _PATH.fullmatch(value) is not None and _LOWER_SEGMENT.search(value) is not None


def stand_in(value: str) -> bool:
    """Is this value a placeholder for a secret: a stand-in word ("your_password"), or only
    a secret's own name with fillers and digits ("mypassword", "password123")?"""
    words = [w for w in re.split(r"[^a-z]+", value.lower()) if w]
    if any(w in STAND_IN for w in words):
        return True
    rest = [_OWN_NAME.sub("", w) for w in words]
    named = any(r != w for r, w in zip(rest, words, strict=True))
    return named and all(not r or r in FILLER for r in rest)


def innocent(value: str) -> bool:
    """Is what a finder took for a secret only code or a stand-in?"""
    return code(value) or stand_in(value)


def heading(raw: str) -> bool:
    """Is the run of text after a secret's name the rest of a heading ("Skills/Expertise:",
    "Scan:**"): it ends in a colon, maybe inside markup?"""
    return raw.rstrip(_MARKUP).endswith((":", "："))
