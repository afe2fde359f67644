"""With a model, the model's spec comes first: make asks it for the app's spec against the
spec's own JSON Schema, keeps what holds, and the template, title, fit and `missing`
follow from it; an answer that does not hold falls back to the rules and says so. The
brief goes into that request only as the privacy gate cleared it for that model."""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path

import pytest

from macaron_cli import privacy
from macaron_cli.config import Settings
from macaron_cli.maker.brief import Brief
from macaron_cli.maker.model_spec import ask_spec, judged
from macaron_cli.models.client import Endpoint
from macaron_cli.reading.spec_rules import write_spec
from macaron_cli.spec import AppSpec, Measure, Money, json_schema, parse_spec
from tests.support.model_server import ModelServer, Reply

IDEA = "a log of my morning runs"
# A unit the idea never named, a second measure and times of day: nothing the rules would write.
MODEL_SPEC = {
    "measures": [
        {"key": "distance", "name": "Distance", "unit": "furlong", "kind": "quantity", "times": ["morning"]},
        {"key": "heart_rate", "name": "Heart rate", "unit": "bpm", "kind": "quantity", "free_entry": True},
    ]
}
ANSWER = json.dumps({"title": "Morning furlongs", "spec": MODEL_SPEC})


def _brief(idea: str, destination: privacy.Destination) -> Brief:
    return Brief(
        idea=idea,
        language="en",
        accent="#B5EAD7",
        app_settings={"units": "metric", "currency": "EUR"},
        memories=privacy.nothing(destination),
    )


# ── the schema is the declaration's ─────────────────────────────────────────────────────
def test_the_schema_is_read_from_the_spec_declaration_and_its_specs_hold_to_it():
    import jsonschema

    schema = json_schema()
    measure = schema["properties"]["measures"]["items"]
    assert set(measure["properties"]) == {f.name for f in fields(Measure)}
    assert set(measure["required"]) == {"key", "name", "unit"}
    assert measure["properties"]["kind"]["enum"] == ["count", "amount", "duration", "quantity"]
    money = schema["properties"]["money"]["anyOf"][0]
    assert set(money["properties"]) == {f.name for f in fields(Money)}
    # What the rules write holds to the schema; what the schema refuses, the validation refuses.
    for idea in ("my blood pressure every morning and evening", "split the rent with Ana and Ben", "books I lent"):
        jsonschema.validate(write_spec(idea, {}, "App").to_json(), schema)
    bad = {"measures": [{"key": "Run Distance", "name": "Runs", "unit": "km"}]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)
    with pytest.raises(ValueError):
        parse_spec(bad)


# ── the one function make and change call ───────────────────────────────────────────────
@pytest.mark.parametrize("api", ["anthropic", "openai"])
def test_the_model_is_sent_the_schema_and_its_spec_is_taken(api):
    with ModelServer(spec=lambda req: Reply.text("Here it is:\n```json\n" + ANSWER + "\n```")) as server:
        endpoint = Endpoint(server.url, "scripted-model", api=api)
        destination = privacy.local_model(server.url, Settings())
        planned = ask_spec(_brief(IDEA, destination), endpoint, destination, write_spec(IDEA, {}, "Runs"))
        [request] = server.spec_requests
    assert '"furlong"' not in request.raw and "measures" in request.raw and "free_entry" in request.raw
    assert IDEA in request.raw
    assert planned.by == "model" and planned.note == "" and planned.title == "Morning furlongs"
    assert [(m.key, m.unit) for m in planned.spec.measures] == [("distance", "furlong"), ("heart_rate", "bpm")]


def test_an_invalid_part_is_the_rules_and_an_invalid_spec_is_all_the_rules():
    rules = AppSpec(money=Money(currency="EUR", budget=300))
    part = judged(json.dumps({"spec": {**MODEL_SPEC, "money": {"currency": "euros"}}}), rules)
    assert part.by == "model" and len(part.spec.measures) == 2 and part.spec.money == rules.money
    assert "money.currency" in part.note
    broken = judged(json.dumps({"spec": {"measures": [{"key": "Run Distance", "unit": ""}]}}), rules)
    assert broken.by == "rules" and broken.spec == rules
    assert broken.note.startswith("the model's spec was not valid (measures[0].key")
    assert judged("I'd track distance in km.", rules).note == "the model's spec was not JSON; the rules wrote it"
    assert judged("{}", rules).spec == rules


def test_a_model_that_fails_leaves_the_spec_to_the_rules():
    rules = write_spec(IDEA, {}, "Runs")
    with ModelServer(spec=lambda req: Reply.error(500, "api_error", "boom")) as server:
        destination = privacy.local_model(server.url, Settings())
        planned = ask_spec(_brief(IDEA, destination), Endpoint(server.url, "m", api="anthropic"), destination, rules)
    assert planned.spec == rules and planned.by == "rules" and "the rules wrote it" in planned.note


def test_only_the_gate_decides_what_of_the_brief_the_spec_request_carries(macaron_home):
    from macaron_cli.maker.brief import build_brief
    from macaron_cli.memory import MemoryStore

    store = MemoryStore.open()
    store.add("I run along the river with a 400 m loop", domain="health")
    store.add("Cardiologist said my runs must stay under 150 bpm", domain="health", privacy="private")
    with ModelServer(spec=lambda req: Reply.text(ANSWER)) as server:
        claude = privacy.claude(Settings(), server.url)
        brief = build_brief(IDEA, store, Settings(), claude)
        ask_spec(brief, Endpoint(server.url, "claude-sonnet-4-5", api="anthropic"), claude, AppSpec())
        local = privacy.local_model("http://127.0.0.1:9", Settings())
        with pytest.raises(privacy.PrivacyViolation):  # cleared for Claude, asked of another model
            ask_spec(brief, Endpoint(server.url, "m", api="anthropic"), local, AppSpec())
        sent = server.all_bytes()
    assert "400 m loop" in sent, "the personal memory never reached the spec request"
    assert "Cardiologist" not in sent, "a private memory reached a cloud model's spec request"


