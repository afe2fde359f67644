"""DuLeMon (Baidu's long-term persona memory chats, Chinese) → recall_side_by_side's group form.

    python3 bench/convert_dulemon.py PATH/TO/samples.json [OUT.json] [--per-conversation] [--side bot]

DuLeMon (Xu et al., Findings of ACL 2022; github.com/PaddlePaddle/Research,
NLP/ACL2022-DuLeMon, Apache-2.0) gives each chat the persona sentences the user said in
earlier sessions (`user_said_persona`, "U3: 我 有 孩子") and labels every turn that draws on
one with its id ("...\\tU3"). Those labels are the evidence:
  memories  every user_said_persona sentence, the person's memory (the bot's own persona and
            what the user never said are no memory of theirs, and are left out)
  reply     a bot turn labelled with a memory: the question is the user's turn before it, as
            the friend searches the person's last turn before it answers
  mention   a user turn labelled with a memory: the question is that turn itself
With `--side bot` the memories are the bot's own persona sentences (`bot_persona`, "B4: 我 超级
爱 吃肉") and the evidence its turns labelled with one: each such bot turn is a `mention` (the
turn itself) and a `reply` (the user's turn before it, as the friend searches before it answers
from what it holds): the same chats' other labels, never the user's memories again.
The corpus is word-segmented ("我 喜欢 运动"); people type Chinese without spaces, so the
spaces between two CJK characters are taken out. By default all chats share one store (a
chat alone holds 3-6 memories, too few for R@5 to mean anything); --per-conversation keeps
one store per chat. Every third chat (the third, sixth…) is `held_out`: never looked at while
tuning.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

CJK = "\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"
BETWEEN_CJK = re.compile(f"(?<=[{CJK}]) +(?=[{CJK}])")
WHEN = "2022-03-01T12:00:00+00:00"  # DuLeMon has no dates; one for all, so none favours a memory


def unsegment(text: str) -> str:
    return BETWEEN_CJK.sub("", text.strip())


# Whose memories a side's set holds, and whose turns mention them.
PERSONA = {"user": "user_said_persona", "bot": "bot_persona"}
SPEAKER = {"user": "Usr", "bot": "Bot"}


def convert(lines: list[str], per_conversation: bool, side: str = "user") -> dict:
    groups: dict[str, list[dict]] = {}
    queries: list[dict] = []
    for n, line in enumerate(lines):
        chat = json.loads(line)
        group = f"c{n}" if per_conversation else "all"
        said = {}
        for sentence in chat[PERSONA[side]]:
            label, _, text = sentence.partition(":")
            said[label.strip()] = f"c{n}-{label.strip()}"
            groups.setdefault(group, []).append(
                {"id": f"c{n}-{label.strip()}", "text": unsegment(text), "created_at": WHEN}
            )
        previous_user = None
        held_out = n % 3 == 2

        def asked(query: str, label: str, kind: str, held_out=held_out, said=said, group=group) -> dict:
            return {"query": query, "evidence": [said[label]], "group": group, "kind": kind, "held_out": held_out}

        for turn in chat["conversation"]:
            utterance, _, label = turn.partition("\t")
            speaker, _, text = utterance.partition(":")
            speaker, text, label = speaker.strip(), unsegment(text), label.strip()
            if label in said and speaker == SPEAKER[side]:
                queries.append(asked(text, label, "mention"))
            if label in said and speaker == "Bot" and previous_user:
                queries.append(asked(previous_user, label, "reply"))
            if speaker == "Usr":
                previous_user = text
    return {
        "name": "DuLeMon samples (Chinese persona memory chats)"
        + (", the bot's persona as the memories" if side == "bot" else ""),
        "licence": "Apache-2.0, PaddlePaddle/Research NLP/ACL2022-DuLeMon/data/samples.json; "
        "converted by bench/convert_dulemon.py (spaces between Chinese characters removed)",
        "groups": groups,
        "queries": queries,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", type=Path)
    parser.add_argument("out", nargs="?", type=Path)
    parser.add_argument("--per-conversation", action="store_true")
    parser.add_argument("--side", choices=tuple(PERSONA), default="user", help="whose persona is the memory")
    args = parser.parse_args()
    lines = [line for line in args.source.read_text(encoding="utf-8").splitlines() if line.strip()]
    text = json.dumps(convert(lines, args.per_conversation, args.side), ensure_ascii=False, indent=1) + "\n"
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
