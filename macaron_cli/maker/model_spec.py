"""The app's spec from the model, before anything is chosen from it.

With a model configured, the model that writes the app first says what the app tracks:
one request with the spec's JSON Schema (app_spec.json_schema, read from its one
declaration) and the brief as the gate cleared it for that model. The answer is judged by
the spec's own validation; the rules fill a part that is invalid, and write the whole spec
when the model gives none that holds (said in one line). The template, title, fit and
`missing` then follow from this spec, not from the rules' guess.

`ask_spec` is the one way to ask, for `macaron make` and for a change to an app (with the
app's current spec to start from).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from macaron_cli import config, lang, privacy
from macaron_cli.maker import phase_costs
from macaron_cli.models.client import Endpoint, Usage
from macaron_cli.models.failures import ContextExceeded, ModelFailure
from macaron_cli.models.limits import ServerLimits, assumed
from macaron_cli.spec import AppSpec, SpecError, json_schema, parse_spec

if TYPE_CHECKING:
    from macaron_cli.maker.brief import Brief
    from macaron_cli.maker.state import MakeState

MODEL_TITLE_MAX = 40  # fit.MAX_TITLE: a header's width
MAX_TOKENS = 2000
MIN_SPEC_ANSWER = 600  # a spec of a few measures, and its title, as JSON

SPEC_MARK = "You plan a small personal app"  # how the request's system prompt begins
# The titles shown as examples: English's and Japanese's (lang's title.example), each quoted.
_EXAMPLES = ", ".join(f'\\"{lang.words("title.example", code)}\\"' for code in ("en", "ja"))
SYSTEM = (
    SPEC_MARK
    + """ from what a person asked for. Answer with one JSON
object and nothing else:
{{"title": "<the app's name: a short noun phrase in the idea's own language naming what the
app keeps ("""
    + _EXAMPLES
    + """); never a sentence, never the word app>",
 "spec": <what the app tracks, valid against the schema below>}}

In the spec, use what the person said: their units (never a unit they refused), their
currency, the people they named, their goals, targets, budgets, times of day and dates.
Leave out what they did not ask for. Keys are lower-case snake_case. Currency codes are
ISO 4217. A countdown date is YYYY-MM-DD.

