"""Secrets are redacted before anything is stored: the corpus, and every field of a record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from macaron_cli.memory import MemoryStore
from macaron_cli.memory.redact import redact

CORPUS = [
    json.loads(line)
    for path in (
        Path(__file__).parent / "fixtures" / "secrets_corpus.jsonl",
        Path(__file__).parents[1] / "bench" / "secrets_corpus.jsonl",
        Path(__file__).parents[1] / "bench" / "secrets_heldout.jsonl",
        Path(__file__).parents[1] / "bench" / "secrets_outside.jsonl",
    )
    for line in path.read_text(encoding="utf-8").splitlines()
]


@pytest.mark.parametrize("case", [c for c in CORPUS if c["secret"]], ids=lambda c: c["text"][:40])
def test_every_secret_in_the_corpus_is_redacted_and_the_rest_kept(case):
    out, found = redact(case["text"])
    assert found, out
    for secret in case["secret"]:
        assert secret not in out, out
    for kept in case["keep"]:
        assert kept in out, out


@pytest.mark.parametrize("case", [c for c in CORPUS if not c["secret"]], ids=lambda c: c["text"][:40])
def test_ordinary_text_in_the_corpus_is_left_exactly_as_written(case):
    assert redact(case["text"]) == (case["text"], [])


def test_a_pass_phrase_is_redacted_whole_and_its_label_kept():
    out, _ = redact("my password is correct horse battery staple")
    assert out == "my password is «redacted:password»"


def test_meta_domain_and_imported_records_are_redacted_too(tmp_path):
    store = MemoryStore.open(tmp_path / "memory")
    key = "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUv0123"
    added = store.add(
        "notes about the API",
        domain="work pw: Hunter2!",
        meta={"note": f"key {key}", "nested": {"list": ["ok", "mot de passe: chatnoir42"]}},
    )
    store.add_many(
        [{"id": "imp-1", "text": "Passwort: Sonnenblume77", "meta": {"url": "https://jane:Swordfish99@x.org/"}}]
    )
    # A long PIN: four digits turn up by chance in Lance's manifests (uuids, timestamps).
    edited = store.update(added.id, meta={"later": "my PIN is 49217305"})
    for secret in (key, "Hunter2!", "chatnoir42", "Sonnenblume77", "Swordfish99", "49217305"):
        files = [p for p in (tmp_path / "memory").rglob("*") if p.is_file()]
        assert not [p for p in files if secret.encode() in p.read_bytes()], secret
    assert added.meta["note"] == "key «redacted:api-key»"
    assert added.meta["nested"] == {"list": ["ok", "mot de passe: «redacted:password»"]}
    got = store.get(added.id)
    assert got.domain == "work pw: «redacted:password»"
    assert edited.meta["later"] == "my PIN is «redacted:pin»" and "pin" in edited.meta["redacted"]
    assert store.get("imp-1").meta["url"] == "https://jane:«redacted:password»@x.org/"
    hits = store.search("API notes", k=3)
    assert key not in json.dumps([h.to_json() for h in hits])


# ── the detector, by form: generated values, any grouping ───────────────────────────────
_B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def _luhn_complete(body: str) -> str:
    from macaron_cli.memory.secrets.checksums import luhn_ok

    return next(body + d for d in "0123456789" if luhn_ok(body + d))


@given(
    prefix_and_length=st.sampled_from([("4", 16), ("51", 16), ("2221", 16), ("34", 15), ("6011", 16), ("3530", 16)]),
    digits=st.text("0123456789", min_size=18, max_size=18),
    separator=st.sampled_from(["", " ", "-", "."]),
    before=st.sampled_from(["my card", "Karte:", "la tarjeta es", "カード番号は", "카드", "信用卡号", "card ko"]),
)
def test_any_card_number_is_redacted_however_it_is_grouped(prefix_and_length, digits, separator, before):
    prefix, length = prefix_and_length
    number = _luhn_complete(prefix + digits[: length - len(prefix) - 1])
    written = separator.join(number[i : i + 4] for i in range(0, len(number), 4))
    out, found = redact(f"{before} {written} thanks")
    assert written not in out and "card-number" in found and out.endswith(" thanks"), out


@given(digits=st.text("0123456789", min_size=14, max_size=14))
def test_an_imei_that_passes_luhn_is_kept(digits):
    imei = _luhn_complete("35" + digits[:12])
    assert redact(f"IMEI {imei}") == (f"IMEI {imei}", [])


@given(bban=st.text("0123456789", min_size=18, max_size=18), spaced=st.booleans())
def test_an_iban_with_good_check_digits_is_redacted(bban, spaced):
    check = 98 - int("".join(str(int(c, 36)) for c in bban + "DE00")) % 97
    iban = f"DE{check:02d}{bban}"
    written = " ".join(iban[i : i + 4] for i in range(0, 22, 4)) if spaced else iban
    out, found = redact(f"IBAN: {written} bitte")
    assert "iban" in found and written not in out and out.endswith(" bitte")
    wrong = iban[:2] + f"{(check + 1) % 100:02d}" + iban[4:]
    assert redact(f"Konto {wrong}")[1] == []  # the check digits are what make it one


_FULL_WIDTH = str.maketrans("0123456789", "０１２３４５６７８９")


@given(
    digits=st.text("0123456789", min_size=15, max_size=15),
    space=st.sampled_from(["\u3000", "\u00a0", "\u202f", "\u2009", "\u2002", " "]),
    full_width=st.booleans(),
    before=st.sampled_from(["カード番号は", "卡号", "카드 번호", "card", "ang card ko:"]),
)
def test_a_card_number_in_full_width_digits_or_any_unicode_space_is_redacted(digits, space, full_width, before):
    number = _luhn_complete("4" + digits[:14])
    written = space.join(number[i : i + 4] for i in range(0, 16, 4))
    written = written.translate(_FULL_WIDTH) if full_width else written
    out, found = redact(f"{before} {written} です")
    assert "card-number" in found and written not in out and out.endswith(" です"), out


@given(
    bban=st.text("0123456789", min_size=18, max_size=18),
    separator=st.sampled_from(["", " ", "-", "."]),
    lower=st.booleans(),
)
def test_an_iban_in_any_case_and_any_grouping_is_redacted(bban, separator, lower):
    check = 98 - int("".join(str(int(c, 36)) for c in bban + "DE00")) % 97
    iban = f"DE{check:02d}{bban}"
    written = separator.join(iban[i : i + 4] for i in range(0, 22, 4))
    written = written.lower() if lower else written
    out, found = redact(f"rent goes to {written} monthly")
    assert "iban" in found and written not in out and out.endswith(" monthly"), out


@given(
    codes=st.lists(st.text("0123456789abcdef", min_size=10, max_size=10), min_size=2, max_size=10),
    label=st.sampled_from(["backup codes:", "Recovery codes", "バックアップコード:", "복구 코드", "备用验证码："]),
    gap=st.sampled_from([" ", ", ", "\n"]),
)
def test_a_list_of_backup_codes_is_redacted_and_its_label_kept(codes, label, gap):
    # a code a service prints has digits in each half: "4f2a9-c81d0"
    written = [f"{c[:4]}1-{c[5:9]}2" for c in codes]
    out, found = redact(f"{label} {gap.join(written)}")
    assert found and out.startswith(label) and not any(w in out for w in written), out


@given(seed=st.binary(min_size=10, max_size=20), grouped=st.booleans(), lower=st.booleans())
def test_an_authenticator_seed_outside_an_otpauth_url_is_redacted(seed, grouped, lower):
    import base64

    value = base64.b32encode(seed).decode().rstrip("=")
    if not any(ch in "234567" for ch in value):
        value = "7" + value[1:]  # one in about 25 seeds has no digit; a person's seed of this kind is kept
    written = " ".join(value[i : i + 4] for i in range(0, len(value), 4)) if grouped else value
    written = written.lower() if lower else written
    out, found = redact(f"2FA secret: {written}")
    assert found and written not in out and out.startswith("2FA secret:"), out


@pytest.mark.parametrize(
    "text",
    [
        "BUY MILK EGGS SOAP RICE",
        "backup codes: 2 left, ask IT for more",
        "recovery codes are in the drawer",
        "the secret is THAT DOGS LOVE MEAT",
        "keyboard shortcut key=ctrl+shift+p",
        "my house key is under the mat",
        "order 4971 4339 2948 3691 shipped",
        "meeting at 2024\u300011\u300018",
    ],
)
def test_words_and_numbers_that_look_like_the_new_shapes_are_kept(text):
    assert redact(text) == (text, [])


def _seed(entropy: bytes) -> str:
    import hashlib

    from macaron_cli.memory.secrets.checksums import bip39_words

    words = list(bip39_words())
    bits = "".join(format(b, "08b") for b in entropy)
    bits += format(hashlib.sha256(entropy).digest()[0], "08b")[: len(entropy) * 8 // 32]
    return " ".join(words[int(bits[i : i + 11], 2)] for i in range(0, len(bits), 11))


@given(entropy=st.binary(min_size=16, max_size=16) | st.binary(min_size=32, max_size=32))
def test_a_seed_phrase_is_redacted_by_its_checksum_alone(entropy):
    phrase = _seed(entropy)
    out, found = redact(f"{phrase}\n")
    assert found == ["seed-phrase"] and phrase.split()[5] not in out.split()


def test_prose_made_of_word_list_words_is_kept_unless_it_is_said_to_be_a_seed():
    prose = "Abandon ship! The army of ability sat above the absent abstract"
    assert redact(prose) == (prose, [])
    twelve = "only pair tower deer about jazz dinner kind wolf ridge zone glass"
    assert redact(f"my wallet seed: {twelve}")[1] == ["seed-phrase"]  # a typo'd checksum, but it says so


@given(key=st.binary(min_size=32, max_size=32), compressed=st.booleans())
def test_a_bitcoin_wif_key_is_redacted(key, compressed):
    import hashlib

    payload = b"\x80" + key + (b"\x01" if compressed else b"")
    raw = payload + hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4]
    number, wif = int.from_bytes(raw, "big"), ""
    while number:
        number, digit = divmod(number, 58)
        wif = _B58[digit] + wif
    assert redact(f"paper wallet {wif}") == ("paper wallet «redacted:crypto-key»", ["crypto-key"])


# ── by prefix and place ──────────────────────────────────────────────────────────────────
_KEY_CHARS = st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", min_size=48, max_size=48)


@given(body=_KEY_CHARS.filter(lambda s: any(c.isdigit() for c in s[:36]) and any(c.isalpha() for c in s[:36])))
def test_service_tokens_are_redacted_by_their_prefix(body):
    for token in (
        f"sk-ant-api03-{body}",
        f"sk-proj-{body}",
        f"ghp_{body[:36]}",
        f"npm_{body[:36]}",
        f"SG.{body[:22]}.{body[:43]}",
        f"xoxb-1234567890-{body[:24]}",
        f"https://hooks.slack.com/services/T0001/B0001/{body[:24]}",
    ):
        out, found = redact(f"use {token} today")
        assert found and body[:16] not in out and out.startswith("use ") and out.endswith(" today"), token


@pytest.mark.parametrize("product", ["SK-II facial treatment essence", "sk-8 wheels", "the sk-learn docs"])
def test_a_product_named_sk_is_not_a_key(product):
    assert redact(product) == (product, [])


@pytest.mark.parametrize(
    "url, password",
    [
        ("redis://:N0tS3cret@cache:6379", "N0tS3cret"),
        ("postgres://app:pa/ss@w0rd@db:5432/x", "pa/ss@w0rd"),
        ("ftp://me:Winter2025@nas.local/share", "Winter2025"),
        ("https://portal.example.com/login?user=amy&pwd=Gr33nTea", "Gr33nTea"),
    ],
)
def test_a_password_in_a_url_goes_whatever_the_scheme(url, password):
    out, _ = redact(f"connect to {url} later")
    assert password not in out and out.endswith(" later")


@pytest.mark.parametrize("kind", ["RSA", "EC", "OPENSSH", "PGP"])
@pytest.mark.parametrize("cut_short", [False, True])
def test_a_private_key_block_goes_from_begin_to_end_even_cut_short(kind, cut_short):
    label = f"{kind} PRIVATE KEY" + (" BLOCK" if kind == "PGP" else "")
    body = "\n".join(c * 64 for c in "ABCD")
    block = f"-----BEGIN {label}-----\n{body}" + ("" if cut_short else f"\n-----END {label}-----")
    out, found = redact(f"my key:\n{block}\n\nThat is all.")
    assert found == ["private-key"] and "AAAA" not in out and "DDDD" not in out
    assert out == "my key:\n«redacted:private-key»\n\nThat is all."


# ── by what a sentence says, in eight languages ─────────────────────────────────────────
_SAID = [
    "my password is {}",
    "The Wi-Fi password: {}",
    "パスワードは {} です",
    "パスは {}",
    "비번은 {}",
    "비밀번호: {}",
    "我的密码是 {}",
    "WiFi密碼：{}",
    "Ang password ko ay {}",
    "Mein Passwort lautet {}",
    "le mot de passe est {}",
    "mi clave del banco es {}",
]
_A_PASSWORD = st.from_regex(r"[A-Za-z]{3,8}[0-9]{2,4}[!#$%]?", fullmatch=True)


@given(template=st.sampled_from(_SAID), password=_A_PASSWORD)
def test_a_password_said_in_any_language_is_redacted_and_the_sentence_kept(template, password):
    out, found = redact(template.format(password))
    assert found and password not in out and out == template.format(f"«redacted:{found[0]}»")


_PIN_SAID = [
    "my PIN is {}",
    "door code {}",
    "PINコードは{}です",
    "暗証番号は {}",
    "비번은 {}야",
    "현관 비밀번호는 {}",
    "银行卡PIN码是 {}",
    "Die PIN lautet {}.",
    "mon code PIN est {}",
    "el PIN de la tarjeta es {}",
    "Ang PIN ng ATM ko ay {}",
]


@given(template=st.sampled_from(_PIN_SAID), pin=st.from_regex(r"[0-9]{4,6}#?", fullmatch=True))
def test_a_pin_or_door_code_said_in_any_language_is_redacted(template, pin):
    out, found = redact(template.format(pin))
    assert found and pin not in out


@pytest.mark.parametrize(
    "text",
    [
        "The Wi-Fi password is on the fridge",
        "My password is too short",
        "The PIN is printed on the letter",
        "pin 3 drives the LED",
        "合言葉を決めるのが好きです",
        "Nakalimutan ko ang password ng laro",
        "Das Passwort steht auf dem Zettel",
        "mon mot de passe est trop court",
        "la clave es la paciencia",
        "비번 기억이 안 나",
        "密码写在冰箱上",
        "Your password must be at least 12 characters",
        "the CVV is on the back",
        "the combination of the two is 1234 hours",
        "version pin: numpy==1.26.4",
        "the pin is 10mm",
        "promo code SAVE20 at checkout",
        "api_key: YOUR_API_KEY",
        "Flight code is JL5062",
    ],
)
def test_a_sentence_about_a_secret_that_gives_none_is_kept(text):
    assert redact(text) == (text, [])


@given(st.text())
def test_redacting_twice_changes_nothing_more(text):
    once, _ = redact(text)
    assert redact(once) == (once, [])


@pytest.mark.slow
def test_a_secret_typed_in_the_chat_is_not_kept_in_its_line_history(macaron_home):
    from tests.friend_support import chat_env, leave, meet_friend_already, say, spawn_chat

    meet_friend_already()
    child = spawn_chat(chat_env(), "--model", "none")
    child.expect_exact("you › ")
    say(child, "the garage door code is 4482#")
    say(child, "what should I cook tonight?")
    leave(child)

    history = (macaron_home / "chat_history").read_text(encoding="utf-8")
    assert "4482" not in history
    assert "the garage door code is «redacted:pin»" in history and "what should I cook tonight?" in history
    stored = json.dumps([m.to_dict() for m in MemoryStore.open().list(limit=None)], ensure_ascii=False)
    assert "4482" not in stored


@pytest.mark.parametrize("field", ["id", "supersedes"])
def test_an_import_whose_id_holds_a_secret_is_refused_without_repeating_it(macaron, macaron_home, tmp_path, field):
    key = "ghp_" + "Zq7" * 12
    record = {"id": "note-1", "text": "the deploy notes", field: f"gh-{key}"}
    path = tmp_path / "memories.jsonl"
    path.write_text(json.dumps({"id": "note-0", "text": "kept out too"}) + "\n" + json.dumps(record) + "\n")

    result = macaron("memory", "import", str(path))

    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert f'line 2: "{field}" holds what looks like a secret (a token)' in result.stderr
    assert key not in result.stderr + result.stdout
    assert macaron("memory", "list", "--json").stdout.strip() in ("", "[]")  # nothing written


_PEM = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtz\n"


def test_a_key_pasted_as_the_text_of_memory_add_is_remembered_redacted(macaron):
    added = macaron("memory", "add", _PEM, "--domain", "servers", "--json")
    dash = macaron("memory", "add", "- buy milk")
    typo = macaron("memory", "add", "--pinn")

    assert added.returncode == 0, added.stderr
    assert json.loads(added.stdout)["text"].strip() == "«redacted:private-key»"
    assert dash.returncode == 0 and "- buy milk" in dash.stdout
    assert typo.returncode == 2 and "no such option: --pinn" in typo.stderr  # a mistyped option stays one
    assert "b3BlbnNz" not in macaron("memory", "export").stdout


def test_an_error_about_an_argument_never_repeats_a_key_in_it(macaron):
    result = macaron("memory", "search", _PEM)

    assert result.returncode == 2 and len(result.stderr.splitlines()) == 1
    assert "b3BlbnNz" not in result.stderr and "«redacted:private-key»" in result.stderr


# What real conversations put beside a secret's name that is none: a reply's headings, code
# that refers to a secret, a tutorial's stand-in for the reader's own (issue 54: each of
# these was rewritten to «redacted:…», the person's words lost).
INNOCENT_BESIDE_A_NAME = [
    "Key Skills/Expertise:",
    "**Two-Pass Scan:**",
    "Backward pass: loss.backward()",
    "secret_key = settings.SECRET_KEY",
    'openai.api_key = os.environ["OPENAI_API_KEY"]',
    "      - DB_PASSWORD=${DB_PASSWORD}",
    "    'PASSWORD': os.environ.get('DB_PASSWORD'),",
    '    "db_password": "your_password",',
    'openai.api_key = "your_api_key_here"',
    "      POSTGRES_PASSWORD: mypassword",
    '    {"username": "alice", "password": "password123"},',
    'SECRET_KEY = "super_secret_key"',
    "    tokens = tokenizer.encode(text)",
    '3. Click "ADD KEY" and then "Create new key".',
    "4. Name the new key 'Open with Code'.",
    "channel.basic_publish(exchange='', routing_key='billing_tasks', body=request)",
    '    return {"access_token": token, "token_type": "bearer"}',
]


@pytest.mark.parametrize("text", INNOCENT_BESIDE_A_NAME)
def test_a_heading_code_or_a_stand_in_beside_a_secrets_name_is_kept_as_written(text):
    assert redact(text) == (text, [])


@pytest.mark.parametrize(
    "text, secret",
    [
        ("Key: hX9vQ2mLr8TzW4pKd7Yb", "hX9vQ2mLr8TzW4pKd7Yb"),
        ("my wifi password is Ocean$Breeze9", "Ocean$Breeze9"),
        ('    "db_password": "Tr0ub4dor&3",', "Tr0ub4dor&3"),
        ("      POSTGRES_PASSWORD: kX82!mq_Lp", "kX82!mq_Lp"),
        ("api_key = sk_live_51HxYzAbCdEfGhIjKlMn", "sk_live_51HxYzAbCdEfGhIjKlMn"),
    ],
)
def test_a_real_value_in_the_same_places_is_still_caught(text, secret):
    out, found = redact(text)
    assert found and secret not in out, out


def test_only_the_chat_import_hands_the_store_records_it_redacted_itself():
    """add_many(ready=True) skips the store's prepare (the redaction): allowed only where each
    record came from store.prepare (the chat import's planner compares redacted texts)."""
    package = Path(__file__).parents[1] / "macaron_cli"
    users = sorted(
        str(path.relative_to(package)) for path in package.rglob("*.py") if "ready=True" in path.read_text("utf-8")
    )
    assert users == ["memory/commands.py"]
    source = (package / "memory" / "commands.py").read_text(encoding="utf-8")
    assert source.count("ready=True") == 1 and "chat_import.ChatPlanner(store" in source
    assert "self.store.prepare(planned.memory)" in (package / "memory" / "chat_import.py").read_text("utf-8")
