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

from macaron_cli.memory.secrets import values

Span = tuple[int, int, str]


def _words(*alternatives: str) -> str:
    return "|".join(alternatives)


# kind → (labels in Latin script, labels in Japanese/Korean/Chinese)
LABELS: dict[str, tuple[str, str]] = {
    "password": (
        _words(
            r"passwords?",
            r"passwd",
            r"pass ?phrase",
            r"pass-phrase",
            r"pwd",
            r"pw",
            r"(?<!boarding )(?<!bus )(?<!day )pass",
            r"passwort",
            r"kennwort",
            r"mot de passe",
            r"mdp",
            r"contraseña",
            r"contrasena",
            r"(?<!palabra )clave",
            r"password ng \w+",
        ),
        _words(
            r"パスワード",
            r"パス(?![ァ-ヶー])",
            r"合言葉",
            r"비밀번호",
            r"비번",
            r"패스워드",
            r"암호",
            r"密码",
            r"密碼",
            r"口令",
        ),
    ),
    "pin": (
        _words(
            r"pin(?:[ -]?(?:code|number|nummer|nr\.?))?",
            r"geheimzahl",
            r"geheimnummer",
            r"code pin",
            r"code secret",
            r"c[óo]digo pin",
            r"n[úu]mero pin",
            r"passcode",
            r"(?:door|gate|garage|alarm|lock|unlock|lock ?screen|phone|keypad|entry|access|safe|building|padlock)"
            r" ?codes?",
            r"(?:haus)?t[üu]rcode",
            r"torcode",
            r"zugangscode",
            r"entsperrcode",
            r"alarmcode",
            r"tresorcode",
            r"schlosscode",
            r"digicode",
            r"code d['’](?:accès|entrée)",
            r"code de (?:la )?porte",
            r"code de déverrouillage",
            r"code de l['’]alarme",
            r"code du (?:portail|cadenas)",
            r"c[óo]digo de (?:la )?(?:puerta|alarma)",
            r"c[óo]digo de (?:acceso|desbloqueo)",
            r"c[óo]digo del (?:portal|candado)",
            r"code ng (?:pinto|gate|bahay)",
        ),
        _words(
            r"PIN ?コード",
            r"PIN番号",
            r"暗証番号",
            r"暗証コード",
            r"(?:ロック)?解除コード",
            r"ドアコード",
            r"(?:PIN|핀) ?번호",
            r"PIN ?코드",
            r"잠금 ?해제 ?(?:코드|번호)",
            r"도어락 ?번호",
            r"현관 ?번호",
            r"PIN ?码",
            r"门禁码",
            r"开门码",
            r"解锁码",
            r"开锁码",
        ),
    ),
    # a bare "code" is a PIN only where a door, a card or a lock is named near it (_QUALIFIER)
    "code": (
        _words(r"codes?", r"c[óo]digos?", r"keypad", r"combo", r"combination"),
        _words(r"コード", r"코드", r"[密]?码"),
    ),
    "api-key": (
        _words(
            r"api[ _-]?(?:keys?|tokens?|secrets?)",
            r"(?:access|auth|refresh|bot|session) ?tokens?",
            r"tokens?",
            r"(?:secret|access|private|signing|master|encryption|recovery|license) ?keys?",
            r"(?:client|app) ?secrets?",
            r"secrets?",
            r"api-schlüssel",
            r"(?:geheimer )?schlüssel",
            r"clé (?:api|secrète|privée)",
            r"jeton",
            r"clave (?:api|secreta|privada)",
            r"susi",
        ),
        _words(
            r"API ?キー",
            r"API ?키",
            r"API ?密[钥鑰]",
            r"秘密鍵",
            r"(?:アクセス)?トークン",
            r"シークレット",
            r"토큰",
            r"(?:시크릿|비밀|액세스) ?키",
            r"密[钥鑰]",
            r"秘[钥鑰]",
            r"私[钥鑰]",
            r"令牌",
        ),
    ),
    # a bare "key" ("maps key: …", "STRIPE_KEY=…"): only a machine-made value (_JUDGES), as
    # "the key to good bread is patience" and "key=ctrl+shift+p" are keys of another kind
    "key": (_words(r"keys?"), _words(r"キー", r"키")),
    "cvv": (
        _words(
            r"cvv2?",
            r"cvc2?",
            r"csc",
            r"(?:card )?security code",
            r"(?:three|3)[- ]digit (?:security )?(?:code|number)",
            r"(?:the )?(?:three|3|last three) (?:digits|numbers) on the back(?: of (?:my|the) card)?",
            r"code on the back(?: of (?:my|the) card)?",
            r"(?:karten)?prüf(?:nummer|ziffer)",
            r"sicherheitscode",
            r"cryptogramme(?: visuel)?",
            r"code de sécurité",
            r"c[óo]digo de seguridad",
            r"c[óo]digo cvv",
            r"(?:tatlong )?numero sa likod(?: ng (?:card|kard))?",
        ),
        _words(
            r"セキュリティー?コード",
            r"(?:カード)?裏の3桁(?:の番号)?",
            r"보안 ?코드",
            r"CV[VC] ?번호",
            r"카드 뒷면 ?3자리",
            r"安全[码碼]",
            r"卡?背面的?三位数字?",
        ),
    ),
    "national-id": (
        _words(
            r"ssn",
            r"social security (?:number|no\.?|#)",
            r"social insurance number",
            r"national insurance number",
            r"ni number",
            r"nino",
            r"passport (?:number|no\.?)",
            r"driver['’]?s licen[cs]e (?:number|no\.?)",
            r"tax (?:id|number)",
            r"tin",
            r"itin",
            r"steuer-?id",
            r"steueridentifikationsnummer",
            r"steuernummer",
            r"sozialversicherungsnummer",
            r"(?:personal)?ausweisnummer",
            r"reisepassnummer",
            r"numéro de (?:sécurité sociale|sécu|passeport)",
            r"nir",
            r"numéro fiscal",
            r"dni",
            r"nie",
            r"nif",
            r"número de (?:la )?seguridad social",
            r"número de pasaporte",
            r"sss(?: number| no\.?)?",
            r"philhealth(?: number| no\.?)?",
            r"umid",
            r"philsys(?: number)?",
            r"pag-?ibig(?: number)?",
            r"national id(?: number)?",
        ),
        _words(
            r"マイナンバー",
            r"個人番号",
            r"パスポート番号",
            r"旅券番号",
            r"免許証番号",
            r"주민(?:등록)?번호",
            r"여권 ?번호",
            r"외국인등록번호",
            r"身份[证證](?:号码?|號碼?)",
            r"护照号码?",
            r"護照號碼?",
        ),
    ),
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
_VERB = (
    r"\s+(?:is|was|are|were|ist|lautet|lauten|war|heißt|est|était|c['’]est|es|era|son|ay|sind)"
    r"(?:\s+(?:now|still|set to|changed to|jetzt|maintenant|ahora|ngayon))?\s*[:=]?\s+"
)
_COLON = r"[\"']?\s*[:=：＝]\s*"  # "password": "…" in JSON too
# A particle or copula in Japanese, Korean, Chinese
_PARTICLE = r"\s*(?:は|が|って|는|은|이|가|是|为|為|：|:|=|＝)\s*"
# whose / what for: "for the bank", "ng ATM ko", "für meine Karte", "du wifi" (words, no digits)
_OWNER = r"(?:\s+(?!(?:is|was|are|ist|lautet|est|es|era|ay)\b)[^\s\d.,;:!?=：。、]+){0,4}?"
_CJK_OWNER = r"[^\s\d.,;:!?=：。、「」]{0,8}?"
_OPEN_QUOTE = "\"'“‘«„「『"
_CLOSE_QUOTE = {'"': '"', "'": "'", "“": "”", "‘": "’", "«": "»", "„": "“", "「": "」", "『": "』"}
_TRAILING = ".,;:)]}>\"'”’»」』"
_ASCII_VALUE = re.compile(r"[!-~]+")
# A value in Japanese, Korean or Chinese text: up to a space, punctuation or the copula.
_CJK_VALUE = re.compile(
    r"[^\s。、，,.!?！？「」『』]+?(?=\s|[。、，,.!?！？]|です|でした|だよ|입니다|이에요|예요|이야|야\b|$)"
)
_COPULA = re.compile(r"\s*(?:です|でした|だ|입니다|이에요|예요|이야|야|이다)?\s*(?:[。.!！]|$)")
_DIGIT_VALUE = re.compile(r"[*#]?\d+(?:[ .-]\d+)*[*#]?(?![\w])")
# An id with letters around its digits: "QQ 12 34 56 C", "X1234567L", "D123-4567-8901"
_ID_VALUE = re.compile(r"(?:[A-Za-z]{1,3}[ -]?)?\d[\d ./-]*\d(?:[ -]?[A-Za-z](?![\w]))?")
# A number with a unit after it is an amount
_QUANTITY = re.compile(
    r"(?i)[\d.,]+\s*(?:digits?|characters?|chars?|hours?|hrs?|h|days?|minutes?|mins?|seconds?|secs?|years?|"
    r"months?|weeks?|mm|cm|m|km|kg|g|lbs?|people|persons?|times|%|percent|dollars?|euros?|yen|won|pesos?|"
    r"steps|pages|kcal|calories|ml|l|stellen|ziffern|chiffres|caractères|dígitos|caracteres|numero|"
    r"桁|자리|位)(?![A-Za-z])"
)
# "changed my email password to …": the new password follows "to"
_CHANGED_TO = re.compile(
    r"(?i)\b(?:changed|set|reset|updated|switched)\s+(?:\S+\s+){0,3}?(?:passwords?|passcode|pin|pw)\s+to\s+"
)
# What makes a "code" a secret one: a door, gate, lock, safe or card named close before it.
_QUALIFIER = re.compile(
    r"(?i)door|gate|garage|keypad|alarm|lock|safe|padlock|card|t[üu]r|tor\b|tresor|karte|carte|porte|portail|"
    r"immeuble|puerta|portal|tarjeta|candado|pinto|bahay|ドア|玄関|金庫|カード|현관|도어|금고|카드|门|卡"
)
# Labels that also mean something else ("la clave del éxito"): a value, never a phrase of words
_ALSO_A_WORD = re.compile(r"(?i)clave|pw")
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
    if text[start] in _OPEN_QUOTE:  # a quoted value is the value, spaces and all
        close = text.find(_CLOSE_QUOTE[text[start]], start + 1)
        inner = text[start + 1 : close] if close > start else ""
        if close > start and 3 <= len(inner) <= 80 and "\n" not in inner:
            if judge(inner) or (kind in ("password", "api-key") and inner.strip().lower() not in values.PROSE):
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
    if not m:
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
