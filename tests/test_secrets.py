"""Secrets are redacted before anything is stored: the corpus, and every field of a record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from macaron_cli.memory import MemoryStore
from macaron_cli.memory.redact import redact

CORPUS = [
    json.loads(line)
    for line in (Path(__file__).parent / "fixtures" / "secrets_corpus.jsonl").read_text(encoding="utf-8").splitlines()
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
    edited = store.update(added.id, meta={"later": "my PIN is 4921"})
    for secret in (key, "Hunter2!", "chatnoir42", "Sonnenblume77", "Swordfish99", "4921"):
        files = [p for p in (tmp_path / "memory").rglob("*") if p.is_file()]
        assert not [p for p in files if secret.encode() in p.read_bytes()], secret
    assert added.meta["note"] == "key «redacted:api-key»"
    assert added.meta["nested"] == {"list": ["ok", "mot de passe: «redacted:password»"]}
    got = store.get(added.id)
    assert got.domain == "work pw: «redacted:password»"
    assert edited.meta["later"] == "my PIN is «redacted:password»" and "password" in edited.meta["redacted"]
    assert store.get("imp-1").meta["url"] == "https://jane:«redacted:password»@x.org/"
    hits = store.search("API notes", k=3)
    assert key not in json.dumps([h.to_json() for h in hits])
