"""What a model call costs, from our own table.

The Agent SDK's `total_cost_usd` prices every model as Claude, which is wrong for a
DeepSeek endpoint; costs shown to the person and budgets come from here instead.

- Claude (and hosted APIs): USD per million tokens, matched by the longest model-name
  prefix, so a dated id ("claude-sonnet-4-5-20250929") finds its family.
- Bedrock ("us.anthropic.claude-sonnet-4-5-20250929-v1:0") and Vertex
  ("claude-sonnet-4-5@20250929") ids find their Claude family too.
- The person's own `[prices."MODEL"]` tables in config.toml (input, output, optional
  cache_write and cache_read: USD per million tokens) come first.
- A remote model priced by neither cannot be held to a budget: `--budget` refuses it
  rather than count it as free.
- A model on this machine costs no tokens: its cost is the GPU time it used, priced by
  `gpu_usd_per_hour` in config.toml (0 unless the person sets it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from macaron_cli.config import Settings


@dataclass(frozen=True)
class Price:
    """USD per million tokens."""

    input: float
    output: float
    cache_write: float | None = None  # defaults to 1.25 × input (Anthropic's 5-minute cache)
    cache_read: float | None = None  # defaults to 0.1 × input


# Longest prefix wins. Family entries ("claude-opus") price ids newer than this table
# at the latest known price of that family.
PRICES: dict[str, Price] = {
    "claude-opus-4-5": Price(5.0, 25.0),
    "claude-opus-4-1": Price(15.0, 75.0),
    "claude-opus-4-0": Price(15.0, 75.0),
    "claude-opus-4-2025": Price(15.0, 75.0),  # claude-opus-4-20250514
    "claude-3-opus": Price(15.0, 75.0),
    "claude-opus": Price(5.0, 25.0),
    "claude-sonnet": Price(3.0, 15.0),
    "claude-3-7-sonnet": Price(3.0, 15.0),
    "claude-3-5-sonnet": Price(3.0, 15.0),
    "claude-haiku-4": Price(1.0, 5.0),
    "claude-3-5-haiku": Price(0.8, 4.0),
    "claude-3-haiku": Price(0.25, 1.25),
    "claude-haiku": Price(1.0, 5.0),
    # DeepSeek's hosted API (cloud: only when the person points the draft URL at it).
    "deepseek-chat": Price(0.28, 0.42, cache_read=0.028),
    "deepseek-reasoner": Price(0.28, 0.42, cache_read=0.028),
}


# Cloud platforms' spellings of a Claude id: a region/vendor prefix and a version suffix.
_PLATFORM = re.compile(r"^(?:[a-z]{2,6}\.)?anthropic\.|-v\d+(?::\d+)?$")


def price_for(model: str | None, settings: Settings) -> Price | None:
    """The price for `model` (the person's own table first), or None when it is not known."""
    if not model:
        return None
    own = own_prices(settings)
    name = model.lower()
    for key in (name, name.split("/")[-1]):
        if key in own:
            return own[key]
    name = _PLATFORM.sub("", name.split("/")[-1]).replace("@", "-")
    matches = [prefix for prefix in PRICES if name.startswith(prefix)]
    return PRICES[max(matches, key=len)] if matches else None


def unpriced_message(model: str) -> str:
    """One line: why a budget cannot hold for `model`, and the setting that fixes it."""
    from macaron_cli import config

    return (
        f"no price is known for model {model!r}, so a budget cannot be kept; add its price to "
        f'{config.config_path()} as [prices."{model}"] input = …, output = … (USD per million tokens)'
    )


def own_prices(settings: Settings) -> dict[str, Price]:
    """The `prices` setting of config.toml: {model id (lowercase): Price}."""
    from macaron_cli import config
    from macaron_cli.errors import UserError

    own = {}
    for model, entry in settings.prices.items():
        try:
            own[str(model).lower()] = Price(**{k: float(v) for k, v in entry.items()})
        except (AttributeError, TypeError, ValueError):
            raise UserError(
                f'{config.config_path()}: [prices."{model}"] needs numbers input and output '
                "(and optionally cache_write, cache_read), in USD per million tokens."
            ) from None
    return own


def token_cost(
    model: str | None,
    input_tokens: int = 0,
    output_tokens: int = 0,
    cache_write_tokens: int = 0,
    cache_read_tokens: int = 0,
    *,
    settings: Settings,
) -> float | None:
    """USD for these tokens at `model`'s price; None when the model is not in the table."""
    price = price_for(model, settings)
    if price is None:
        return None
    cache_write = price.cache_write if price.cache_write is not None else price.input * 1.25
    cache_read = price.cache_read if price.cache_read is not None else price.input * 0.1
    return (
        input_tokens * price.input
        + output_tokens * price.output
        + cache_write_tokens * cache_write
        + cache_read_tokens * cache_read
    ) / 1_000_000


def gpu_cost(seconds: float, gpu_usd_per_hour: float) -> float:
    """What `seconds` of the person's GPU cost them (config `gpu_usd_per_hour`, default 0)."""
    return max(seconds, 0.0) * gpu_usd_per_hour / 3600.0


def call_cost(endpoint_url: str | None, model: str | None, usage, settings: Settings) -> float:
    """The cost of one call described by a `Usage`: GPU time on this machine, tokens elsewhere.

    A remote model missing from the table costs 0 here rather than a guess; the summary
    says the price is unknown (see `is_priced`).
    """
    from macaron_cli.privacy import is_loopback

    # Who pays, not who may see: a loopback server runs on the person's own GPU.
    if is_loopback(endpoint_url):
        return gpu_cost(usage.seconds, settings.gpu_usd_per_hour)
    return token_cost(model, usage.input_tokens, usage.output_tokens, settings=settings) or 0.0


def is_priced(endpoint_url: str | None, model: str | None, settings: Settings) -> bool:
    from macaron_cli.privacy import is_loopback

    return is_loopback(endpoint_url) or price_for(model, settings) is not None
