"""Check digits of the formats whose numbers carry one: a card number, an IBAN, a bitcoin
key, a seed phrase, a national id. A string that passes is that thing, not a number that
happens to look like it (an IMEI, an order number, a phone number)."""

from __future__ import annotations

import hashlib
import re
from functools import cache
from importlib import resources

_BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def luhn_ok(digits: str) -> bool:
    total, parity = 0, len(digits) % 2
    for i, ch in enumerate(digits):
        d = int(ch)
        if i % 2 == parity:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def card_brand_ok(digits: str) -> bool:
    """A number a card network issues: its prefix and length (an IMEI passes Luhn too)."""
    n, two, four = len(digits), int(digits[:2]), int(digits[:4])
    if digits[0] == "4":
        return n in (13, 16, 19)  # Visa
    if 51 <= two <= 55 or 2221 <= four <= 2720:
        return n == 16  # Mastercard
    if two in (34, 37):
        return n == 15  # American Express
    if two in (36, 38, 39) or 300 <= int(digits[:3]) <= 305:
        return 14 <= n <= 19  # Diners Club
    if 3528 <= four <= 3589:
        return 16 <= n <= 19  # JCB
    if four == 6011 or two == 65 or 644 <= int(digits[:3]) <= 649 or two == 62:
        return 16 <= n <= 19  # Discover, UnionPay
    if two in (50, 56, 57, 58, 63, 67):
        return 12 <= n <= 19  # Maestro
    return False


# Lengths of IBANs by country (the common ones; others are checked by mod 97 alone).
IBAN_LENGTH = {
    "AD": 24, "AT": 20, "BE": 16, "BG": 22, "CH": 21, "CY": 28, "CZ": 24, "DE": 22, "DK": 18,
    "EE": 20, "ES": 24, "FI": 18, "FR": 27, "GB": 22, "GR": 27, "HR": 21, "HU": 28, "IE": 22,
    "IS": 26, "IT": 27, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "MC": 27, "MT": 31, "NL": 18,
    "NO": 15, "PL": 28, "PT": 25, "RO": 24, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "TR": 26,
    "AE": 23, "SA": 24, "QA": 29, "IL": 23, "BR": 29, "UA": 29,
}  # fmt: skip


def iban_ok(iban: str) -> bool:
    iban = iban.upper()
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{11,30}", iban):
        return False
    if IBAN_LENGTH.get(iban[:2], len(iban)) != len(iban):
        return False
    moved = iban[4:] + iban[:4]
    return int("".join(str(int(ch, 36)) for ch in moved)) % 97 == 1


def base58check(text: str) -> bytes | None:
    """The payload of a Base58Check string (version byte first), or None if it fails."""
    number = 0
    for ch in text:
        value = _BASE58.find(ch)
        if value < 0:
            return None
        number = number * 58 + value
    raw = number.to_bytes((number.bit_length() + 7) // 8, "big")
    raw = b"\0" * (len(text) - len(text.lstrip("1"))) + raw
    if len(raw) < 5:
        return None
    payload, check = raw[:-4], raw[-4:]
    return payload if hashlib.sha256(hashlib.sha256(payload).digest()).digest()[:4] == check else None


def wif_ok(text: str) -> bool:
    """A bitcoin private key in Wallet Import Format (main or test network)."""
    payload = base58check(text)
    return (
        payload is not None
        and payload[0] in (0x80, 0xEF)
        and (len(payload) == 33 or (len(payload) == 34 and payload[-1] == 1))
    )


def extended_private_key_ok(text: str) -> bool:
    """A BIP-32 extended private key (xprv…, tprv…): 78 bytes behind the check."""
    payload = base58check(text)
    return payload is not None and len(payload) == 78


@cache
def bip39_words() -> dict[str, int]:
    """The BIP-39 English word list (shipped with macaron), word → index."""
    text = resources.files("macaron_cli.memory.secrets").joinpath("bip39_english.txt").read_text(encoding="utf-8")
    return {word: i for i, word in enumerate(text.split())}


def bip39_ok(words: list[str]) -> bool:
    """Do these words make a seed phrase whose checksum bits agree (12, 15, 18, 21, 24)?"""
    index = bip39_words()
    if len(words) not in (12, 15, 18, 21, 24) or any(w not in index for w in words):
        return False
    bits = "".join(format(index[w], "011b") for w in words)
    check_bits = len(words) // 3
    entropy = int(bits[:-check_bits], 2).to_bytes(len(words) * 4 // 3, "big")
    digest = format(hashlib.sha256(entropy).digest()[0], "08b")
    return digest[:check_bits] == bits[-check_bits:]


def korean_rrn_ok(digits: str) -> bool:
    """주민등록번호 (13 digits; the last is a weighted check digit)."""
    if len(digits) != 13 or digits[6] not in "12345678":
        return False
    total = sum(int(d) * w for d, w in zip(digits[:12], (2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5), strict=True))
    return (11 - total % 11) % 10 == int(digits[12])


def chinese_id_ok(text: str) -> bool:
    """居民身份证号 (18 characters, ISO 7064 MOD 11-2, a birth date inside)."""
    text = text.upper()
    if not re.fullmatch(r"\d{17}[\dX]", text) or not (1900 <= int(text[6:10]) <= 2099):
        return False
    if not (1 <= int(text[10:12]) <= 12 and 1 <= int(text[12:14]) <= 31):
        return False
    weights = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
    total = sum(int(d) * w for d, w in zip(text[:17], weights, strict=True))
    return "10X98765432"[total % 11] == text[17]


def spanish_id_ok(text: str) -> bool:
    """DNI (8 digits and a letter) or NIE (X/Y/Z, 7 digits, a letter)."""
    text = text.upper().replace("-", "")
    if re.fullmatch(r"[XYZ]\d{7}[A-Z]", text):
        text = str("XYZ".index(text[0])) + text[1:]
    if not re.fullmatch(r"\d{8}[A-Z]", text):
        return False
    return "TRWAGMYFPDXBNJZSQVHLCKE"[int(text[:8]) % 23] == text[8]


def french_nir_ok(digits: str) -> bool:
    """Numéro de sécurité sociale (13 digits and a two-digit key; Corsica's 2A/2B as digits)."""
    if len(digits) != 15 or digits[0] not in "12":
        return False
    return 97 - int(digits[:13]) % 97 == int(digits[13:])
