"""What a make has cost so far, from our own price table, and the budget it must stay in.

The SDK's own `total_cost_usd` prices every model as Claude; we add up the `usage` of
every model response ourselves (each message counted once, subagents included), priced
as the registry's coder says (models/registry.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from macaron_cli.config import Settings
from macaron_cli.models.failures import OverBudget


class BudgetExceeded(OverBudget):
    """The meter's budget is reached (one of the model failures: a make stops on it)."""


class UnpricedBudget(BudgetExceeded):
    """A budget was set, but a response came from a model with no known price."""


@dataclass
class CostMeter:
    settings: Settings  # the person's own [prices] come first
    budget_usd: float | None = None
    cost_usd: float = 0.0
    tokens: dict = field(default_factory=lambda: {"input": 0, "output": 0, "cache_write": 0, "cache_read": 0})
    _seen: set = field(default_factory=set)

    def add(self, model: str | None, usage: dict | None, message_id: str | None = None) -> float:
        """Count one response's usage; returns the cost it added."""
        if not usage or (message_id and message_id in self._seen):
            return 0.0
        if message_id:
            self._seen.add(message_id)
        from macaron_cli.models import registry
        from macaron_cli.models.prices import unpriced_message

        coder = registry.coder(self.settings)
        parts = coder.tokens(usage)
        for key, value in parts.items():
            self.tokens[key] += value
        added = coder.cost(model, parts)
        if added is None and any(parts.values()) and self.budget_usd is not None:
            # Counting it as free would let a budget run forever: stop, and say how to price it.
            raise UnpricedBudget(unpriced_message(model or "unnamed"))
        added = added or 0.0
        self.cost_usd += added
        return added

    @property
    def total_tokens(self) -> int:
        return sum(self.tokens.values())

    @property
    def over_budget(self) -> bool:
        return self.budget_usd is not None and self.cost_usd >= self.budget_usd

    def check(self) -> None:
        if self.over_budget:
            raise BudgetExceeded(f"budget of ${self.budget_usd:.2f} reached (${self.cost_usd:.4f} spent)")
