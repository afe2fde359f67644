"""The personal memory, shared by chat, make and the TUI.

Import from here: `from macaron_cli.memory import MemoryStore, Memory, Hit`.
"""

from macaron_cli.memory.records import Hit, Memory
from macaron_cli.memory.store import MemoryStore

__all__ = ["Hit", "Memory", "MemoryStore"]
