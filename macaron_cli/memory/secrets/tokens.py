"""Secrets with a shape of their own: key blocks, service tokens with known prefixes,
credentials inside URLs and headers. Each finder yields (start, end, kind) spans."""

from __future__ import annotations

import re
from collections.abc import Iterator

from macaron_cli.memory.secrets.values import entropy

Span = tuple[int, int, str]

# (kind, pattern, group whose span is the secret; 0 = the whole match)
_PREFIXED: list[tuple[str, re.Pattern, int]] = [
    ("api-key", re.compile(r"\bsk-ant-(?:api|admin|oat)\d\d-[A-Za-z0-9_-]{16,}"), 0),  # Anthropic
    ("api-key", re.compile(r"\b[sr]k_(?:live|test)_[0-9A-Za-z]{10,}"), 0),  # Stripe
    ("api-key", re.compile(r"\bwhsec_[A-Za-z0-9+/]{20,}"), 0),  # Stripe webhook secret
    ("api-key", re.compile(r"\bAIza[0-9A-Za-z_-]{30,}"), 0),  # Google
    ("api-key", re.compile(r"\bGOCSPX-[A-Za-z0-9_-]{20,}"), 0),  # Google OAuth client secret
    ("token", re.compile(r"\bya29\.[A-Za-z0-9_-]{20,}"), 0),  # Google OAuth access token
    ("api-key", re.compile(r"\bhf_[A-Za-z0-9]{20,}"), 0),  # Hugging Face
    ("api-key", re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[0-9A-Z]{16}\b"), 0),  # AWS key id
    ("token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{16,}|github_pat_[A-Za-z0-9_]{22,})"), 0),  # GitHub
    ("token", re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}"), 0),  # GitLab
    ("token", re.compile(r"\bxox[abposrce]-[A-Za-z0-9-]{10,}"), 0),  # Slack
    ("token", re.compile(r"\bxapp-\d-[A-Za-z0-9]+-\d+-[A-Za-z0-9]+"), 0),  # Slack app-level
    ("webhook", re.compile(r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]{20,}"), 0),
    ("webhook", re.compile(r"https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/\d+/[A-Za-z0-9_-]{20,}"), 0),
    ("webhook", re.compile(r"https://[a-z0-9-]+\.webhook\.office\.com/webhookb2/\S{20,}"), 0),  # Teams
    ("token", re.compile(r"\b[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}"), 0),  # Discord bot
    ("api-key", re.compile(r"\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}"), 0),  # SendGrid
    ("token", re.compile(r"\bnpm_[A-Za-z0-9]{36}\b"), 0),  # npm
    ("token", re.compile(r"\bpypi-[A-Za-z0-9_-]{50,}"), 0),  # PyPI
    ("api-key", re.compile(r"\bSK[0-9a-f]{32}\b"), 0),  # Twilio API key
    ("api-key", re.compile(r"\bkey-[0-9a-f]{32}\b"), 0),  # Mailgun
    ("api-key", re.compile(r"\b[0-9a-f]{32}-us\d{1,2}\b"), 0),  # Mailchimp
    ("token", re.compile(r"\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b"), 0),  # Shopify
    ("token", re.compile(r"\bdop_v1_[a-f0-9]{64}\b"), 0),  # DigitalOcean
    ("token", re.compile(r"\bsq0(?:atp|csp)-[A-Za-z0-9_-]{22,}"), 0),  # Square
    ("token", re.compile(r"(?<![\w:])\d{8,10}:AA[A-Za-z0-9_-]{33}\b"), 0),  # Telegram bot
    ("private-key", re.compile(r"\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b"), 0),  # age
    ("token", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"), 0),  # JWT
    ("token", re.compile(r"(?i)\bbearer\s+([A-Za-z0-9._~+/-]{16,}=*)"), 1),
    ("token", re.compile(r"(?i)\bauthorization\s*[:=]\s*(?:basic|bearer|token|digest|negotiate)\s+(\S+)"), 1),
    ("token", re.compile(r"(?i)\bbasic\s+((?=[A-Za-z0-9+/]*\d)[A-Za-z0-9+/]{12,}={0,2})(?![\w+/=])"), 1),
    # Azure connection strings and SAS URLs
    (
        "api-key",
        re.compile(r"(?i)\b(?:AccountKey|SharedAccessKey|SharedSecret|AccessKey|sig)\s*=\s*([A-Za-z0-9+/%]{16,}=*)"),
        1,
    ),
    # AWS secret access key: 40 characters of base64, after its label or with a / or + in it
    (
        "api-key",
        re.compile(
            r"(?i)(?:aws_?secret_?access_?key|secret[ _]access[ _]key|aws[ _]secret(?:[ _]key)?)"
            r"(?:\s*[:=]\s*|\s+is\s+|\s+)([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+])"
        ),
        1,
    ),
    (
        "api-key",
        re.compile(
            r"(?<![A-Za-z0-9/+])(?=[A-Za-z0-9+]*[/+])(?=[^\s]*[a-z])(?=[^\s]*[A-Z])"
            r"[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])"
        ),
        0,
    ),
    # scheme://user:PASSWORD@host, any scheme, an empty user too; the password ends at the
    # last @ before the host, so one with "/" or "@" in it goes whole
    ("password", re.compile(r"(?i)\b[a-z][a-z0-9+.-]*://[^\s:/@]*:(\S+)@[^\s@/]+"), 1),
    # passwords and keys in a query string
    (
        "password",
        re.compile(r"(?i)[?&;](?:pwd|pass|passwd|password|passcode|secret|client_secret|private_token)=([^&#\s]+)"),
        1,
    ),
    ("token", re.compile(r"(?i)[?&;](?:token|access_token|refresh_token|api_?key|apikey|auth|key)=([^&#\s]{12,})"), 1),
    # .netrc: machine HOST login USER password PASSWORD
    ("password", re.compile(r"(?im)^[ \t]*(?:machine\s+\S+|default)\b[^\n]*?\bpassword\s+(\S+)"), 1),
    # "my bank login is jdoe / S3cret": the pair goes
    (
        "login",
        re.compile(r"(?i)\b(?:login|log-in|sign-in|credentials)(?:\s+(?:is|are)\s+|\s*[:=]\s*)(\S+\s*/\s*\S+)"),
        1,
    ),
]

# OpenAI-style keys share "sk-" with product names ("SK-II"): the rest must be a key.
_SK = re.compile(r"\b(?:sk|pk|rk)-(?:[a-z]+-)?([A-Za-z0-9_-]{20,})")
_PEM_BEGIN = re.compile(r"-{4,5} ?BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?) ?-{4,5}")
_PEM_LINE = re.compile(r"[ \t]*(?:[A-Za-z0-9+/=]{4,}(?:…|\.\.\.)?|[A-Za-z][\w-]*: [^\n]*|=[A-Za-z0-9+/]{4})[ \t]*")
# a key pasted on one line, or inside a JSON or Python string (lines joined by a literal \n)
_PEM_FLAT = re.compile(r"(?:(?:[ \t]|\\n)+[A-Za-z0-9+/=]{8,})+(?:\\n)?")


def find(text: str) -> Iterator[Span]:
    for kind, pattern, group in _PREFIXED:
        for m in pattern.finditer(text):
            yield m.start(group), m.end(group), kind
    for m in _SK.finditer(text):
        body = m.group(1)
        run = max(re.findall(r"[A-Za-z0-9]+", body), key=len)
        if len(run) >= 16 and re.search(r"\d", run) and re.search(r"[A-Za-z]", run) and entropy(run) >= 3.5:
            yield m.start(), m.end(), "api-key"
    yield from _private_key_blocks(text)


def _private_key_blocks(text: str) -> Iterator[Span]:
    """A private key block from its BEGIN line to its END line, or, cut short (pasted in
    part, or the END line lost), to the last line that is still key material."""
    for m in _PEM_BEGIN.finditer(text):
        end_marker = re.compile(rf"-{{4,5}} ?END {re.escape(m.group(1))} ?-{{4,5}}")
        closing = end_marker.search(text, m.end())
        if closing:
            yield m.start(), closing.end(), "private-key"
            continue
        end = m.end()
        flat = _PEM_FLAT.match(text, end)
        if flat:
            end = flat.end()
        pos = end
        while pos < len(text) and text[pos] == "\n":
            line_end = text.find("\n", pos + 1)
            line_end = len(text) if line_end < 0 else line_end
            line = text[pos + 1 : line_end]
            if line.strip() == "" or _PEM_LINE.fullmatch(line):
                if line.strip():
                    end = line_end
                pos = line_end
                continue
            break
        yield m.start(), end, "private-key"
