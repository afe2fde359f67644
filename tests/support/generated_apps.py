"""What every template's scaffolded app holds, file by file (path → SHA-256), kept in
tests/fixtures/generated_apps.json. The scaffolder composes templates/_shared with each
template; the fixture was written by the copy-per-template scaffolder before that, so the
test that compares them shows the composed apps are the same bytes.

    python3 tests/support/generated_apps.py           # name the files that differ
    python3 tests/support/generated_apps.py --update  # after an intended template change
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
FIXTURE = REPO / "tests" / "fixtures" / "generated_apps.json"
# An idea in English with no advice, and one in Japanese that gets the advice note (which
# edits every page): between them every file a scaffold writes or changes.
IDEAS = {"en": "an app for my things", "ja": "お金の投資のアドバイスをくれるアプリ"}


def generated_apps() -> dict[str, dict[str, str]]:
    """{"<template>/<idea>": {relative path: sha256}} for every installed template."""
    from macaron_cli.config import Settings
    from macaron_cli.maker.brief import build_brief
    from macaron_cli.maker.choose import load_templates
    from macaron_cli.maker.scaffold import scaffold

    out = {}
    with tempfile.TemporaryDirectory() as work:
        for template in load_templates():
            for key, idea in IDEAS.items():
                brief = build_brief(idea, None, Settings(), None)
                app = scaffold(template, brief, f"{template.name}-{key}", Path(work))
                out[f"{template.name}/{key}"] = {
                    path.relative_to(app).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
                    for path in sorted(app.rglob("*"))
                    if path.is_file()
                }
    return out


def differences(expected: dict, actual: dict) -> list[str]:
    lines = []
    for app in sorted(set(expected) | set(actual)):
        want, got = expected.get(app, {}), actual.get(app, {})
        lines += [
            f"{app}: {rel} " + ("missing" if rel not in got else "unexpected" if rel not in want else "differs")
            for rel in sorted(set(want) | set(got))
            if want.get(rel) != got.get(rel)
        ]
    return lines


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(REPO))
    os.environ.setdefault("MACARON_HOME", tempfile.mkdtemp(prefix="generated-apps-"))
    actual = generated_apps()
    if "--update" in argv:
        FIXTURE.write_text(json.dumps(actual, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {FIXTURE.relative_to(REPO)}: {sum(map(len, actual.values()))} files in {len(actual)} apps")
        return 0
    lines = differences(json.loads(FIXTURE.read_text(encoding="utf-8")), actual)
    print("\n".join(lines) or "identical")
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
