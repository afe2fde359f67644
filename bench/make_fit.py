"""Do offline apps fit the idea? Template choice, titles and verification over a corpus.

    python3 bench/make_fit.py                 # choice + titles for all; verify a sample of 10
    python3 bench/make_fit.py --verify all    # verify every idea (make --offline each: slow)
    python3 bench/make_fit.py --verify 0      # choice and titles only
    MACARON_EMBEDDINGS=off python3 bench/make_fit.py --verify 0   # keywords alone

Prints: template fit % (the chosen template is the family that should serve the idea),
titles that repeat a template's generic title ("Daily habits"), ideas marked weak, and
how many of the verified apps passed their tests and opened in the browser.

The corpus is written for this bench and lives here, not in the package: choose.py's
keywords and the templates' examples must not list its words (a third of the ideas
share no keyword with any template on purpose).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# (idea, language, the template family that should serve it)
CORPUS = [
    # English
    ("a water tracker for my day", "en", "habit-tracker"),
    ("remind me whether I flossed tonight", "en", "habit-tracker"),
    ("how many glasses of lemonade did the kids have", "en", "habit-tracker"),
    ("practise piano twenty minutes daily and see my streak", "en", "habit-tracker"),
    ("where did my paycheck go this month", "en", "budget"),
    ("split the groceries bill and see what we spend on food", "en", "budget"),
    ("a unit converter for cooking", "en", "converter"),
    ("turn oven temperatures from Fahrenheit into Celsius", "en", "converter"),
    ("how many square feet is our new flat", "en", "converter"),
    ("jot down how I feel each evening", "en", "diary"),
    ("a food log for my snacks and dinners", "en", "diary"),
    ("things I'm thankful for, one line a day", "en", "diary"),
    ("chores for this weekend and who does them", "en", "planner"),
    ("keep my dentist and vet appointments straight", "en", "planner"),
    # Japanese
    ("家族のレシピを評価するアプリ", "ja", "diary"),
    ("一日に飲んだお茶の量を記録したい", "ja", "habit-tracker"),
    ("毎朝のストレッチを続けたい", "ja", "habit-tracker"),
    ("家計簿", "ja", "budget"),
    ("今月のお小遣いがいくら残っているか", "ja", "budget"),
    ("お菓子作りのグラムとカップを換算", "ja", "converter"),
    ("今日あった出来事を短く書き残す", "ja", "diary"),
    ("買い物リストと明日の用事", "ja", "planner"),
    # Korean
    ("한 달 예산 계획표", "ko", "budget"),
    ("카페에 쓴 돈이 얼마인지 알고 싶어", "ko", "budget"),
    ("하루에 물 몇 잔 마셨는지", "ko", "habit-tracker"),
    ("매일 영어 단어 외우기 체크", "ko", "habit-tracker"),
    ("아파트 평수를 제곱미터로 바꿔 줘", "ko", "converter"),
    ("오늘 기분을 한 줄로 남기기", "ko", "diary"),
    ("이번 주에 해야 할 일 정리", "ko", "planner"),
    # Chinese
    ("每个月的开销和预算", "zh", "budget"),
    ("记录每天走了多少步", "zh", "habit-tracker"),
    ("每天按时吃维生素", "zh", "habit-tracker"),
    ("英寸和厘米互相换算", "zh", "converter"),
    ("写下每天的心情", "zh", "diary"),
    ("安排下周的会议和待办", "zh", "planner"),
    # Tagalog
    ("Gusto ko ng app para sa gastusin ko", "tl", "budget"),
    ("ilang baso ng tubig ang nainom ko ngayong araw", "tl", "habit-tracker"),
    ("listahan ng gagawin ko bukas", "tl", "planner"),
    ("isulat kung ano ang nararamdaman ko ngayong gabi", "tl", "diary"),
    ("ilang kilo ang isang libra", "tl", "converter"),
    ("magkano ang natitira sa sweldo ko ngayong buwan", "tl", "budget"),
    ("araw-araw na pag-inom ng gamot ni lola", "tl", "habit-tracker"),
]


def generic_titles() -> dict[str, set[str]]:
    from macaron_cli.maker.choose import load_templates

    out = {}
    for t in load_templates():
        names = {str(t.manifest.get("title") or "")}
        try:
            i18n = json.loads((t.path / "static" / "i18n" / "app.json").read_text(encoding="utf-8"))
            names |= {v.get("app.title", "") for v in i18n.values()}
        except (OSError, ValueError):
            pass
        out[t.name] = {n.casefold() for n in names if n}
    return out


def choose_all() -> list[dict]:
    from macaron_cli.maker.choose import choose_template, load_templates
    from macaron_cli.maker.fit import idea_title

    templates, generic = load_templates(), generic_titles()
    every_generic = set().union(*generic.values())
    rows = []
    for idea, lang, family in CORPUS:
        chosen = choose_template(idea, templates=load_templates())
        title = idea_title(idea)
        rows.append(
            {
                "idea": idea,
                "lang": lang,
                "want": family,
                "got": chosen.name,
                "fit": chosen.fit,
                "similarity": chosen.similarity,
                "title": title,
                "generic_title": title.casefold() in every_generic,
            }
        )
    del templates
    return rows


def make_offline(idea: str, home: Path) -> dict:
    env = {**os.environ, "MACARON_HOME": str(home), "MACARON_APPS_DIR": str(home / "apps"), "PYTHONPATH": str(ROOT)}
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "macaron_cli", "make", "--offline", "--json", "--yes", idea],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    try:
        out = json.loads(done.stdout)
    except ValueError:
        out = {"error": (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]}
    out["seconds"] = round(time.monotonic() - started, 1)
    try:
        out["title"] = json.loads((Path(out["path"]) / "config" / "app.json").read_text(encoding="utf-8"))["title"]
    except (KeyError, OSError, ValueError):
        out["title"] = None
    out["exit"] = done.returncode
    return out


def sample(rows: list[dict], n: int) -> list[dict]:
    """n ideas spread over languages and families (round robin), for a loaded machine."""
    if n >= len(rows):
        return rows
    picked, seen = [], set()
    for key in ("lang", "want"):
        for row in rows:
            if len(picked) < n and row[key] not in seen:
                seen.add(row[key])
                if row not in picked:
                    picked.append(row)
    for row in rows:
        if len(picked) < n and row not in picked:
            picked.append(row)
    return picked


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verify", default="10", help="how many ideas to make --offline and verify: N or 'all'")
    parser.add_argument("--json", action="store_true", help="print every row as JSON too")
    args = parser.parse_args()

    from macaron_cli.memory import embeddings

    judge = f"meaning ({embeddings.MODEL_NAME}) + keywords" if embeddings.available() else "keywords only"
    rows = choose_all()
    right = sum(r["got"] == r["want"] for r in rows)
    generic = [r for r in rows if r["generic_title"]]
    print(f"template choice by {judge}: {len(rows)} ideas in {len({r['lang'] for r in rows})} languages")
    for r in rows:
        mark = "✓" if r["got"] == r["want"] else "✗"
        sim = f"{r['similarity']:.2f}" if r["similarity"] is not None else "  - "
        print(
            f"  {mark} {r['lang']} {r['got']:<13} {r['fit']:<4} {sim}  {r['idea']}  → {r['title']!r}"
            + ("" if mark == "✓" else f"  (want {r['want']})")
        )
    for lang in sorted({r["lang"] for r in rows}):
        some = [r for r in rows if r["lang"] == lang]
        print(f"  {lang}: {sum(r['got'] == r['want'] for r in some)}/{len(some)}")
    print(f"template fit: {right}/{len(rows)} = {100 * right / len(rows):.1f}%")
    print(
        f"weak fits: {sum(r['fit'] == 'weak' for r in rows)} "
        f"(of them wrong: {sum(r['fit'] == 'weak' and r['got'] != r['want'] for r in rows)})"
    )
    print(
        f"titles that repeat a template's generic title: {len(generic)}"
        + "".join(f"\n  {r['idea']!r} → {r['title']!r}" for r in generic)
    )

    n = len(rows) if args.verify == "all" else int(args.verify)
    verified = []
    if n > 0:
        chosen = sample(rows, n)
        print(
            f"verifying {len(chosen)} of {len(rows)} apps (make --offline --json each"
            + ("" if len(chosen) == len(rows) else "; a sample: --verify all for every one")
            + ")"
        )
        with tempfile.TemporaryDirectory(prefix="macaron-make-fit-") as home:
            for row in chosen:
                out = make_offline(row["idea"], Path(home))
                ok = out.get("tests") == "passed" and out.get("opened") is True
                verified.append(ok)
                row["make"] = out
                print(
                    f"  {'✓' if ok else '✗'} {row['idea']!r}: template {out.get('template')}, "
                    f"tests {out.get('tests')}, opened {out.get('opened')}, "
                    f"title {out.get('title')!r}, {out['seconds']} s" + ("" if ok else f"  {out.get('error') or ''}")
                )
        print(f"apps verified: {sum(verified)}/{len(verified)}")
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
