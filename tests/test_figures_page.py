"""Figures that are right: entries recorded through an app's page in a real Chromium, and
the figure the page shows is the one the digest (`macaron apps digest`, run in the sandbox)
and the friend's line say. A reading (blood pressure, weight) is its latest, each value
apart, never a sum; intake (water) adds up."""

from __future__ import annotations

import json

import pytest

from tests.support.served_page import served_page
from tests.test_change import scaffolded

pytestmark = pytest.mark.slow  # a server, a browser and the sandboxed digest


def _record(app, entries: list[list[str]], tap: int = 0) -> str:
    """Each entry typed into the first habit's form (or `tap` taps of its button), then the
    figure its card shows."""
    with served_page(app, ".habit") as page:
        card = page.locator(".habit").first
        for n, values in enumerate(entries, start=1):
            for field, value in zip(card.locator("form input").all(), values, strict=True):
                field.fill(value)
            card.locator("form button[type=submit]").click()
            page.wait_for_function(f"document.querySelectorAll('.log li').length === {n}")
        for n in range(1, tap + 1):
            card.locator(".habit-actions button.add").click()
            page.wait_for_function(f"document.querySelectorAll('.log li').length === {n}")
        return card.locator(".total").inner_text().strip()


def _digest_and_friend(macaron, slug: str) -> tuple[str, str]:
    """What `macaron apps digest` says, and the friend's one line of it."""
    from macaron_cli.friend.apps import one_line
    from macaron_cli.manifest import Digest

    done = macaron("apps", "digest", slug, "--json")
    assert done.returncode == 0, done.stderr
    found = Digest.from_json(slug, json.loads(done.stdout))
    return found.text, one_line(found)


@pytest.mark.parametrize(
    ("idea", "entries", "shown", "never"),
    [
        ("track my blood pressure morning and evening", [["142", "88"], ["135", "85"]], "135/85 mmHg", ["277", "173"]),
        ("log my weight every morning", [["70.4"], ["70.2"]], "70.2 kg", ["140.6", "140"]),
        ("血糖値を毎日記録", [["110"], ["98"]], "98 mg/dL", ["208"]),
    ],
)
def test_a_reading_is_its_latest_on_the_page_in_the_digest_and_to_the_friend(
    macaron, macaron_home, tmp_path, idea, entries, shown, never
):
    apps = tmp_path / "apps"
    slug = scaffolded(idea, "en", apps)
    assert _record(apps / slug, entries) == shown
    digest, friend = _digest_and_friend(macaron, slug)
    assert shown in digest and shown in friend, (digest, friend)
    assert not any(wrong in digest for wrong in never), digest
    assert "goal 0" not in digest and "of 0" not in digest, digest


def test_intake_adds_up_the_same_on_the_page_in_the_digest_and_to_the_friend(macaron, macaron_home, tmp_path):
    apps = tmp_path / "apps"
    slug = scaffolded("drink 2 liters of water a day", "en", apps)
    assert _record(apps / slug, [], tap=3).startswith("750 mL")
    digest, friend = _digest_and_friend(macaron, slug)
    assert "750 mL" in digest and "750 mL" in friend, (digest, friend)


def _spend(app, amount: str) -> str:
    """One expense added through the budget page; what its summary then says."""
    with served_page(app, "#amount") as page:
        before = page.locator(".mc-list li, ul li").count()
        page.fill("#amount", amount)
        page.locator("form button[type=submit]").click()
        page.wait_for_function(f"document.querySelectorAll('.mc-list li, ul li').length > {before}")
        return page.locator(".summary").inner_text()


def test_a_currency_change_keeps_every_earlier_record_on_the_page_and_in_the_digest(macaron, macaron_home):
    made = macaron("make", "--offline", "--yes", "--json", "track my spending in KRW", timeout=300)
    assert made.returncode == 0, made.stderr
    slug, app = json.loads(made.stdout)["app"], json.loads(made.stdout)["path"]
    assert "₩12,000" in _spend(app, "12000")
    changed = macaron("change", slug, "use US dollars from now on", "--offline", "--yes", timeout=300)
    assert changed.returncode == 0, changed.stdout + changed.stderr
    summary = _spend(app, "12.50")
    assert "$12.50" in summary and "₩12,000" in summary, summary  # the won spent before still counts
    digest, _ = _digest_and_friend(macaron, slug)
    assert "$12.50" in digest and "₩12,000" in digest, digest


def test_a_won_budget_stays_in_won_after_a_switch_to_dollars_and_says_so(macaron, macaron_home):
    idea = "track my spending in Korean won, budget 2,000,000 won a month"
    made = macaron("make", "--offline", "--yes", "--json", idea, timeout=300)
    assert made.returncode == 0, made.stderr
    slug, app = json.loads(made.stdout)["app"], json.loads(made.stdout)["path"]
    assert "₩12,000" in _spend(app, "12000")
    changed = macaron("change", slug, "switch to dollars", "--offline", "--yes", timeout=300)
    assert changed.returncode == 0, changed.stdout + changed.stderr
    assert "2,000,000 KRW" in changed.stdout and "2,000,000 USD" not in changed.stdout, changed.stdout
    summary = _spend(app, "12.50")
    assert "$12.50" in summary and "₩12,000" in summary, summary
    assert "₩2,000,000" in summary and "$2,000,000" not in summary, summary  # never a budget in the wrong money
    digest, friend = _digest_and_friend(macaron, slug)
    assert "₩2,000,000" in digest and "$2,000,000" not in digest + friend, digest


def test_the_habit_trackers_this_week_is_monday_to_sunday_as_the_digest_counts(macaron_home, tmp_path):
    """The strip titled "This week" is the digest's week: from this Monday, the days ahead faint
    (it used to be the last 7 days, so on a Wednesday it held last week's Thursday to Sunday)."""
    import datetime as dt

    apps = tmp_path / "apps"
    slug = scaffolded("drink 2 liters of water a day", "en", apps)
    with served_page(apps / slug, ".week li") as page:
        days = page.eval_on_selector_all(".week li", "items => items.map(li => [li.dataset.day, li.className])")
    today = dt.date.today()
    monday = today - dt.timedelta(days=today.weekday())
    assert [day for day, _ in days] == [(monday + dt.timedelta(days=n)).isoformat() for n in range(7)]
    assert [day for day, faint in days if faint == "ahead"] == [day for day, _ in days if day > today.isoformat()]
