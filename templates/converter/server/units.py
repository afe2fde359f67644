"""Units people convert every day, and a calculator that only does arithmetic.

Every unit is defined by its size in its category's base unit, in the table every app
shares (static/units.json; temperature, which does not scale from zero, by a function to
and from kelvin here). Ids follow the Intl/CLDR names so the front end can name them in
any language.
"""

from __future__ import annotations

import ast
import operator

from server.app_units import SCALES as UNITS

TEMPERATURE = {  # unit → (symbol, to kelvin, from kelvin)
    "celsius": ("°C", lambda c: c + 273.15, lambda k: k - 273.15),
    "fahrenheit": ("°F", lambda f: (f - 32) * 5 / 9 + 273.15, lambda k: (k - 273.15) * 9 / 5 + 32),
    "kelvin": ("K", lambda k: k, lambda k: k),
}
# The pair each category opens with, for someone on metric or imperial units.
DEFAULT_PAIRS = {
    "metric": {
        "length": ("kilometer", "mile"),
        "weight": ("kilogram", "pound"),
        "volume": ("milliliter", "cup"),
        "temperature": ("celsius", "fahrenheit"),
        "area": ("square-meter", "square-foot"),
        "cooking": ("cup", "gram"),
        "pace": ("minute-per-kilometer", "minute-per-mile"),
        "speed": ("kilometer-per-hour", "mile-per-hour"),
    },
    "imperial": {
        "length": ("mile", "kilometer"),
        "weight": ("pound", "kilogram"),
        "volume": ("cup", "milliliter"),
        "temperature": ("fahrenheit", "celsius"),
        "area": ("square-foot", "square-meter"),
        "cooking": ("cup", "tablespoon"),
        "pace": ("minute-per-mile", "minute-per-kilometer"),
        "speed": ("mile-per-hour", "kilometer-per-hour"),
    },
}
CATEGORIES = ["length", "weight", "volume", "temperature", "area", "cooking", "pace", "speed"]
# category → unit → (symbol, size in the category's base unit): the units table every app
# shares (static/units.json), the categories this converter offers.
SCALES = {category: UNITS[category] for category in CATEGORIES if category in UNITS}


def catalogue(units_system: str = "metric", pairs: dict | None = None) -> dict:
    """Every category with its units (id and symbol) and the pair it opens with
    (`pairs`: the person's own opening pairs, category → [from, to])."""
    result = {}
    for category in CATEGORIES:
        units = TEMPERATURE if category == "temperature" else SCALES[category]
        first, second = DEFAULT_PAIRS.get(units_system, DEFAULT_PAIRS["metric"])[category]
        wanted = (pairs or {}).get(category)
        if isinstance(wanted, (list, tuple)) and len(wanted) == 2 and all(u in units for u in wanted):
            first, second = wanted
        result[category] = {
            "units": [{"id": u, "symbol": spec[0]} for u, spec in units.items()],
            "from": first,
            "to": second,
        }
    return result


def category_of(unit: str) -> str | None:
    if unit in TEMPERATURE:
        return "temperature"
    return next((c for c, units in SCALES.items() if unit in units), None)


def symbol(unit: str) -> str:
    return TEMPERATURE[unit][0] if unit in TEMPERATURE else SCALES[category_of(unit)][unit][0]


def convert(value: float, source: str, target: str) -> float:
    """value in `source` expressed in `target`; ValueError when they measure different things."""
    category = category_of(source)
    if category is None or category_of(target) is None:
        raise ValueError(f"unknown unit {source if category is None else target!r}")
    # Kitchen measures bridge volume and weight (cups to grams): any category holding both.
    category = next((c for c, units in SCALES.items() if source in units and target in units), category)
    if category != "temperature" and not (source in SCALES[category] and target in SCALES[category]):
        raise ValueError(f"{source} and {target} measure different things")
    if category == "temperature" and category_of(target) != "temperature":
        raise ValueError(f"{source} and {target} measure different things")
    if category == "temperature":
        return TEMPERATURE[target][2](TEMPERATURE[source][1](value))
    units = SCALES[category]
    return value * units[source][1] / units[target][1]


_OPERATORS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
    ast.USub: operator.neg,
    ast.UAdd: operator.pos,
}
_SPELLINGS = {"×": "*", "÷": "/", "−": "-", "，": ",", "（": "(", "）": ")", "^": "**"}


def calculate(expression: str) -> float:
    """Arithmetic only (+ − × ÷ // % ^ and brackets): never eval, never names or calls."""
    text = expression.strip()
    for written, python in _SPELLINGS.items():
        text = text.replace(written, python)
    if not text or len(text) > 200:
        raise ValueError("write a calculation such as 12 * (3 + 4)")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        raise ValueError("that is not a calculation I can read") from None

    def value(node: ast.AST) -> float:
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            return node.value
        if isinstance(node, ast.UnaryOp) and type(node.op) in _OPERATORS:
            return _OPERATORS[type(node.op)](value(node.operand))
        if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
            left, right = value(node.left), value(node.right)
            if isinstance(node.op, ast.Pow) and abs(right) > 100:
                raise ValueError("that power is too large")
            return _OPERATORS[type(node.op)](left, right)
        raise ValueError("only numbers and + − × ÷ % ^ ( ) are allowed")

    try:
        return float(value(tree.body))
    except ZeroDivisionError:
        raise ValueError("cannot divide by zero") from None
    except OverflowError:
        raise ValueError("the result is too large") from None
