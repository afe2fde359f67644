"""How well `macaron chat` tells a change to one of the person's apps from ordinary chat.

A person with eight apps (made as an offline make makes them) types lines; each is read as
the chat reads a turn (friend/changes.py: an app named + a change asked, then the change's
own plan as the last word). Three corpora, in en/ja/ko/zh/tl:

  CHANGES    change requests, each with the app it is for: the friend must name that app;
  NEW_APPS   changes to an app the person does not have: offered as a new app (make);
  CHAT       ordinary chat lines (some with an app's words, some with a change's verbs):
             a false alarm is any of them read as a change or offered as an app.

    python3 bench/chat_changes.py          # the figures, and each line read wrong
    python3 bench/chat_changes.py --all    # every line
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# slug → (idea, language): the person's apps.
APPS = {
    "water": ("毎日の水分補給を記録したい", "ja"),
    "blood-pressure": ("blood pressure every morning", "en"),
    "chores": ("chores for me, Tom and Lily every week", "en"),
    "spending": ("track my monthly spending in yen", "en"),
    "books": ("a list of books I've read with a rating", "en"),
    "wedding": ("count down to my wedding", "en"),
    "steps": ("记录每天的步数", "zh"),
    "badyet": ("Gusto ko ng badyet para sa gastos ko buwan-buwan", "tl"),
}

# (line, the app it changes)
CHANGES: list[tuple[str, str]] = [
    ("put Ben on the chores chart", "chores"),
    ("take Tom off the chores", "chores"),
    ("Lily moved out, take her off the chores", "chores"),
    ("add my pulse to the blood pressure tracker", "blood-pressure"),
    ("log my blood pressure in the evening too", "blood-pressure"),
    ("set my water goal to 3 liters", "water"),
    ("use cups for the water", "water"),
    ("show my spending in euros", "spending"),
    ("make the spending budget 200000 yen", "spending"),
    ("add a publisher field to my books list", "books"),
    ("the wedding is on June 14 now", "wedding"),
    ("rename the wedding countdown to “Our big day”", "wedding"),
    ("水分の目標を2リットルにして", "water"),
    ("水分記録にコーヒーも追加して", "water"),
    ("血圧の記録に脈拍も入れて", "blood-pressure"),
    ("家計簿の予算を15万円にして", "spending"),
    ("家事当番にミアを追加して", "chores"),
    ("물 목표를 2리터로 바꿔 줘", "water"),
    ("혈압 기록에 체중도 넣어 줘", "blood-pressure"),
    ("집안일에 수진을 추가해 줘", "chores"),
    ("가계부를 달러로 바꿔 줘", "spending"),
    ("步数目标改成八千步", "steps"),
    ("步数也加上睡眠", "steps"),
    ("家务里加上小张", "chores"),
    ("记账改用美元", "spending"),
    ("Idagdag si Carlo sa chores", "chores"),
    ("Gawing 2 litro ang goal ng tubig", "water"),
    ("Gawing 30000 piso ang badyet", "badyet"),
    ("Idagdag ang pulso sa blood pressure", "blood-pressure"),
    ("Ipakita sa English ang badyet", "badyet"),
]

# Changes to an app the person does not have: offered as a new app.
NEW_APPS: list[str] = [
    "add a sleep column to my mood diary",
    "put Mia on the dishwashing chart",
    "set the goal of my reading tracker to 20 pages",
    "瞑想アプリに夜の記録も追加して",
    "운동 기록 앱에 스쿼트도 넣어 줘",
    "给我的体重记录加上体脂",
    "Idagdag si Mia sa listahan ng labada app",
]

CHAT: list[str] = [
    "I changed my mind about dinner",
    "I drank so much water today",
    "Tom says hi, he's coming over tonight",
    "can you remind me what Lily said about the trip?",
    "add some salt to the soup, it was bland",
    "I put the books back on the shelf",
    "my blood pressure was high at the doctor",
    "should I set a goal to read more books this year?",
    "Lily moved to a new apartment last month",
    "I want to take a break from work",
    "what's a good way to save money?",
    "I spent too much on coffee this week",
    "make sure you remember my sister's birthday",
    "let's talk about the wedding plans",
    "I need to drink more water, any tips?",
    "remove that thought, I was just venting",
    "Ben joined our book club",
    "use a friendlier tone please",
    "my weight went up two kilos, ugh",
    "the chores are piling up again",
    "I use the water app every morning",
    "switch to a lighter topic, please",
    "put the kettle on, I'm coming home",
    "change is hard, isn't it",
    "today I walked 12000 steps!",
    "今日は水をたくさん飲んだ",
    "気が変わった、夕飯は寿司にする",
    "血圧が高いって言われた",
    "本をもっと読みたいな",
    "結婚式の準備で疲れた",
    "오늘 물을 많이 마셨어",
    "마음이 바뀌었어",
    "혈압 약 먹는 거 깜빡했어",
    "주말에 뭐 할까?",
    "가계부 쓰는 게 귀찮아",
    "我改主意了，晚饭吃面",
    "今天走了很多步",
    "小王今天请我吃饭",
    "这个月花钱太多了",
    "Nagbago ang isip ko tungkol sa hapunan",
    "Uminom ako ng maraming tubig kanina",
    "Gastos na naman ngayong buwan",
    "Salamat sa tulong mo kahapon",
]


def person_with_apps(root: Path) -> dict:
    """The eight apps on disk under `root` (macaron.json and config/app.json, as an offline
    make writes them, a git repo with its scaffold checkpoint) and in the registry of the home MACARON_HOME names."""
    from bench.change_corpus import made
    from macaron_cli.apps import load_registry, register
    from macaron_cli.checkpoints import AppRepo

    for slug, (idea, lang) in APPS.items():
        manifest, cfg = made(idea, lang)
        app = root / "apps" / slug
        (app / "config").mkdir(parents=True)
        (app / "macaron.json").write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")
        (app / "config" / "app.json").write_text(json.dumps(cfg, ensure_ascii=False), encoding="utf-8")
        AppRepo.init(app).checkpoint("scaffold", "as an offline make keeps it")  # a change refuses a folder without one
        register(slug, path=str(app), idea=idea, title=manifest["title"], template=manifest["template"])
    return load_registry()


def reading(line: str, apps: dict) -> str:
    """What the chat does with the line: "change SLUG", "make", or "chat"."""
    from macaron_cli.friend.changes import change_asked, read_change

    asked = change_asked(line, apps)
    if asked is None:
        return "chat"
    if asked.slug is None:
        return "make"
    planned = read_change(asked)
    return f"change {asked.slug}" if planned is not None else "chat"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="print every line, not only those read wrong")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.update(MACARON_HOME=f"{tmp}/home", MACARON_APPS_DIR=f"{tmp}/apps")
        for name in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL"):
            os.environ.pop(name, None)  # the offline rules read each line, as in a chat with no model
        apps = person_with_apps(Path(tmp))
        for name, cases in (
            ("change requests", [(line, f"change {slug}") for line, slug in CHANGES]),
            ("new apps offered", [(line, "make") for line in NEW_APPS]),
            ("ordinary chat", [(line, "chat") for line in CHAT]),
        ):
            ok = 0
            for line, want in cases:
                got = reading(line, apps)
                ok += got == want
                if args.all or got != want:
                    print(f"{'ok ' if got == want else 'BAD'} {line!r}: {got}; want {want}")
            print(f"{name}: {ok}/{len(cases)} read right")
    return 0


if __name__ == "__main__":
    sys.exit(main())
