"""LanceDB queries that run on LanceDB's own threads while this one goes on.

LanceDB's synchronous table wraps its asynchronous one and hands every step of a query
(the schema, the plan, each batch of results) to LanceDB's event-loop thread, then waits:
about six hand-overs between threads per query, each a wake-up on two busy cores. `begin`
hands a whole query over once and returns at once, so a search embeds its text on this
thread while LanceDB searches by words (bench/search_ab.py measures it).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Future


def reader(table):
    """The asynchronous table under a LanceDB table: the same dataset, caches and read
    consistency (lancedb 0.40 keeps it as `_table`, local and remote tables alike)."""
    return table._table


def begin(query) -> Future:
    """Start an asynchronous LanceDB query (built on `reader(table).query()` or a take);
    `.result()` waits for its Arrow table."""
    from lancedb.background_loop import LOOP

    return asyncio.run_coroutine_threadsafe(query.to_arrow(), LOOP.loop)
