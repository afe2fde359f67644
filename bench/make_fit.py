"""Do offline apps fit the idea? Template choice, the spec, titles and verification over a corpus.

    python3 bench/make_fit.py                 # choice + titles for all; verify a sample of 10
    python3 bench/make_fit.py --verify all    # verify every idea (make --offline each: slow)
    python3 bench/make_fit.py --verify 0      # choice and titles only
    MACARON_EMBEDDINGS=off python3 bench/make_fit.py --verify 0   # keywords alone

Prints: template fit % (the chosen template is the family that should serve the idea),
spec % (the spec the rules write has the labelled essentials: the measure and its unit,
the capabilities such as two values per entry or who owes whom), titles that repeat a
template's generic title ("Daily habits"), ideas marked weak or partial, and how many of
the verified apps passed their tests and opened in the browser with the spec right.

The corpus (bench/fit_corpus.py) is written for this bench, phrased as people talk, and
lives here, not in the package: the rules and the templates' examples must not quote it.
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
sys.path.insert(0, str(Path(__file__).resolve().parent))

from fit_corpus import CORPUS  # noqa: E402 (bench/ beside this file)


def generic_titles() -> dict[str, set[str]]:
    from macaron_cli.maker.choose import load_templates

    out = {}
    for t in load_templates():
        names = {t.manifest.title}
        try:
            i18n = json.loads((t.path / "static" / "i18n" / "app.json").read_text(encoding="utf-8"))
            names |= {v.get("app.title", "") for v in i18n.values()}
        except (OSError, ValueError):
            pass
        out[t.name] = {n.casefold() for n in names if n}
    return out


def choose_all() -> list[dict]:
    from macaron_cli.maker.choose import choose_template, load_templates
    from macaron_cli.reading.fit import idea_title
    from macaron_cli.reading.personal import personal_settings
    from macaron_cli.reading.spec_rules import write_spec

    templates, generic = load_templates(), generic_titles()
    every_generic = set().union(*generic.values())
    rows = []
    for idea, lang, family, essentials in CORPUS:
        chosen = choose_template(idea, templates=load_templates())
        title = idea_title(idea)
        spec = write_spec(idea, personal_settings(lang, []), title).to_json()
        rows.append(
            {
                "idea": idea,
                "lang": lang,
                "want": family,
                "got": chosen.name,
                "fit": chosen.fit,
                "missing": chosen.missing,
                "similarity": chosen.similarity,
                "title": title,
                "generic_title": title.casefold() in every_generic,
                "essentials": essentials,
                "spec": spec,
                "spec_ok": spec_has(spec, essentials),
            }
        )
    del templates
    return rows


def spec_has(spec: dict | None, essentials: dict) -> bool:
    """Whether a spec (its JSON form) has what the corpus labels as essential."""
    from macaron_cli.spec import parse_spec

    if not spec:
        return False
    parsed = parse_spec(spec)
    if "measure" in essentials:
        found = [m for m in parsed.measures if m.key == essentials["measure"]]
        if not found or ("unit" in essentials and found[0].unit != essentials["unit"]):
            return False
    return set(essentials.get("needs", [])) <= set(parsed.needs())


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
    spec_right = sum(r["spec_ok"] for r in rows)
    for r in rows:
        if not r["spec_ok"]:
            print(
                f"  spec ✗ {r['lang']} {r['idea']}: {json.dumps(r['spec'], ensure_ascii=False)}"
                f" (want {r['essentials']})"
            )
    print(f"spec right: {spec_right}/{len(rows)} = {100 * spec_right / len(rows):.1f}%")
    print(
        f"partial fits (the spec needs what the template does not render): {sum(r['fit'] == 'partial' for r in rows)}"
        + "".join(f"\n  {r['idea']!r} → {r['got']} missing {r['missing']}" for r in rows if r["fit"] == "partial")
    )
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
                spec_ok = spec_has(out.get("spec"), row["essentials"]) and out.get("template") == row["want"]
                ok = out.get("tests") == "passed" and out.get("opened") is True and spec_ok
                verified.append(ok)
                row["make"] = out
                print(
                    f"  {'✓' if ok else '✗'} {row['idea']!r}: template {out.get('template')}, "
                    f"tests {out.get('tests')}, opened {out.get('opened')}, spec {'right' if spec_ok else 'wrong'}, "
                    f"title {out.get('title')!r}, {out['seconds']} s" + ("" if ok else f"  {out.get('error') or ''}")
                )
        print(f"apps verified (tests, opened, family and spec right): {sum(verified)}/{len(verified)}")
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
