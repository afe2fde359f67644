"""A budget holds only for models macaron can price: an unknown one is refused with the
setting that prices it, never counted as free."""

from __future__ import annotations

import pytest

from macaron_cli import config
from macaron_cli.maker.cost import BudgetExceeded, CostMeter
from macaron_cli.models.prices import price_for

DEFAULTS = config.Settings()  # no prices of the person's own
USAGE = {"input_tokens": 400_000, "output_tokens": 100_000}
UNKNOWN = "acme-coder-1"


def test_a_bedrock_or_vertex_id_is_priced_as_its_claude_family(macaron_home):
    sonnet = price_for("claude-sonnet-4-5", DEFAULTS)
    assert price_for("anthropic.claude-sonnet-4-5-20250929-v1:0", DEFAULTS) == sonnet
    assert price_for("us.anthropic.claude-sonnet-4-5-20250929-v1:0", DEFAULTS) == sonnet
    assert price_for("claude-sonnet-4-5@20250929", DEFAULTS) == sonnet
    meter = CostMeter(DEFAULTS, budget_usd=1.0)
    meter.add("anthropic.claude-sonnet-4-5-20250929-v1:0", USAGE)
    assert meter.cost_usd == pytest.approx(0.4 * 3 + 0.1 * 15) and meter.over_budget


def test_an_unpriced_model_under_a_budget_stops_and_names_the_prices_setting(macaron_home):
    meter = CostMeter(DEFAULTS, budget_usd=5.0)
    with pytest.raises(BudgetExceeded) as stopped:
        meter.add(UNKNOWN, USAGE)
    message = str(stopped.value)
    assert UNKNOWN in message and f'[prices."{UNKNOWN}"]' in message and "config.toml" in message
    assert "\n" not in message
    # Without a budget nothing needs stopping.
    assert CostMeter(DEFAULTS).add(UNKNOWN, USAGE) == 0.0


def test_the_persons_own_price_counts_against_the_budget(macaron_home):
    settings = config.save_settings({"prices": {UNKNOWN: {"input": 2.0, "output": 10.0}}})
    meter = CostMeter(settings, budget_usd=1.0)
    meter.add(UNKNOWN, USAGE)
    assert meter.cost_usd == pytest.approx(0.4 * 2 + 0.1 * 10) and meter.over_budget


def test_make_refuses_a_configured_unpriced_model_before_making_anything(macaron, macaron_home, tmp_path):
    config.save_settings({"model": UNKNOWN})
    done = macaron(
        "make",
        "a habit tracker",
        "--budget",
        "1",
        "--yes",
        env={"ANTHROPIC_BASE_URL": "http://127.0.0.1:9", "ANTHROPIC_API_KEY": "k"},
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "prices" in done.stderr and UNKNOWN in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "apps").exists() or not any((tmp_path / "apps").iterdir())


def test_a_malformed_prices_table_is_refused_before_making_anything(macaron, macaron_home, tmp_path):
    config.save_settings({"prices": {UNKNOWN: {"input": "cheap"}}})
    done = macaron(
        "make", "a habit tracker", "--yes", env={"ANTHROPIC_BASE_URL": "http://127.0.0.1:9", "ANTHROPIC_API_KEY": "k"}
    )
    assert done.returncode == 2 and f'[prices."{UNKNOWN}"]' in done.stderr, done.stderr
    assert not (tmp_path / "apps").exists() or not any((tmp_path / "apps").iterdir())