The spec's JSON Schema:
{schema}
"""
)


@dataclass(frozen=True)
class Planned:
    """What the app tracks and is called, and who said so."""

    spec: AppSpec
    title: str | None = None  # the model's name for the app; None: the rules name it
    by: str = "rules"  # "model" | "rules"
    note: str = ""  # one line when the rules wrote or filled part of it
    usage: Usage | None = None  # set when the model answered
    asked: Endpoint | None = None  # the model asked
    where: str = ""  # the gate's word for where the request went (local | cloud)


def ask_spec(
    brief: Brief,
    endpoint: Endpoint,
    destination: privacy.Destination,
    fallback: AppSpec,
    current: AppSpec | None = None,
    max_tokens: int = MAX_TOKENS,
    local_settings: config.Settings | None = None,
) -> Planned:
    """The model's spec for `brief` (its text cleared for `destination` only by the gate),
    judged against `fallback`, the rules' spec. `current`: the app's spec when changing one.
    `local_settings`: the endpoint is the local model's server, whose context (models/limits.py)
    the request is sized to: the schema and the idea whole, the brief cut from its end."""
    brief_text = brief.text_for(destination)
    now = "" if current is None else json.dumps(current.to_json())
    system = SYSTEM.format(schema=json.dumps(json_schema(), ensure_ascii=False))
    notes: list[str] = []
    try:
        with endpoint.client(read_timeout=120.0) as client:
            limits = _limits(client, local_settings)
            for _ in range(2):  # a server that refuses the prompt as too long names its size: once more
                sized = sized_request(system, brief_text, now, brief.idea, limits, max_tokens) if limits else None
                if limits and sized is None:
                    note = f"the spec's schema does not fit the server's context ({limits.context:,} tokens)"
                    return replace(
                        Planned(fallback, note=note + "; the rules wrote it"), asked=endpoint, where=destination.where
                    )
                prompt, answer, cut = sized or (_prompt(brief_text, now), max_tokens, 0)
                try:
                    messages = [{"role": "user", "content": prompt}]
                    text, usage = client.complete(system, messages, answer, temperature=0)
                except ContextExceeded as refused:
                    if not (limits and refused.context and refused.context < limits.context):
                        raise
                    limits = assumed(refused.context)
                    continue
                if cut:
                    notes.append(f"{cut} lines of the brief were left out to fit the server's context")
                break
    except ModelFailure as exc:
        planned = Planned(fallback, note=f"the model gave no spec ({exc}); the rules wrote it", usage=Usage())
    else:
        planned = judged(text, fallback, usage)
    note = "; ".join(n for n in (*notes, planned.note) if n)
    return replace(planned, note=note, asked=endpoint, where=destination.where)


def _prompt(brief_text: str, current: str) -> str:
    if not current:
        return brief_text
    return brief_text + "\nThe app's spec now (change only what the request asks):\n" + current


def _limits(client, local_settings: config.Settings | None) -> ServerLimits | None:
    if local_settings is None:
        return None
    from macaron_cli.models.limits import read_limits

    return read_limits(client, local_settings)


def sized_request(
    system: str, brief_text: str, current: str, idea: str, limits: ServerLimits, wanted: int
) -> tuple[str, int, int] | None:
    """(prompt, max_tokens, brief lines left out) that fit the server's context: the system
    prompt with the schema, the app's current spec and the idea are never cut; the brief's
    other lines go from its end (the memories first) until the rest fits beside an answer
    of at least MIN_SPEC_ANSWER tokens. None when even that does not fit."""
    from macaron_cli.models.limits import answer_room

    lines = brief_text.splitlines()
    kept = list(lines)
    while True:
        prompt = _prompt("\n".join(kept) + "\n", current)
        answer = answer_room(limits, wanted, len(system) + len(prompt))
        if answer >= min(wanted, MIN_SPEC_ANSWER) and _holds(limits, system, prompt, answer):
            return prompt, answer, len(lines) - len(kept)
        cuttable = [n for n, line in enumerate(kept) if idea not in line and line.strip()]
        if not cuttable:
            return None
        del kept[cuttable[-1]]


def _holds(limits: ServerLimits, system: str, prompt: str, answer: int) -> bool:
    from macaron_cli.models.limits import CHARS_PER_TOKEN, MARGIN_TOKENS

    return -(-(len(system) + len(prompt)) // CHARS_PER_TOKEN) + MARGIN_TOKENS + answer <= limits.context


def judged(text: str, fallback: AppSpec, usage: Usage | None = None) -> Planned:
    """The model's answer as a Planned spec: each part it got right is kept; a part the
    spec's validation refuses is the rules' (or left out); nothing valid: the rules'."""
    answer = _json_object(text)
    if answer is None:
        return Planned(fallback, note="the model's spec was not JSON; the rules wrote it", usage=usage)
    raw = answer.get("spec", answer)
    title = _title(answer.get("title"))
    if not isinstance(raw, dict):
        return Planned(fallback, note="the model's spec was not an object; the rules wrote it", usage=usage)
    rules = fallback.to_json()
    kept: dict[str, Any] = {}
    wrong: list[str] = []
    took: list[str] = []  # the parts of the model's that hold
    for shape, value in raw.items():
        if shape == "version" or value in (None, [], {}):
            continue
        try:
            parse_spec({shape: value})
        except SpecError as exc:
            wrong.append(str(exc))
            if shape in rules:
                kept[shape] = rules[shape]
            continue
        kept[shape] = value
        took.append(shape)
    spec = parse_spec(kept)
    if not took or not spec.needs():  # nothing of the model's holds: the rules' spec, whole
        why = f"was not valid ({wrong[0]})" if wrong else "was empty"
        return Planned(fallback, title, note=f"the model's spec {why}; the rules wrote it", usage=usage)
    note = f"the rules filled what the model's spec had wrong ({wrong[0]})" if wrong else ""
    return Planned(spec, title, by="model", note=note, usage=usage)


def _json_object(text: str) -> dict | None:
    """The one JSON object in an answer (models wrap it in prose or a ``` fence)."""
    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end < start:
        return None
    try:
        found = json.loads(text[start : end + 1])
    except ValueError:
        return None
    return found if isinstance(found, dict) else None


def _title(raw: Any) -> str | None:
    if not isinstance(raw, str):
        return None
    title = " ".join(raw.split())
    return title if 0 < len(title) <= MODEL_TITLE_MAX else None


def spec_model(mode, settings: config.Settings, local: Endpoint | None) -> tuple[Endpoint, privacy.Destination, int]:
    """The model a make asks for its spec, where that request goes, and the most tokens of
    answer: the model that writes first (the local model with --draft/--local-only,
    answering no more than MACARON_DRAFT_MAX_TOKENS, else Claude)."""
    if mode.uses_local_model and local is not None:
        from macaron_cli.models.limits import wanted_answer

        return local, privacy.local_model(local.url, settings), min(MAX_TOKENS, wanted_answer())
    from macaron_cli.models import registry

    coder = registry.coder(settings)
    return coder.direct(), coder.destination, MAX_TOKENS


def record_cost(state: MakeState, planned: Planned, settings: config.Settings, by: str) -> None:
    """The spec request's tokens and cost in the make's totals, as a phase of its own (its
    note, when the rules wrote the spec, among the make's notes); `by` is the model asked
    (draft | agent), for the sums."""
    from macaron_cli.models.prices import call_cost

    usage, endpoint = planned.usage, planned.asked
    if usage is None or endpoint is None:
        return
    cost = call_cost(endpoint.url, endpoint.model, usage, settings)
    tokens = (usage.input_tokens, usage.output_tokens)
    notes = [planned.note] if planned.note else []
    phase_costs.record(state, "spec", planned.where, endpoint.model, *tokens, usage.seconds, cost, by, notes=notes)
    if by == "agent":  # the agent's clock, which its phases' seconds are read from
        state.timings["agent"] = round(state.timings.get("agent", 0.0) + usage.seconds, 3)