# ── a local draft server's context ──────────────────────────────────────────────────────
def _river_brief(destination):
    from macaron_cli.maker.brief import build_brief
    from macaron_cli.memory import MemoryStore

    store = MemoryStore.open()
    for n in range(8):
        store.add(
            f"Run {n}: I ran along the river past the old mill and the bridge, {n + 3} km, slow and happy",
            domain="health",
        )
    return build_brief(IDEA, store, Settings(), destination)


def test_the_spec_request_fits_a_small_draft_context_by_cutting_the_brief_never_the_schema(macaron_home):
    from macaron_cli.models.limits import CHARS_PER_TOKEN

    routes = {"/props": {"n_ctx": 2600}}  # llama-server says its context in /props
    with ModelServer(spec=lambda req: Reply.text(ANSWER), routes=routes) as server:
        destination = privacy.local_model(server.url, Settings())
        brief = _river_brief(destination)
        assert brief.text_for(destination).count("along the river") >= 5  # more than fits
        endpoint = Endpoint(server.url, "m", api="openai")
        planned = ask_spec(brief, endpoint, destination, AppSpec(), local_settings=Settings())
        [asked] = server.spec_requests
    contents = [m["content"] for m in asked.body["messages"]]
    assert json.dumps(json_schema(), ensure_ascii=False) in contents[0]  # the schema, whole
    assert IDEA in contents[-1] and asked.body["max_tokens"] >= 600
    assert -(-sum(map(len, contents)) // CHARS_PER_TOKEN) + asked.body["max_tokens"] <= 2600
    assert asked.raw.count("along the river") < brief.text_for(destination).count("along the river")
    assert planned.by == "model" and "lines of the brief were left out" in planned.note


def test_a_draft_context_too_small_for_the_schema_is_said_and_the_rules_write_the_spec(macaron_home):
    rules = write_spec(IDEA, {}, "Runs")
    with ModelServer(spec=lambda req: Reply.text(ANSWER), routes={"/props": {"n_ctx": 1024}}) as server:
        destination = privacy.local_model(server.url, Settings())
        endpoint = Endpoint(server.url, "m", api="openai")
        planned = ask_spec(_brief(IDEA, destination), endpoint, destination, rules, local_settings=Settings())
        assert server.spec_requests == []  # never sent with the schema cut
    assert planned.spec == rules and planned.by == "rules"
    assert planned.note == "the spec's schema does not fit the server's context (1,024 tokens); the rules wrote it"


# ── make, end to end ────────────────────────────────────────────────────────────────────
def _make(macaron, spec_reply: Reply, *args: str):
    """`make --local-only` whose draft model answers the spec request with `spec_reply`,
    then fails the draft: the make stops after the scaffold, which is what is looked at."""
    with ModelServer(lambda req: Reply.error(400, "invalid_request_error", "no draft"), spec=lambda r: spec_reply) as m:
        run = macaron("make", IDEA, "--local-only", "--yes", *args, env={"MACARON_DRAFT_URL": m.url}, timeout=300)
        return run, list(m.spec_requests)


@pytest.mark.slow
def test_make_takes_the_models_spec_into_the_app_and_its_json(macaron):
    run, [asked] = _make(macaron, Reply.text(ANSWER), "--json")
    assert "JSON Schema" in asked.raw and IDEA in asked.raw
    out = json.loads(run.stdout)
    app = Path(out["path"])
    manifest = json.loads((app / "macaron.json").read_text())
    units = [m["unit"] for m in manifest["spec"]["measures"]]
    assert units == ["furlong", "bpm"]
    assert [m["unit"] for m in out["spec"]["measures"]] == units
    assert out["title"] == manifest["title"] == "Morning furlongs"
    assert out["fit"] == "good" and out["missing"] == []
    assert [p["phase"] for p in out["phases"]][:1] == ["spec"]


@pytest.mark.slow
def test_make_with_an_invalid_spec_falls_back_to_the_rules_and_says_so(macaron):
    wrong = json.dumps({"spec": {"measures": [{"key": "Run Distance", "name": "", "unit": "furlong"}]}})
    run, _ = _make(macaron, Reply.text(wrong))
    assert "the model's spec was not valid (measures[0].key" in run.stderr + run.stdout
    assert "the rules wrote it" in run.stderr + run.stdout
    apps = json.loads(macaron("apps", "--json").stdout)
    manifest = json.loads((Path(apps[0]["path"]) / "macaron.json").read_text())
    rules = write_spec(IDEA, {"units": "metric", "currency": "USD"}, manifest["title"])
    assert [m["unit"] for m in manifest["spec"]["measures"]] == [m.unit for m in rules.measures]
    assert "furlong" not in json.dumps(manifest)
    # --json says it among the make's notes.
    run, _ = _make(macaron, Reply.text(wrong), "--json")
    notes = json.loads(run.stdout)["notes"]
    assert any(n.startswith("spec: the model's spec was not valid") for n in notes), notes
