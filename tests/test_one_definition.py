"""Each definition lives in one module; the others import it (so they cannot drift apart)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from macaron_cli import privacy

PACKAGE = Path(__file__).resolve().parents[1] / "macaron_cli"


def _collections_naming(names: set[str], skip: str) -> list[str]:
    """Each tuple, list, set or dict key list in the package (outside `skip`) that spells two
    or more of `names` as string literals, as file:line."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == skip:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            items = node.keys if isinstance(node, ast.Dict) else getattr(node, "elts", None)
            if not isinstance(node, ast.Tuple | ast.List | ast.Set | ast.Dict) or items is None:
                continue
            spelled = {i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)}
            if len(spelled & names) >= 2:
                found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    return found


def test_only_the_privacy_gate_spells_out_the_privacy_levels():
    assert _collections_naming(set(privacy.LEVELS), skip="privacy.py") == []


# A filter by level in a query string ("privacy IN (…)", "privacy != 'secret'"), wherever
# the string is written, f-strings included.
_SQL_BY_LEVEL = re.compile(r"\bprivacy\s*(?:not\s+in|in|!=|<>|=)\s*[('\"]", re.IGNORECASE)
_LEVEL_NAMES = {"PUBLIC", "PERSONAL", "PRIVATE", "SECRET", "CLOUD_LEVELS", "LOCAL_LEVELS"}


def _names_a_level(node: ast.expr) -> bool:
    if isinstance(node, ast.Tuple | ast.List | ast.Set):  # `level in (PRIVATE, SECRET)`
        return any(map(_names_a_level, node.elts))
    if isinstance(node, ast.Constant):
        return node.value in privacy.LEVELS
    name = node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", None)
    return name in _LEVEL_NAMES


