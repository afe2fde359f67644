"""Printing for commands: JSON for machines, rich for people (imported only when used)."""

from __future__ import annotations

import json
import sys


def print_json(obj) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=None) + "\n")


def console(stderr: bool = False):
    from rich.console import Console

    return Console(stderr=stderr, highlight=False)
