"""A bench script (bench/NAME.py) loaded as a module, for the tests that share its corpus or its judge."""

from __future__ import annotations

import importlib.util
from types import ModuleType

from tests.conftest import REPO


def bench_module(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, REPO / "bench" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
