"""The feedback loop: outcomes flow back to the memories and templates that led there."""

import json
import subprocess
import tarfile

import pytest

from macaron_cli import privacy
from macaron_cli.config import Settings
from macaron_cli.ledger import Ledger, node, signals
from macaron_cli.ledger.reward import apply_to_memory, template_scores
from macaron_cli.ledger.share import make_bundle, unpack_bundle
from macaron_cli.ledger.why import explain
from macaron_cli.memory import MemoryStore

CLOUD = "https://api.anthropic.com"
LOCAL = "http://127.0.0.1:8000"
TO_CLOUD = privacy.claude(Settings(), CLOUD)
TO_LOCAL = privacy.local_model(LOCAL, Settings())


@pytest.fixture
def world(macaron_home):
    store = MemoryStore.open()
    ledger = Ledger.open()
    return store, ledger


def _weeks_of_use(store, ledger):
    liked = store.add("I drink green tea every morning", domain="food")
    disliked = store.add("I drink black tea every evening", domain="food")
    secret = store.add("my diary password hint is the cat", privacy="private", domain="food")
    signals.brief_made(
        "tea-log", privacy.release([liked], TO_CLOUD), template="habit-tracker", domain="food", ledger=ledger
    )
    signals.brief_made(
        "tea-diary", privacy.release([disliked], TO_CLOUD), template="diary", domain="food", ledger=ledger
    )
    signals.brief_made(
        "tea-private", privacy.release([secret], TO_LOCAL), template="diary", domain="food", ledger=ledger
    )
    for day in range(1, 15):  # two weeks of opening the tea log
        ledger.record("run", node("app", "tea-log"), time=f"2026-12-{day + 2:02d}T08:00:00+00:00")
    signals.app_event("tea-log", "rate", 5, ledger=ledger)
    signals.app_event("tea-diary", "rollback", ledger=ledger)
    signals.app_event("tea-diary", "deleted", ledger=ledger)
    return liked, disliked, secret


def test_memory_from_a_loved_app_outranks_one_from_a_deleted_app(world):
    store, ledger = world
    liked, disliked, _ = _weeks_of_use(store, ledger)
    before = [h.memory.id for h in store.search("tea", k=2)]
    apply_to_memory(ledger, store)
    after = [h.memory.id for h in store.search("tea", k=3)]
    assert store.get(liked.id).reward > 0 > store.get(disliked.id).reward
    assert after.index(liked.id) < after.index(disliked.id), (before, after)
    # Applying again changes nothing: credit is applied as a delta, once.
    reward = store.get(liked.id).reward
    apply_to_memory(ledger, store)
    assert store.get(liked.id).reward == pytest.approx(reward)


def test_template_lineage_that_served_well_scores_higher(world):
    store, ledger = world
    _weeks_of_use(store, ledger)
    scores = template_scores(ledger)
    assert scores[node("template", "habit-tracker")] > scores.get(node("template", "diary"), 0)


def test_why_tells_the_whole_chain(world):
    store, ledger = world
    liked, _, secret = _weeks_of_use(store, ledger)
    app_lines = "\n".join(explain("tea-log", ledger, store))
    assert "habit-tracker" in app_lines and liked.id in app_lines and "cloud" in app_lines
    memory_lines = "\n".join(explain(liked.id, ledger, store))
    assert "app:tea-log" in memory_lines and CLOUD in memory_lines
    private_lines = "\n".join(explain(secret.id, ledger, store))
    assert "this machine" in private_lines and "cloud)" not in private_lines


def test_audit_shows_no_private_memory_went_to_a_cloud_endpoint(world):
    store, ledger = world
    _weeks_of_use(store, ledger)
    assert ledger.private_sent_to_cloud() == []
    leaked = store.add("my therapist's name", privacy="private")
    ledger.record_request(node("brief", "oops"), TO_CLOUD, [leaked], purpose="make")
    assert [r["memory_id"] for r in ledger.private_sent_to_cloud()] == [leaked.id]


