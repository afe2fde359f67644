"""`macaron why`: the chain behind a memory, an app, or the last thing macaron did."""

from __future__ import annotations

from pathlib import Path

from macaron_cli.errors import UserError
from macaron_cli.ledger.reward import outcome_of
from macaron_cli.ledger.store import Ledger, node


def explain(target: str, ledger: Ledger, store=None) -> list[str]:
    """Lines of plain text, most important first."""
    if target == "last":
        event = ledger.last_event(("app_made", "answer"))
        if not event:
            raise UserError("nothing to explain yet: make an app or chat first.")
        target = event["subject"].split(":", 1)[1]
        return (
            explain_app(target, ledger, store) if event["kind"] == "app_made" else explain_answer(target, ledger, store)
        )
    if target.startswith("m_"):
        return explain_memory(target, ledger, store)
    if target == "mcp" or target.startswith("mcp:"):
        return explain_mcp(target, ledger, store)
    if target.startswith("a_"):
        return explain_answer(target, ledger, store)
    if ledger.events(subject=node("app", target), kind="app_made"):
        return explain_app(target, ledger, store)
    raise UserError(
        f"{target!r} is neither a memory id, an app, `mcp` nor `last`; see `macaron apps` and `macaron memory list`."
    )


def _memory_line(memory_id: str, store) -> str:
    if store is None:
        return memory_id
    try:
        m = store.get(memory_id)
    except UserError:
        return f"{memory_id} (forgotten since)"
    text = m.text if len(m.text) <= 70 else m.text[:67] + "…"
    return f"{memory_id} [{m.privacy}] {text}"


def explain_memory(memory_id: str, ledger: Ledger | None, store=None) -> list[str]:
    """`ledger` None: nothing was recorded yet (no ledger), so the memory was never used."""
    uses = [e for e in ledger.uses_of(node("memory", memory_id)) if e["kind"] == "request"] if ledger else []
    line = _memory_line(memory_id, store)
    if not uses and line.endswith("(forgotten since)"):
        raise UserError(f"no memory with id {memory_id!r}; `macaron memory list` shows the ids.")
    lines = [f"Memory {line}", *_replaced(memory_id, store), *_recorded_in(memory_id, store)]
    if not uses:
        lines.append("  never used in a brief or an answer yet.")
    for e in uses:
        where = "cloud" if e["data"].get("cloud") else "this machine"
        lines.append(
            f"  {e['time']}  used for {e['subject']} ({e['data'].get('purpose')}), sent to "
            f"{e['data'].get('endpoint')} ({where})"
        )
        for led_to in {u["subject"] for u in ledger.uses_of(e["subject"])} if ledger else ():
            lines.append(f"      which led to {led_to}: outcome {outcome_of(ledger, led_to).reward:+.2f}")
    checks = ledger.events(subject=node("memory", memory_id), kind="verified") if ledger else []
    for e in checks:
        lines.append(f"  {e['time']}  you said it is {'still true' if e['value'] else 'no longer true'}")
    if store is not None:
        try:
            lines.append(
                f"  reward now {store.get(memory_id).reward:+.2f} (outcomes credited by `macaron rate` and use)"
            )
        except UserError:
            pass
    return lines


def _replaced(memory_id: str, store) -> list[str]:
    """What replaced it, if a newer memory updates it (memory/updates.py): it stays as history."""
    from macaron_cli.memory.updates import replaced_by

    try:
        newer = replaced_by(store, store.get(memory_id)) if store is not None else None
    except UserError:
        return []
    if newer is None:
        return []
    return [f"  replaced by {_memory_line(newer.id, store)} (said {newer.created_at[:10]}): kept as history"]


def _recorded_in(memory_id: str, store) -> list[str]:
    """For an app's digest: which app and days it summarises, and where the records are."""
    from macaron_cli.memory.records import APP_SOURCE

    try:
        memory = store.get(memory_id) if store is not None else None
    except UserError:
        return []
    if memory is None or not memory.source.startswith(APP_SOURCE):
        return []
    meta = memory.meta
    return [
        f"  the digest of your app {memory.source[len(APP_SOURCE) :]} for {meta.get('since')} to {meta.get('today')} "
        f"({meta.get('count', 0)} records), {memory.privacy} like the app; the records stay in the app"
    ]


