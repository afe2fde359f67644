"""`--tuning NAME=VALUE` (repeatable) for the memory benches: search with one number of
macaron_cli/memory/tuning.py's Tuning changed (dataclasses.replace), no code edited.

    python3 bench/memory_recall.py --tuning boost=0.2 --tuning vector_weight=0.6
"""

from __future__ import annotations

import argparse


def add(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--tuning",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="search with this number of memory/tuning.py's Tuning changed (repeatable)",
    )


def options(args: argparse.Namespace) -> dict:
    """The search options for `args`: none without --tuning (so the bench runs on older code too)."""
    if not args.tuning:
        return {}
    from macaron_cli.errors import UserError
    from macaron_cli.memory.tuning import tuned

    try:
        tuning = tuned(args.tuning)
    except UserError as e:
        raise SystemExit(f"--tuning: {e}") from None
    print(f"tuning: {', '.join(args.tuning)}")
    return {"tuning": tuning}
