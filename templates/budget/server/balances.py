"""Where each person stands, for the app's page and for its digest (one computation): shared
bills, what each paid less an equal share of them all; debts, what was lent less what was
paid back. Every month together, in the configured currency."""

from __future__ import annotations

import sqlite3


def standing(conn: sqlite3.Connection, config: dict) -> dict:
    people = config.get("people") or []
    rows = conn.execute(
        "SELECT who, SUM(CASE WHEN repaid THEN -amount_minor ELSE amount_minor END) AS total FROM expenses "
        "WHERE currency = ? AND who IS NOT NULL GROUP BY who",
        (config["currency"],),
    ).fetchall()
    totals = {r["who"]: r["total"] for r in rows}
    if config.get("debts"):  # what each borrower still owes; "me" lends, and owes no one here
        owing = [p for p in people if p != "me"]
        return {"mode": "debts", "people": [{"name": p, "balance_minor": totals.get(p, 0)} for p in owing]}
    share = sum(totals.get(p, 0) for p in people) / len(people) if people else 0
    return {
        "mode": "split",
        "people": [
            {"name": p, "paid_minor": paid, "balance_minor": round(paid - share)}
            for p, paid in ((p, totals.get(p, 0)) for p in people)
        ],
    }


def in_words(balances: dict, words, currency: str) -> list[str]:
    """Each person's standing as the page says it ("Tom owes you $40.00"), in the app's language."""
    out = []
    for p in balances["people"]:
        key = f"person.{p['name']}"
        name = words(key) if words.has(key) else p["name"]
        amount = words.money(abs(p["balance_minor"]), currency)
        if p["balance_minor"] == 0:
            said = words("budget.settled", name=name)
        elif p["name"] == "me":
            said = words("budget.you_are_owed" if p["balance_minor"] > 0 else "budget.you_owe", amount=amount)
        elif balances["mode"] == "debts":
            said = words("budget.owes_you" if p["balance_minor"] > 0 else "budget.is_owed", name=name, amount=amount)
        else:
            said = words("budget.is_owed" if p["balance_minor"] > 0 else "budget.owes", name=name, amount=amount)
        out.append(said)
    return out