def explain_app(app: str, ledger: Ledger, store=None) -> list[str]:
    made = ledger.events(subject=node("app", app), kind="app_made")[-1]
    data = made["data"]
    lines = [
        f"App {app}: made {made['time']} from template {data.get('template')}"
        + (f", based on your app {data['from']}" if data.get("from") else "")
    ]
    if data.get("reason"):
        lines.append(f"  template chosen because {data['reason']}")
    brief = ledger.events(subject=node("brief", app), kind="request")
    for e in brief:
        where = "cloud" if e["data"].get("cloud") else "this machine"
        lines.append(f"  brief sent to {e['data'].get('endpoint')} ({where}) with these memories:")
    for src in ledger.sources_of(node("brief", app)):
        lines.append(f"    {_memory_line(src.split(':', 1)[1], store)}")
    lines += _tokens_line(app)
    rates = {e["data"].get("change"): e["value"] for e in ledger.events(subject=node("app", app), kind="rate")}
    for e in ledger.events(subject=node("app", app), kind="change"):
        lines.append(_change_line(e, rates.get(e["data"].get("checkpoint"))))
    outcome = outcome_of(ledger, node("app", app))
    signals = ", ".join(f"{k} {v:g}" for k, v in sorted(outcome.signals.items()) if v)
    lines.append(f"  outcome so far: {outcome.reward:+.2f}" + (f" ({signals})" if signals else ""))
    return lines


def _change_line(event: dict, stars: float | None) -> str:
    """One change: when, its checkpoint, by what and where to, its cost, the request, what moved."""
    data = event["data"]
    done = "; ".join(data.get("done") or [])
    by = f"by {data.get('by') or 'rules'}"
    if data.get("destinations"):
        by += f" (sent to {', '.join(data['destinations'])}, ${data.get('cost_usd') or 0:.4f})"
    rated = f", rated {stars:g}/5" if stars is not None else ""
    return f"  changed {event['time'][:16]} ({data.get('checkpoint')}, {by}{rated}): “{data.get('request')}” → {done}"


def _tokens_line(app: str) -> list[str]:
    """The models' tokens for the app, from its make's record; estimates said as such."""
    import json

    from macaron_cli.apps import PRIVATE_DIR, load_registry

    path = load_registry().get(app, {}).get("path") or ""
    try:  # the make's record (maker/state.py; read as JSON: the maker imports the ledger)
        phases = json.loads((Path(path) / PRIVATE_DIR / "make.json").read_text(encoding="utf-8"))["phase_costs"]
    except (TypeError, OSError, ValueError, KeyError):
        return []
    if not isinstance(phases, list) or not phases:
        return []
    total = sum(p.get("input_tokens", 0) + p.get("output_tokens", 0) for p in phases)
    guessed = [p["phase"] for p in phases if p.get("estimated")]
    said = f" (estimated for {', '.join(guessed)}: the model server gave no usage)" if guessed else ""
    return [f"  models used {total:,} tokens{said}"]


def explain_answer(answer: str, ledger: Ledger, store=None) -> list[str]:
    lines = [f"Answer {answer}"]
    for e in ledger.events(subject=node("answer", answer), kind="request"):
        lines.append(f"  sent to {e['data'].get('endpoint')} ({'cloud' if e['data'].get('cloud') else 'this machine'})")
    for src in ledger.sources_of(node("answer", answer)):
        lines.append(f"    recalled {_memory_line(src.split(':', 1)[1], store)}")
    return lines


MCP_CALLS_SHOWN = 50


def explain_mcp(target: str, ledger: Ledger, store=None) -> list[str]:
    """What MCP clients asked (`mcp`: every client; `mcp:NAME`: one) and what went out."""
    one = ":" in target
    events = (
        ledger.events(subject=target, limit=MCP_CALLS_SHOWN) if one else ledger.events_under("mcp:", MCP_CALLS_SHOWN)
    )
    if not events:
        raise UserError(f"no MCP client has called macaron yet{' as ' + target if one else ''}.")
    lines = [f"The last {len(events)} MCP calls, oldest first:"]
    reasons: dict[str, str] = {}
    for e in events:
        data = e["data"]
        arguments = ", ".join(f"{k}={v!r}" for k, v in (data.get("arguments") or {}).items())
        call = f"  {e['time']}  {e['subject']} {data.get('tool')}({arguments})"
        if e["kind"] == "request":
            sent = ledger.sources_of_event(e["id"])
            reasons[e["subject"]] = data.get("reason", "")
            where = "the cloud" if data.get("cloud") else "this machine"
            lines.append(f"{call}: {len(sent)} memor{'y' if len(sent) == 1 else 'ies'} went to {where}")
            lines += [f"      {_memory_line(src.split(':', 1)[1], store)}" for src in sent]
        elif e["kind"] == "mcp_add":
            lines.append(f"{call}: added {_memory_line(data.get('memory_id', '?'), store)}")
        elif e["kind"] == "mcp_forget":
            lines.append(f"{call}: forgot {', '.join(data.get('memory_ids') or [])}")
        elif e["kind"] == "mcp_refused":
            given = ", ".join(data.get("argument_names") or [])
            lines.append(f"  {e['time']}  {e['subject']} {data.get('tool')}({given}): refused, nothing went out")
    lines += [f"  {client}: {reason}" for client, reason in reasons.items() if reason]
    return lines
