"""Does macaron say only what the person gets? Fresh ideas and change requests, judged by the page.

The corpus (bench/fresh_asks.json) was written and labelled by hand before the page-as-judge
check existed, typed the way people type, in en, ja, ko, zh and tl; about half of it asks what
no template can fully do. Nothing is tuned on its `"split": "untuned"` rows.

Each idea is made the way a person makes it without a model (`macaron make --offline --json
--yes`, tests and the Chromium verification included) into a temporary MACARON_HOME, and its
`fit` and `missing` are read:
  honest when short   a short idea whose result says fit is not good or names what is missing
                      (or a make that refuses it);
  fit good on full    a full idea whose result says fit good with nothing missing.
Each change request is made on its app_idea first, then `macaron change --offline --json --yes`
runs; the app is served with `macaron run` and the page read by headless Chromium (its text,
form fields and labels) after it:
  doable done         a doable change that said it changed and whose page shows every `shows`;
  changed, not shown  said it changed (exit 0, status done) but the page does not show what was
                      asked (an undoable change said done counts here too): must be 0;
  honestly refused    an undoable change that did not say it changed.

    python3 bench/fresh_asks.py                       # everything (about 20 minutes on 2 cores)
    python3 bench/fresh_asks.py --lang ja --limit 5   # five ideas and five changes in Japanese
    python3 bench/fresh_asks.py --split untuned --json /tmp/rows.json
    python3 bench/fresh_asks.py --json /tmp/rows.json --resume     # go on with a run stopped half way
    python3 bench/fresh_asks.py --report /tmp/rows.json --lang ko   # the figures again, nothing made
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path(__file__).resolve().parent / "fresh_asks.json"
LANGS = ("en", "ja", "ko", "zh", "tl")
# What the page says in a field rather than in text: a person reads these too.
SHOWN_ATTRIBUTES = {"placeholder", "aria-label", "value", "alt", "label"}


def load(path: Path = CORPUS) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


class Home:
    """One temporary MACARON_HOME per worker, its template vectors copied from the first."""

    def __init__(self, parent: Path, name: str, cache: Path | None) -> None:
        self.path = parent / name
        self.path.mkdir()
        if cache is not None and cache.is_dir():
            shutil.copytree(cache, self.path / "cache")
        self.env = {
            **os.environ,
            "MACARON_HOME": str(self.path),
            "MACARON_APPS_DIR": str(self.path / "apps"),
            "PYTHONPATH": str(ROOT),
        }

    def macaron(self, *args: str, timeout: int = 600) -> tuple[int, dict, str]:
        """Runs one macaron command; its exit code, its JSON answer ({} when none) and its last line."""
        done = subprocess.run(
            [sys.executable, "-m", "macaron_cli", *args],
            capture_output=True,
            text=True,
            env=self.env,
            timeout=timeout,
            check=False,
        )
        try:
            answer = json.loads(done.stdout)
        except ValueError:
            answer = {}
        said = (done.stderr.strip() or done.stdout.strip()).splitlines()
        return done.returncode, answer if isinstance(answer, dict) else {}, said[-1] if said else ""

    def make(self, idea: str) -> tuple[int, dict, str]:
        return self.macaron("make", "--offline", "--json", "--yes", idea)

    def page(self, app: str) -> str:
        """What the person sees on the running app (`macaron run`), read by headless Chromium."""
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        server = subprocess.Popen(
            [sys.executable, "-m", "macaron_cli", "run", app, "--port", str(port)],
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            if not listening(port, server):
                return ""
            return self._read(port) or self._read(port, budget=15000)
        finally:
            stop(server)

    def _read(self, port: int, budget: int = 5000) -> str:
        dom = subprocess.run(
            [
                "chromium",
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                f"--user-data-dir={self.path / 'chromium'}",
                f"--virtual-time-budget={budget}",
                "--dump-dom",
                f"http://127.0.0.1:{port}/",
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        ).stdout
        return page_text(dom)


def stop(server: subprocess.Popen) -> None:
    """Ctrl-C, as a person stops `macaron run`; killed if it does not stop."""
    for sig, wait in ((signal.SIGINT, 20), (signal.SIGKILL, None)):
        os.killpg(server.pid, sig)
        try:
            server.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def listening(port: int, server: subprocess.Popen, wait: float = 90.0) -> bool:
    """Whether the app answers its page and its config (the forwarder listens before the app does)."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline and server.poll() is None:
        try:
            for path in ("/", "/api/config"):
                with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as answer:
                    answer.read()
            return True
        except OSError:
            time.sleep(0.5)
    return False


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0
        self._in_body = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "body":
            self._in_body = True
        if tag in ("script", "style", "template"):
            self._skip += 1
        if self._in_body:
            self.parts += [v for k, v in attrs if k in SHOWN_ATTRIBUTES and v]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "template") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if self._in_body and not self._skip and data.strip():
            self.parts.append(data.strip())


