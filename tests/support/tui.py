"""For TUI tests and snapshots: a small fixed memory (ids, timestamps, languages) and a way to
wait until the browser has finished every store call a key press started."""

from __future__ import annotations

from datetime import UTC, datetime

NOW = datetime(2026, 12, 2, 12, 0, tzinfo=UTC)

SAMPLE = [
    dict(
        id="m_peanuts",
        text="Allergic to peanuts; always check sauces and desserts.",
        kind="fact",
        domain="health",
        privacy="private",
        pinned=True,
        created_at="2026-01-10T09:00:00+00:00",
        last_used_at="2026-12-01T08:00:00+00:00",
        use_count=12,
        reward=1.0,
        verified="2026-11-01T00:00:00+00:00",
    ),
    dict(
        id="m_flatwhite",
        text="Prefers oat milk flat whites, no sugar.",
        kind="preference",
        domain="food",
        privacy="personal",
        created_at="2026-03-02T10:00:00+00:00",
        last_used_at="2026-11-28T07:30:00+00:00",
        use_count=5,
        reward=0.5,
    ),
    dict(
        id="m_mika_bday",
        text="Sister Mika's birthday is on 14 March; she loves lemon tarts.",
        kind="fact",
        domain="family",
        privacy="personal",
        created_at="2026-02-14T18:00:00+00:00",
        event_at="2027-03-14T00:00:00+00:00",
    ),
    dict(
        id="m_marathon",
        text="Training for the Kyoto half marathon in February, three runs a week.",
        kind="episode",
        domain="fitness",
        privacy="personal",
        created_at="2026-09-20T07:00:00+00:00",
        last_used_at="2026-11-30T06:00:00+00:00",
        use_count=3,
    ),
    dict(
        id="m_gift",
        text="Surprise gift for Mika: a film camera. Never mention it to her.",
        kind="fact",
        domain="family",
        privacy="secret",
        created_at="2026-11-25T21:00:00+00:00",
    ),
    dict(
        id="m_grandma",
        text="月に一度、京都の祖母に電話する。",
        kind="fact",
        domain="family",
        language="ja",
        privacy="personal",
        created_at="2026-06-01T12:00:00+00:00",
    ),
    dict(
        id="m_bike",
        text="자전거로 출근하는 것을 좋아한다.",
        kind="preference",
        domain="fitness",
        language="ko",
        privacy="personal",
        created_at="2026-05-05T08:00:00+00:00",
    ),
    dict(
        id="m_budget",
        text="Budget for eating out: 300 EUR a month.",
        kind="fact",
        domain="finance",
        privacy="private",
        created_at="2026-04-01T09:00:00+00:00",
        last_used_at="2026-10-02T19:00:00+00:00",
        use_count=2,
    ),
    dict(
        id="m_water_app",
        text="Built a water tracker; used it every day for a week.",
        kind="app",
        domain="health",
        privacy="personal",
        source="make",
        created_at="2026-10-12T15:00:00+00:00",
        meta={"app": "water-tracker"},
    ),
    dict(
        id="m_pastel",
        text="Liked the pastel colours of the habit tracker.",
        kind="feedback",
        domain="hobby",
        privacy="public",
        source="make",
        created_at="2026-10-20T16:00:00+00:00",
        reward=0.8,
    ),
    dict(
        id="m_remote_old",
        text="Works remotely on Tuesdays and Thursdays.",
        kind="fact",
        domain="work",
        privacy="personal",
        created_at="2026-02-01T09:00:00+00:00",
    ),
    dict(
        id="m_remote_new",
        text="Works remotely on Mondays and Fridays now.",
        kind="fact",
        domain="work",
        privacy="personal",
        created_at="2026-11-03T09:00:00+00:00",
        supersedes="m_remote_old",
        updated_at="2026-11-03T09:00:00+00:00",
    ),
    dict(
        id="m_ramen",
        text="Favourite ramen: tonkotsu, extra spring onions.",
        kind="preference",
        domain="food",
        privacy="public",
        created_at="2026-07-07T20:00:00+00:00",
        last_used_at="2026-11-15T12:00:00+00:00",
        use_count=4,
    ),
    dict(
        id="m_coffee",
        text="Sleeps badly after coffee past 3pm.",
        kind="fact",
        domain="health",
        privacy="personal",
        created_at="2026-08-08T08:00:00+00:00",
    ),
]


def fill(store) -> None:
    store.add_many(dict(m) for m in SAMPLE)


async def settle(pilot) -> None:
    """Wait until no worker is pending (workers may start more workers)."""
    from textual.worker import WorkerCancelled, WorkerState

    app = pilot.app
    for _ in range(200):
        await pilot.pause()
        busy = [w for w in app.workers if w.state in (WorkerState.PENDING, WorkerState.RUNNING)]
        if not busy:
            return
        try:
            await app.workers.wait_for_complete(busy)
        except WorkerCancelled:
            pass
    raise AssertionError("the browser kept working for too long")
