"""A Chinese chat turn as the friend searches it (MADial-style: the turn shares no word with the
memory it should bring back): what comes back is what the turn is about, every memory of it
that says something, not only the first of two memories of the same thing."""

from __future__ import annotations

import pytest

from macaron_cli.memory import MemoryStore
from macaron_cli.memory.records import CHAT

pytestmark = pytest.mark.embeddings


def test_a_turn_brings_back_both_memories_of_one_thing_not_only_the_first(tmp_path):
    store = MemoryStore.open(tmp_path / "memory")
    hobbies = ("我喜欢游泳", "我喜欢运动", "我最喜欢做的事就是在海滩上看书", "我和朋友们在操场上玩")
    more = ("米老鼠是我最喜欢的角色", "我喜欢旅行", "我喜欢滑雪", "我喜欢唱歌", "我喜欢做手工", "我喜欢去徒步旅行")
    store.add_many(
        [
            {"id": "policeman", "text": "我父亲以前是个警察"},
            {"id": "on-duty", "text": "我父亲以前是警察，因公殉职了"},
            *({"id": f"hobby-{n}", "text": text} for n, text in enumerate(hobbies + more)),
        ]
    )
    found = [h.memory.id for h in store.search("我今天去钓鱼了，钓鱼是我和爸爸都喜欢的活动", k=5, purpose=CHAT)]
    # Near in meaning, yet each says something: that he was a policeman, that he died on duty.
    assert {"policeman", "on-duty"} <= set(found)
