"""Import LanceDB without paying for the REST client of remote namespaces up front.

`import lancedb` pulls in `lance_namespace_urllib3_client`, whose package __init__ imports
every generated REST API class (about half of lancedb's import time) although a local or
object-store memory never talks to a REST namespace. We register that package without
running its __init__; its submodules (the models lancedb does use) import normally, and
the first access to anything the __init__ defines runs it then, so a REST namespace still
works. Everything else about lancedb is untouched, but its log: the library's warnings
(an index trained on fewer rows than it asked for) are notes to its developers, not to the
person, and would land on their terminal in the middle of a command's own lines.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import types

_REST_CLIENT = "lance_namespace_urllib3_client"
# Read once, when lancedb is first imported: errors still show, and a person who sets it sees more.
_LOG_LEVEL = ("LANCEDB_LOG", "error")


def lancedb():
    if "lancedb" not in sys.modules:
        os.environ.setdefault(*_LOG_LEVEL)
        _defer_package_init(_REST_CLIENT)
    import lancedb as module

    return module


def _defer_package_init(name: str) -> None:
    if name in sys.modules:
        return
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations or not spec.origin:
        return
    origin = spec.origin
    package = types.ModuleType(name)
    package.__spec__, package.__file__, package.__package__ = spec, spec.origin, name
    package.__path__ = list(spec.submodule_search_locations)
    state = {"ran": False}

    def __getattr__(attr: str):
        if attr.startswith("__") or state["ran"]:
            raise AttributeError(f"module {name!r} has no attribute {attr!r}")
        state["ran"] = True
        with open(origin, encoding="utf-8") as fh:
            exec(compile(fh.read(), origin, "exec"), package.__dict__)
        try:
            return package.__dict__[attr]
        except KeyError:
            raise AttributeError(f"module {name!r} has no attribute {attr!r}") from None

    package.__dict__["__getattr__"] = __getattr__  # PEP 562: looked up in the module's dict
    sys.modules[name] = package