def test_a_shared_bundle_holds_no_data_brief_or_private_memory(tmp_path):
    app = tmp_path / "tea-log"
    (app / "data").mkdir(parents=True)
    (app / ".macaron").mkdir()
    (app / "server").mkdir()
    (app / "macaron.json").write_text(json.dumps({"name": "tea-log", "data_files": ["data/app.db"]}))
    (app / ".gitignore").write_text(".macaron/\ndata/\n")
    (app / "server" / "main.py").write_text("print('tea')\n")
    (app / "data" / "app.db").write_text("SECRET-ROW my tea log entries")
    (app / ".macaron" / "brief.md").write_text("PRIVATE-MEMORY allergic to cats")
    subprocess.run(["git", "init", "-q"], cwd=app, check=True)
    subprocess.run(["git", "add", "-A"], cwd=app, check=True)
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"], cwd=app, check=True)
    bundle = make_bundle(app, tmp_path, {"app": "tea-log", "template": "habit-tracker"})
    with tarfile.open(bundle) as tar:
        raw = b"".join(tar.extractfile(m).read() for m in tar.getmembers() if m.isfile())
    assert b"SECRET-ROW" not in raw and b"PRIVATE-MEMORY" not in raw
    code, lineage = unpack_bundle(bundle)
    assert (code / "server" / "main.py").read_text() == "print('tea')\n"
    assert lineage["template"] == "habit-tracker"


def test_rate_rejects_out_of_range_stars(macaron):
    result = macaron("rate", "whatever", "7")
    assert result.returncode == 2 and "1 to 5" in result.stderr


def test_rate_credits_only_the_memories_that_app_used(macaron, macaron_home, tmp_path):
    from macaron_cli import apps

    store, ledger = MemoryStore.open(), Ledger.open()
    mine = store.add("I drink green tea every morning", domain="food")
    parents = store.add("I keep a recipe box for Sunday", domain="food")
    other = store.add("I bake bread on Saturdays", domain="food")
    signals.brief_made(
        "recipe-box", privacy.release([parents], TO_CLOUD), template="recipes", domain="food", ledger=ledger
    )
    # Made from the recipe box, with its own brief: the recipe box's memory is not this app's.
    signals.brief_made(
        "tea-log",
        privacy.release([mine], TO_CLOUD),
        template="habit-tracker",
        domain="food",
        from_app="recipe-box",
        ledger=ledger,
    )
    signals.brief_made(
        "bread-log", privacy.release([other], TO_CLOUD), template="habit-tracker", domain="food", ledger=ledger
    )
    for day in range(1, 8):  # the bread log is used a lot: its credit is pending, not this rating's
        ledger.record("run", node("app", "bread-log"), time=f"2026-12-{day + 2:02d}T08:00:00+00:00")
    ledger.close()
    for slug in ("recipe-box", "tea-log", "bread-log"):
        (tmp_path / slug).mkdir()
        apps.register(slug, path=str(tmp_path / slug))
    before = {m.id: store.get(m.id).reward for m in (mine, parents, other)}
    del store

    done = macaron("rate", "tea-log", "5")
    assert done.returncode == 0, done.stderr
    assert "1 memory that shaped it was updated" in done.stdout

    store = MemoryStore.open()
    assert store.get(mine.id).reward > before[mine.id]
    assert store.get(parents.id).reward == before[parents.id]
    assert store.get(other.id).reward == before[other.id]


def test_a_damaged_ledger_is_kept_aside_and_a_fresh_one_started(macaron, macaron_home):
    macaron_home.mkdir(parents=True)
    garbage = b"not a database at all\x00\xff" * 40
    (macaron_home / "ledger.db").write_bytes(garbage)

    first = macaron("why", "last")
    second = macaron("why", "last")

    assert "unexpected" not in first.stderr and "Traceback" not in first.stderr
    said = first.stderr.splitlines()
    assert "ledger" in said[0] and "damaged" in said[0] and "fresh one" in said[0]
    kept = list(macaron_home.glob("ledger.db.damaged-*"))
    assert [p.read_bytes() for p in kept] == [garbage]  # what happened is never thrown away
    assert "damaged" not in second.stderr  # the fresh ledger is a ledger
    assert first.returncode == second.returncode == 2 and "nothing to explain yet" in second.stderr
