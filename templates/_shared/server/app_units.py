"""Units and their sizes, read from the one table (static/units.json) the page reads too.

This file is generated from macaron's templates/_shared/ (one source for every template
and for macaron itself, which converts the amounts people say with it); change it there.

Measures are stored metric; someone on imperial units sees them converted (IMPERIAL) with
a symbol (SYMBOLS). A converter converts between any two units of one family (SCALES).
Only the standard library: the app runtime and macaron both import it.
"""

from __future__ import annotations

import json
from pathlib import Path

TABLE = Path(__file__).resolve().parents[1] / "static" / "units.json"
_TABLE = json.loads(TABLE.read_text(encoding="utf-8"))

# family → unit → (symbol, size in the family's base unit), in the table's order
SCALES: dict[str, dict[str, tuple[str, float]]] = {
    family: {unit: (symbol, float(size)) for unit, (symbol, size) in units.items()}
    for family, units in _TABLE["sizes"].items()
}


def _imperial(metric: str, shown: str) -> tuple[str, float]:
    family = next(f for f, units in SCALES.items() if metric in units and shown in units)
    return shown, SCALES[family][metric][1] / SCALES[family][shown][1]


# a metric unit → (the imperial unit it is shown in, the factor from one to the other)
IMPERIAL: dict[str, tuple[str, float]] = {
    metric: _imperial(metric, shown) for metric, shown in _TABLE["imperial"].items()
}
# What a measure is written with in a sentence ("750 mL", "3.5 h"): the units a measure is
# stored or shown in, and time.
_WRITTEN = (*IMPERIAL, *(shown for shown, _ in IMPERIAL.values()), *SCALES["time"])
SYMBOLS: dict[str, str] = {
    unit: next(units[unit][0] for units in SCALES.values() if unit in units) for unit in _WRITTEN
}
# A cup or a glass of water as a tracker counts it → (the unit it stands for, how many of it).
SERVINGS: dict[str, tuple[str, float]] = {
    unit: (base, float(count)) for unit, (base, count) in _TABLE.get("servings", {}).items()
}


def written_number(value: float, decimals: int = 1) -> str:
    """A number as the apps write it: 3000 → "3,000", 2.25 → "2.2", 2.0 → "2"."""
    rounded = round(float(value), decimals)
    if rounded == int(rounded):
        return f"{int(rounded):,}"
    return f"{rounded:,.{decimals}f}".rstrip("0").rstrip(".")


def written(value: float, unit: str) -> str:
    """An amount as a sentence writes it: 750 milliliter → "750 mL", 3.5 hour → "3.5 h"; a
    unit with no symbol ("cups", "steps") by its own word."""
    return f"{written_number(value)} {SYMBOLS.get(unit, unit)}".strip()


def unit_factor(before: str, after: str) -> float | None:
    """What one `before` is in `after` (1000 for liter → milliliter), so recorded amounts follow
    a measure whose unit changes: a liter logged before "use cups, not ml" is 4 cups after it.
    None when they measure different things or either is a counted word (steps, times, pages)."""
    if before == after:
        return 1.0
    (base_before, count_before), (base_after, count_after) = (SERVINGS.get(u, (u, 1.0)) for u in (before, after))
    family = next((units for units in SCALES.values() if base_before in units and base_after in units), None)
    if family is None:
        return None
    return count_before * family[base_before][1] / (count_after * family[base_after][1])