def page_text(dom: str) -> str:
    parser = _Text()
    parser.feed(dom)
    return "\n".join(parser.parts)


def shown(item: str, text: str) -> bool:
    """Whether the page shows a word or a number; numbers by value ("$1,200.00" shows 1200)."""
    if re.fullmatch(r"\d+(\.\d+)?", item):
        flat = re.sub(r"(?<=\d)[,\u202f\u00a0 '](?=\d{3}(?!\d))", "", text)
        return float(item) in {float(n) for n in re.findall(r"\d+(?:\.\d+)?", flat)}
    return item.casefold() in text.casefold()


def run_idea(home: Home, row: dict) -> dict:
    started = time.monotonic()
    code, answer, said = home.make(row["text"])
    fit, missing = answer.get("fit"), answer.get("missing") or []
    made = code == 0 and answer.get("status") == "done"
    says_short = not made or fit != "good" or bool(missing)
    return {
        **row,
        "exit": code,
        "status": answer.get("status"),
        "template": answer.get("template"),
        "fit": fit,
        "missing": missing,
        "said": "" if answer else said,
        "says_short": says_short,
        "honest": says_short if row["servable"] == "short" else not says_short,
        **judged_page(answer.get("path")),
        "seconds": round(time.monotonic() - started, 1),
    }


def judged_page(app: str | None) -> dict:
    """What the make's verification read off the page, and the app's title, kept in the row so
    that the page's judge can be read against what each page showed without making it again."""
    if not app:
        return {}
    try:
        page = json.loads((Path(app) / ".macaron" / "verify.json").read_text(encoding="utf-8")).get("page")
        title = json.loads((Path(app) / "config" / "app.json").read_text(encoding="utf-8")).get("title")
    except (OSError, ValueError, AttributeError):
        return {}
    return {"page": page, "title": title}


def run_change(home: Home, row: dict) -> dict:
    started = time.monotonic()
    code, answer, said = home.make(row["app_idea"])
    out = {**row, "made": code == 0 and bool(answer.get("app"))}
    if not out["made"]:
        return {**out, "said": said, "seconds": round(time.monotonic() - started, 1)}
    app = answer["app"]
    code, answer, said = home.macaron("change", app, row["text"], "--offline", "--json", "--yes")
    after = home.page(app)
    return judged(
        {
            **out,
            "exit": code,
            "status": answer.get("status"),
            "changed": sorted(answer.get("changed") or {}),
            "missing": answer.get("missing") or [],
            "said": "" if answer else said,
            "claimed": code == 0 and answer.get("status") == "done",
            "page_after": after,
            "seconds": round(time.monotonic() - started, 1),
        }
    )


def judged(row: dict) -> dict:
    """A change's row with what its page after shows of what it should."""
    if not row["made"]:
        return row
    seen = {item: shown(item, row["page_after"]) for item in row["shows"]}
    return {**row, "seen": seen, "page_shows_it": bool(seen) and all(seen.values())}


def chosen(rows: list[dict], langs: list[str], split: str | None, limit: int | None) -> list[dict]:
    picked = []
    for lang in langs:
        some = [r for r in rows if r["lang"] == lang and (split is None or r["split"] == split)]
        picked += some[:limit] if limit else some
    return picked


