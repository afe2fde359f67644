"""A question without its small talk: "Hey! Lovely day today… anyway, um, how tall is my
sister again?" searches for "how tall is my sister". Greetings, weather talk and fillers
otherwise weigh as much as the question in both the words and the meaning searched for
(and "today" in "lovely day today" would read as a date).

Three cuts, in en/ja/ko/zh/tl: a sentence that asks nothing and is only a greeting, a remark
on the weather or a pleasantry goes; so does such a clause before the question in the
sentence that asks ("唉，今天好累啊，对了，我妹妹多高？"); fillers and discourse markers
("anyway", "ところで", "그런데", "对了", "teka") go from the start of what remains. Whatever is left must still
hold a word, or the question is searched as it was asked.
"""

from __future__ import annotations

import re

# A sentence: up to and including its end marks (or the text's end).
_SENTENCE = re.compile(r"[^.!?。！？…~〜]+(?:[.!?。！？…~〜]+|$)")
_ASKS = ("?", "？")

# Small talk that makes a sentence chatter when it asks nothing.
_SMALL_TALK = re.compile(
    r"\b(?:hi|hey|hello|hiya|good\s+(?:morning|afternoon|evening|night)|sorry\s+to\s+bother(?:\s+you)?"
    r"|weather|sunny|rainy|raining|cloudy|snowing|so\s+(?:hot|cold|tired)|lovely\s+day|nice\s+day"
    r"|magandang\s+(?:umaga|hapon|gabi)|kumusta|uy|naku|ang\s+(?:init|lamig|lakas\s+ng\s+ulan))\b"
    r"|おはよう|こんにちは|こんばんは|いい天気|天気|暑い|寒い|雨|いやー|ねえねえ"
    r"|안녕|날씨|덥다|춥다|비가|어휴|피곤"
    r"|你好|哎呀|天气|好累|唉|早上好|晚上好",
    re.IGNORECASE,
)
# Fillers and discourse markers, taken off the start of a sentence (repeatedly).
_FILLER = (
    r"(?:um+|uh+|erm|hmm+|oh|ah|well|so|okay|ok|anyway|anyhow|by\s+the\s+way|btw|also|and"
    r"|i\s+was\s+(?:just\s+)?wondering|just\s+wondering|quick\s+question|remind\s+me"
    r"|sorry\s+to\s+bother(?:\s+you)?|excuse\s+me|teka|ay|oo\s+nga\s+pala|nga\s+pala|eh)\b"
    r"|ところで|そういえば|えーと|えっと|あのさ|ねえ|まあ"
    r"|(?:그런데|근데|있잖아|아무튼|음+|아|저기)(?=[\s,.…~!]|$)"  # Korean words end at a space
    r"|对了|那个|嗯+|哦|话说|顺便问一下"
)
_LEADING = re.compile(rf"^(?:\s*(?:{_FILLER})[\s,，、:;.…~〜!！]*)+", re.IGNORECASE)
_CLAUSE = re.compile(r"[^,，、]+(?:[,，、]+|$)")
_WORD = re.compile(r"\w")


def without_chatter(query: str) -> str:
    """`query` without its small-talk sentences and leading fillers (itself when nothing is left)."""
    kept = []
    for sentence in _SENTENCE.findall(query):
        sentence = sentence.strip()
        if not sentence:
            continue
        if not sentence.endswith(_ASKS) and _SMALL_TALK.search(sentence):
            continue
        kept.append(_LEADING.sub("", _without_leading_small_talk(sentence)))
    cleaned = " ".join(s for s in kept if _WORD.search(s))
    return cleaned if cleaned else query


def _without_leading_small_talk(sentence: str) -> str:
    """The sentence from its first clause that is neither small talk nor fillers alone (the
    last clause always stays)."""
    clauses = _CLAUSE.findall(sentence)
    while len(clauses) > 1 and (_SMALL_TALK.search(clauses[0]) or not _WORD.search(_LEADING.sub("", clauses[0]))):
        clauses.pop(0)
    return "".join(clauses).strip()
