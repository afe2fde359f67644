"""Which of macaron's modules one make (and one change) passes through, and how often it
comes back to one it had left: the shape of the pipeline, not its speed.

One offline make (`macaron make "a water tracker, 2 liters a day" --offline --yes`) and one
offline change of that app (`macaron change APP "make the goal 3 liters" --offline --yes`)
run in this process, through the CLI's own entry (typer's CliRunner), in a temporary
MACARON_HOME with no model configured. While each runs, `sys.setprofile` follows the main
thread's Python calls and returns (verification's subprocesses and other threads are not
followed) and keeps only frames of macaron_cli's own modules.

Definitions (the figures printed):
  sequence   the module execution is in, each time it moves between macaron_cli frames:
             a call into a macaron_cli function enters its module; a return from one goes
             back to its caller's module when the caller is a macaron_cli frame. Frames of
             other code (the standard library, typer, git…) are transparent.
             Only what the command's module (maker/commands.py) calls is followed, and not the
             work an import does; progress.run_shown (the display around the work) is
             transparent. Depth counts modules, not frames: commands.py is depth 1, what it
             calls in another module depth 2, and so on. With --depth D (default: 3, then 0)
             a move deeper than D counts as its ancestor's at depth D: at 3 the walk of the
             orchestration (pipeline.py and what it calls), at 0 every frame.
  modules    the distinct modules in the sequence.
  stays      the maximal runs of one module in the sequence (A A B A → A, B, A: 3 stays).
  returns    stays in a module the walk had already left before (stays − modules).
  entered    per module, its number of stays (the most-entered are listed).
  spec       writes of a file named macaron.json whose text holds a "spec" (Path.write_text,
             files.write_atomic), and calls of spec_rules.write_spec (the rules writing one).
  title      calls of the function that computes an app's title from the idea (fit.idea_title,
             in maker/ or reading/; plan.title_of where it exists).
  registry   writes of apps.json.
  reads      calls of the slot reader (slots.py `read`) on the request's whole text (the idea,
             the change asked), and in all (on any text: a title, a clause).

Run: python3 bench/make_modules.py [--depth D]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

PACKAGE = str(REPO / "macaron_cli") + os.sep
ANCHOR = "maker/commands.py"  # the command's module: depth 1
TRANSPARENT = {("maker/progress.py", "run_shown")}  # the display around make's and change's work
TITLE_FUNCTIONS = {("reading/fit.py", "idea_title"), ("maker/fit.py", "idea_title"), ("maker/plan.py", "title_of")}


def _module(filename: str) -> str | None:
    return filename[len(PACKAGE) :] if filename.startswith(PACKAGE) else None


class Walk:
    """The profile function: each move between macaron_cli modules, and the writes and calls
    counted. A move is kept as the chain of modules from the command down to where execution
    is (a call within one module adds no link), so any depth is read off afterwards."""

    def __init__(self, request: str = "") -> None:
        self.request = request.strip()
        self.reads = self.all_reads = 0
        self.moves: list[tuple[str, ...]] = []
        self.spec_writes = self.rule_specs = self.titles = self.registry_writes = 0
        self.chains: dict[int, tuple[str, ...]] = {}  # id(frame) → its chain of modules

    def _caller_chain(self, frame) -> tuple[str, ...] | None:
        caller = frame.f_back
        while caller is not None and id(caller) not in self.chains:
            caller = caller.f_back
        return self.chains[id(caller)] if caller is not None else None

    def _counted(self, frame, code) -> None:
        name, module = code.co_name, _module(code.co_filename)
        if name in ("write_text", "write_atomic"):
            target = frame.f_locals.get("self" if name == "write_text" else "path")
            data = frame.f_locals.get("data")
            if target is not None and Path(target).name == "macaron.json" and '"spec"' in str(data):
                self.spec_writes += 1
            if target is not None and Path(target).name == "apps.json":
                self.registry_writes += 1
        if (module, name) == ("reading/spec_rules.py", "write_spec"):
            self.rule_specs += 1
        if module is not None and module.endswith("slots.py") and name == "read":
            self.all_reads += 1
            said = frame.f_locals.get("idea")
            self.reads += isinstance(said, str) and said.strip() == self.request
        if (module, name) in TITLE_FUNCTIONS:
            self.titles += 1

    def _move(self, chain: tuple[str, ...]) -> None:
        if not self.moves or self.moves[-1] != chain:
            self.moves.append(chain)

    def __call__(self, frame, event, arg) -> None:
        if event not in ("call", "return"):
            return
        code = frame.f_code
        if event == "call":
            self._counted(frame, code)
        module = _module(code.co_filename)
        if module is None or (module, code.co_name) in TRANSPARENT:
            return
        if event == "call":
            parent = self._caller_chain(frame)
            if parent is None and module != ANCHOR:
                return  # outside the command
            if code.co_name == "<module>" or parent == ():
                self.chains[id(frame)] = ()  # an import's work is not the make's: not followed
                return
            chain = (module,) if not parent else parent if parent[-1] == module else (*parent, module)
            self.chains[id(frame)] = chain
            self._move(chain)
            return
        if self.chains.pop(id(frame), ()) and (parent := self._caller_chain(frame)):
            self._move(parent)

    def figures(self, depth: int) -> dict:
        """The walk with every move deeper than `depth` modules counted as its ancestor's (0: none)."""
        sequence: list[str] = []
        for chain in self.moves:
            module = chain[min(depth, len(chain)) - 1] if depth else chain[-1]
            if not sequence or sequence[-1] != module:
                sequence.append(module)
        entered = Counter(sequence)
        return {
            "modules": len(entered),
            "stays": len(sequence),
            "returns": len(sequence) - len(entered),
            "entered": entered.most_common(),
            "spec_writes": self.spec_writes,
            "rule_specs": self.rule_specs,
            "titles": self.titles,
            "registry_writes": self.registry_writes,
            "sequence": sequence,
        }