def interleaved(rows: list[dict]) -> list[dict]:
    """Languages and labels in turn (full and short, doable and not), so that a run stopped half
    way has measured each alike rather than the first ones whole."""
    place: dict[tuple, int] = {}
    keyed = []
    for row in rows:
        label = (row["lang"], str(row.get("servable", row.get("doable"))))
        place[label] = place.get(label, 0) + 1
        keyed.append(((place[label], label[1], LANGS.index(row["lang"])), row))
    return [row for _, row in sorted(keyed, key=lambda k: k[0])]


class Saved:
    """The rows done so far, written to OUT after each one, so a run stopped half way keeps them
    (and --resume goes on from them)."""

    def __init__(self, out: Path | None, resume: bool) -> None:
        self.out, self.lock = out, threading.Lock()
        self.rows: dict[str, list[dict]] = {"ideas": [], "changes": []}
        if out is not None and resume and out.exists():
            self.rows = json.loads(out.read_text(encoding="utf-8"))

    def done(self) -> set[str]:
        return {r["id"] for kind in self.rows.values() for r in kind}

    def add(self, kind: str, row: dict) -> None:
        with self.lock:
            self.rows[kind].append(row)
            if self.out is not None:
                text = json.dumps(self.rows, ensure_ascii=False, indent=1) + "\n"
                self.out.write_text(text, encoding="utf-8")


def run_all(ideas: list[dict], changes: list[dict], jobs: int, saved: Saved) -> None:
    """Every idea and change not yet saved, on `jobs` workers, each with its own home (no shared ledger)."""
    done = saved.done()
    ideas, changes = (
        interleaved([r for r in ideas if r["id"] not in done]),
        interleaved([r for r in changes if r["id"] not in done]),
    )
    with tempfile.TemporaryDirectory(prefix="macaron-fresh-asks-") as parent:
        warm = Home(Path(parent), "warm", None)
        warm.make("water tracker")  # computes the template vectors once; each home copies them
        homes: dict[int, Home] = {}
        lock = threading.Lock()

        def home() -> Home:
            with lock:
                key = threading.get_ident()
                if key not in homes:
                    homes[key] = Home(Path(parent), f"w{len(homes)}", warm.path / "cache")
                return homes[key]

        def idea(row: dict) -> None:
            got = run_idea(home(), row)
            saved.add("ideas", got)
            mark = "ok " if got["honest"] else "BAD"
            print(f"  idea {got['id']}: {mark} fit {got['fit']} {got['seconds']} s", flush=True)

        def change(row: dict) -> None:
            got = run_change(home(), row)
            saved.add("changes", got)
            print(f"  change {got['id']}: exit {got.get('exit')} {got.get('status')} {got['seconds']} s", flush=True)

        with ThreadPoolExecutor(max_workers=jobs) as pool:
            for future in [pool.submit(change, r) for r in changes] + [pool.submit(idea, r) for r in ideas]:
                future.result()


def pct(n: int, total: int) -> str:
    return f"{n}/{total} = {100 * n / total:.0f}%" if total else "0/0"


def report_ideas(rows: list[dict]) -> list[str]:
    lines = [f"ideas: {len(rows)}"]
    for lang in [*LANGS, None, "untuned"]:
        some = [r for r in rows if lang in (None, r["lang"], r["split"])]
        if not some:
            continue
        short = [r for r in some if r["servable"] == "short"]
        full = [r for r in some if r["servable"] == "full"]
        lines.append(
            f"  {lang or 'all':<7} honest when short {pct(sum(r['honest'] for r in short), len(short)):<14}"
            f"  fit good on full {pct(sum(r['honest'] for r in full), len(full))}"
        )
    dishonest = [r for r in rows if r["servable"] == "short" and not r["honest"]]
    lines.append(f"short ideas said to fit good with nothing missing: {len(dishonest)}")
    lines += [
        f"  {r['id']} [{r['split']}] {r['text']!r} → {r['template']} (lacks: {r['short_because']})" for r in dishonest
    ]
    unsaid = [r for r in rows if r["servable"] == "full" and not r["honest"]]
    lines.append(f"full ideas said short: {len(unsaid)}")
    lines += [
        f"  {r['id']} {r['text']!r} → {r['template']} fit {r['fit']} missing {r['missing']} {r['said']}".rstrip()
        for r in unsaid
    ]
    return lines