def _decides_by_level(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return bool(_SQL_BY_LEVEL.search(node.value))
    return isinstance(node, ast.Compare) and any(map(_names_a_level, [node.left, *node.comparators]))


def _decisions_by_level(package: Path, skip: str) -> list[str]:
    """Each place in `package` (outside `skip`) that decides by a level itself: a query
    string filtering on `privacy`, or a comparison with a level's name, as file:line."""
    found = []
    for path in sorted(package.rglob("*.py")):
        if path.name == skip:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if _decides_by_level(node):
                found.append(f"{path.relative_to(package)}:{node.lineno}")
    return sorted(found)


def test_only_the_privacy_gate_decides_by_level():
    """Which levels may go where is the gate's decision: elsewhere a query asks the gate for
    its filter (privacy.recent, level_filter) instead of spelling one out."""
    assert _decisions_by_level(PACKAGE, skip="privacy.py") == []


def test_the_check_finds_the_filters_chat_once_spelled_out(tmp_path):
    (tmp_path / "opening.py").write_text(
        "known = store.list(limit=1, where=\"kind = 'episode' AND privacy != 'secret'\")\n"
        'audit = f"WHERE s.cloud = 1 AND s.privacy IN ({levels})"\n'
        "shown = level != SECRET\n"
        "other = PERSONAL if level in (PRIVATE, SECRET) else PRIVATE\n"
        "label = entry.get('level', 'secret')\n",
        encoding="utf-8",
    )
    assert _decisions_by_level(tmp_path, skip="privacy.py") == [
        "opening.py:1",
        "opening.py:2",
        "opening.py:3",
        "opening.py:4",
    ]


def _environment_reads(package: Path, names: set[str], skip: str) -> list[str]:
    """Each read of one of `names` from the environment in `package` (outside `skip`):
    os.environ.get/[…]/os.getenv with that name spelled out, as file:line."""
    found = []
    for path in sorted(package.rglob("*.py")):
        if path.relative_to(package).as_posix() == skip:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                reader = ast.unparse(node.func)
                args = node.args[:1]
            elif isinstance(node, ast.Subscript):
                reader, args = ast.unparse(node.value), [node.slice]
            else:
                continue
            if not reader.endswith(("environ.get", "getenv", "environ")):
                continue
            if any(isinstance(a, ast.Constant) and a.value in names for a in args):
                found.append(f"{path.relative_to(package)}:{node.lineno}")
    return found


def test_only_the_endpoints_module_reads_where_the_models_are():
    # Claude's URL, keys and models and the draft model's are read in endpoints.py alone,
    # so each is named and defaulted once and every caller sees the same endpoint.
    from macaron_cli import endpoints

    assert _environment_reads(PACKAGE, set(endpoints.VARIABLES), skip="endpoints.py") == []
    cloud = [
        str(p.relative_to(PACKAGE))
        for p in sorted(PACKAGE.rglob("*.py"))
        if p.name != "endpoints.py" and "api.anthropic.com" in p.read_text(encoding="utf-8")
    ]
    assert cloud == []


def _setting_reads(package: Path, names: set[str], allowed: set[str]) -> list[str]:
    """Each read of one of `names` as an attribute (`settings.draft_url`, a call such as
    `endpoints.agent_model(…)` aside) or of the raw file (`settings.raw`) in `package`,
    outside the `allowed` modules, as file:line."""
    found = []
    for path in sorted(package.rglob("*.py")):
        if path.relative_to(package).as_posix() in allowed:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        called = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and id(node) not in called and node.attr in names | {"raw"}:
                found.append(f"{path.relative_to(package)}:{node.lineno}")
    return found


def test_only_the_endpoints_module_reads_the_model_settings():
    # The settings of where the models are (draft_url, chat_model, `model`…) are read in
    # endpoints.py alone, for the registry (models/registry.py) that every caller asks; and
    # the file as read (`raw`) in config.py alone: every other setting is a typed field.
    from macaron_cli import endpoints

    assert _setting_reads(PACKAGE, set(endpoints.SETTINGS), {"endpoints.py", "config.py"}) == []


def test_the_settings_check_finds_planted_reads(tmp_path):
    (tmp_path / "elsewhere.py").write_text("def f(settings):\n    return settings.draft_url or settings.raw\n")
    (tmp_path / "endpoints.py").write_text("def f(settings):\n    return settings.draft_url\n")
    (tmp_path / "caller.py").write_text("def f(settings):\n    return endpoints.draft_url(settings)\n")
    assert _setting_reads(tmp_path, {"draft_url"}, {"endpoints.py"}) == ["elsewhere.py:2", "elsewhere.py:2"]


def test_the_endpoints_check_finds_a_planted_read(tmp_path):
    (tmp_path / "elsewhere.py").write_text('import os\nurl = os.environ.get("ANTHROPIC_BASE_URL")\n')
    (tmp_path / "endpoints.py").write_text('import os\nurl = os.environ["ANTHROPIC_BASE_URL"]\n')
    assert _environment_reads(tmp_path, {"ANTHROPIC_BASE_URL"}, skip="endpoints.py") == ["elsewhere.py:2"]


# What a view says over a search's results when no memory holds its words (score_parts.headline):
# a view with its own sentence for it told a person "nothing" where another listed rows.
_HEADLINE_WORDS = ("nearest in meaning", "nothing found", "no memory holds a word")


def _says_why_found(path: Path) -> list[int]:
    """Lines of `path` that decide or word themselves why a search hit is there: reading the
    floor part, or a string (not a docstring) that says "nearest in meaning" or a headline's
    "nothing found"."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    documented = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    docstrings = {ast.get_docstring(node, clean=False) for node in ast.walk(tree) if isinstance(node, documented)}
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value not in docstrings
        and (node.value == "floor" or any(words in node.value.lower() for words in _HEADLINE_WORDS))
    ]


# retrieval.py writes the floor part; cli.py's help names the option's rows (it imports nothing heavy).
_WHY_FOUND_HOMES = {"memory/score_parts.py", "memory/retrieval.py", "cli.py"}


def test_only_score_parts_says_why_a_search_hit_is_there():
    """The browser, `memory search` and chat's /why say why a hit is there (a match, related,
    kept only as nearest in meaning) in score_parts' words, so the views never drift apart."""
    found = [
        f"{path.relative_to(PACKAGE)}:{line}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if str(path.relative_to(PACKAGE)) not in _WHY_FOUND_HOMES
        for line in _says_why_found(path)
    ]
    assert found == []


def test_the_why_found_check_finds_a_view_of_its_own(tmp_path):
    planted = tmp_path / "view.py"
    planted.write_text('def nearest(hit):\n    """nearest in meaning"""\n    return hit.parts.get("floor") == 0\n')
    assert _says_why_found(planted) == [3]
    planted.write_text('def status(query, hits):\n    return f"Nothing found for {query}" if not hits else ""\n')
    assert _says_why_found(planted) == [2]


def _spelling(package: Path, value: str, skip: str) -> list[str]:
    """Each string literal `value` in the package's modules (outside `skip`), as file:line."""
    return [
        f"{path.relative_to(package)}:{node.lineno}"
        for path in sorted(package.rglob("*.py"))
        if path.name != skip
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and node.value == value
    ]


def test_only_speakers_names_the_speaker_the_persons_turns_are_kept_as():
    """An import that keeps the person's turns as said by a name of its own, or a search that
    looks for another, would leave the person's turns told by no one (retrieval's teller)."""
    from macaron_cli.memory.speakers import ME

    assert _spelling(PACKAGE / "memory", ME, skip="speakers.py") == []


def test_the_teller_check_finds_a_planted_name(tmp_path):
    (tmp_path / "importer.py").write_text('row = {"speaker": "me"}\n', encoding="utf-8")
    assert _spelling(tmp_path, "me", skip="speakers.py") == ["importer.py:1"]