def _traced(args: list[str], request: str) -> Walk:
    from typer.testing import CliRunner

    from macaron_cli.cli import app

    walk = Walk(request)
    sys.setprofile(walk)
    try:
        result = CliRunner().invoke(app, args)
    finally:
        sys.setprofile(None)
    if result.exit_code != 0:
        raise SystemExit(f"macaron {' '.join(args)} exited {result.exit_code}:\n{result.output}\n{result.exception!r}")
    return walk


def _show(depth: int, figures: dict, walk: bool) -> None:
    at = f"depth {depth}" if depth else "every frame"
    print(
        f"  {at:>11}: {figures['modules']} modules in {figures['stays']} stays, "
        f"{figures['returns']} returns to a module already left"
    )
    top = ", ".join(f"{module} {n}" for module, n in figures["entered"][:6])
    print(f"               entered most: {top}")
    if walk:
        print("               walk: " + " → ".join(m.removesuffix(".py") for m in figures["sequence"]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--depth", type=int, nargs="*", default=[3, 0], help="depths to show (0: every frame)")
    parser.add_argument("--walk", action="store_true", help="print each walk, module by module")
    options = parser.parse_args()
    home = Path(tempfile.mkdtemp(prefix="macaron-modules-"))
    for key in [k for k in os.environ if k.startswith(("ANTHROPIC_", "MACARON_"))]:
        if key != "MACARON_EMBEDDINGS":
            del os.environ[key]
    os.environ.update(MACARON_HOME=str(home / "home"), MACARON_APPS_DIR=str(home / "apps"))
    import json

    for label, args in (
        ("make", ["make", "a water tracker, 2 liters a day", "--offline", "--yes"]),
        ("change", ["change", "{app}", "make the goal 3 liters", "--offline", "--yes"]),
    ):
        if "{app}" in args:
            registry = json.loads((home / "home" / "apps.json").read_text(encoding="utf-8"))
            args = [a.replace("{app}", next(iter(registry))) for a in args]
        walk = _traced(args, args[2] if label == "change" else args[1])
        print(f"offline {label}: macaron {' '.join(args)}")
        for depth in options.depth:
            _show(depth, walk.figures(depth), options.walk)
        print(
            f"  spec written {walk.spec_writes} time(s) (the rules wrote one {walk.rule_specs} time(s)); "
            f"title computed {walk.titles} time(s); apps.json written {walk.registry_writes} time(s)"
        )
        print(f"  the request read {walk.reads} time(s) ({walk.all_reads} reads of any text)")


if __name__ == "__main__":
    main()