def report_changes(rows: list[dict]) -> list[str]:
    lines = [f"changes: {len(rows)} ({sum(not r['made'] for r in rows)} apps not made)"]
    made = [r for r in rows if r["made"]]
    for lang in [*LANGS, None, "untuned"]:
        some = [r for r in made if lang in (None, r["lang"], r["split"])]
        if not some:
            continue
        doable = [r for r in some if r["doable"]]
        undoable = [r for r in some if not r["doable"]]
        done = sum(r["claimed"] and r["page_shows_it"] for r in doable)
        lines.append(
            f"  {lang or 'all':<7} doable done (page shows it) {pct(done, len(doable)):<13}"
            f"  changed, not shown {sum(claimed_not_shown(r) for r in some)}"
            f"  undoable honestly refused {pct(sum(not r['claimed'] for r in undoable), len(undoable))}"
        )
    lines.append(f"said changed, page does not show it: {sum(claimed_not_shown(r) for r in made)}")
    for r in made:
        if claimed_not_shown(r):
            unseen = [k for k, v in r["seen"].items() if not v]
            lines.append(
                f"  {r['id']} [{r['split']}] {r['app_idea']!r} + {r['text']!r}: changed {r['changed']}"
                + (f", page lacks {unseen}" if r["doable"] else ", not doable")
            )
    unread = [r["id"] for r in made if not r["page_after"]]
    lines.append(f"pages Chromium could not read after the change: {len(unread)} {unread or ''}".rstrip())
    lines.append("doable, not done:")
    lines += [
        f"  {r['id']} {r['text']!r}: exit {r['exit']} {r['status']} missing {r['missing']} {r['said']}".rstrip()
        for r in made
        if r["doable"] and not r["claimed"]
    ]
    return lines


def claimed_not_shown(row: dict) -> bool:
    return row["claimed"] and not (row["doable"] and row["page_shows_it"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", choices=LANGS, action="append", help="only this language (repeatable)")
    parser.add_argument("--split", choices=("dev", "untuned"), help="only this split")
    parser.add_argument("--limit", type=int, help="at most N ideas and N changes per language")
    parser.add_argument("--only", choices=("ideas", "changes"), help="only the ideas or only the changes")
    parser.add_argument("--jobs", type=int, default=2, help="makes at once (default 2)")
    parser.add_argument("--json", type=Path, metavar="OUT", help="write every row here, as each is done")
    parser.add_argument("--resume", action="store_true", help="keep the rows already in OUT; run the rest")
    parser.add_argument("--report", type=Path, metavar="IN", help="print the figures of a saved --json run again")
    args = parser.parse_args()
    if (args.limit is not None and args.limit < 1) or args.jobs < 1:
        parser.error("--limit and --jobs take a number of 1 or more")
    corpus, langs = load(), args.lang or list(LANGS)
    ideas = [] if args.only == "changes" else chosen(corpus["ideas"], langs, args.split, args.limit)
    changes = [] if args.only == "ideas" else chosen(corpus["changes"], langs, args.split, args.limit)
    started = time.monotonic()
    if args.report:
        saved = Saved(args.report, resume=True)
    else:
        saved = Saved(args.json, args.resume)
        run_all(ideas, changes, args.jobs, saved)
    wanted = {r["id"]: n for n, r in enumerate(ideas + changes)}  # the corpus's order
    idea_rows = sorted((r for r in saved.rows["ideas"] if r["id"] in wanted), key=lambda r: wanted[r["id"]])
    change_rows = sorted((judged(r) for r in saved.rows["changes"] if r["id"] in wanted), key=lambda r: wanted[r["id"]])
    lines = [f"fresh asks ({args.split or 'dev + untuned'}; {', '.join(langs)})"]
    lines += report_ideas(idea_rows) if idea_rows else []
    lines += report_changes(change_rows) if change_rows else []
    if not args.report:
        lines.append(f"{round(time.monotonic() - started)} s, {args.jobs} at once")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
