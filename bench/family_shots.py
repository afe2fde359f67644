"""Screenshots of the families issue 43 added or extended, in five languages, to look at.

    python3 bench/family_shots.py OUT_DIR            # every family × en ja ko zh tl
    python3 bench/family_shots.py OUT_DIR --only deck

Each idea is made the way an offline make makes it, short of verification (template,
brief, scaffold), a record or two is added through the app's own API in the idea's
language (an empty app shows little), the app is started and headless Chromium takes
`FAMILY-LANG.png`; then `contact-FAMILY.png` puts the five languages side by side, and
`contact.html` all of them. A person looks at these: untranslated words, text that
overflows, the wrong unit or currency.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import subprocess
import sys
import tempfile
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

LANGS = ("en", "ja", "ko", "zh", "tl")
IDEAS = {
    "timer": (
        "pomodoro timer 25 min work 5 min break",
        "ポモドーロタイマー、25分集中と5分休憩",
        "뽀모도로 타이머 25분 공부 5분 휴식",
        "番茄钟，学习25分钟休息5分钟",
        "pomodoro timer, 25 minutes aral tapos 5 minutes pahinga",
    ),
    "deck": (
        "flashcards for my spanish vocab, english on one side",
        "英単語の暗記カード作って！表が英語で裏が日本語",
        "영어 단어 암기 카드, 앞면 영어 뒷면 한국어",
        "背单词的卡片，正面英文反面中文",
        "flashcards para sa Japanese, nihongo sa harap, tagalog sa likod",
    ),
    "meal-plan": (
        "meal plan for the week: breakfast, lunch and dinner",
        "一週間の献立を考えるのが大変…月曜から日曜まで朝昼晩",
        "일주일 식단표 짜기 아침 점심 저녁",
        "一周的菜单，周一到周日的午饭和晚饭",
        "meal plan para sa buong linggo, almusal tanghalian hapunan",
    ),
    "savings": (
        "saving up $3,000 for a used car, want to see how close I am",
        "旅行のために30万円ためたい。毎月いくら貯金したか入れて進み具合を見たい",
        "결혼 자금 천만원 모으기! 입금할 때마다 얼마나 모였는지 보고 싶어",
        "存钱买电脑，目标8000元，每次存了多少记一下",
        "nag-iipon ako ng 50k pesos para sa laptop, gusto ko makita progress",
    ),
    "shared-bills": (
        "rent, electric and internet split three ways between me, Marco and Lena",
        "ルームメイトの美咲と光熱費を半分ずつ払ってる",
        "월세랑 관리비 동생 유나랑 나눠 내는 거 정리",
        "我和室友小王、阿杰平摊水电费",
        "hatian namin nila Joy at Mark sa kuryente at tubig",
    ),
    "debts": (
        "Tom owes me 40 bucks, Sara owes me 25, I always forget who paid back",
        "友達のさくらとゆいに貸したお金を忘れないように",
        "친구 수진이한테 5만원, 현우한테 3만원 빌려줬어",
        "朋友借了我的钱：李明500，张伟200",
        "sino may utang sa akin: si Carlo 1,500, si Bea 800",
    ),
    "planner-people": (
        "shift rota for the cafe, Ana, Ben and Chloe, mornings and evenings",
        "バイトのシフト表、田中さん・佐藤さん・私で回してる、朝と夜",
        "편의점 알바 근무표, 나, 은지, 태호 오전 오후",
        "餐厅排班表：小李、小张、小陈，早班晚班",
        "iskedyul ng shift namin sa tindahan: ako, si Liza, si Jun, umaga at gabi",
    ),
    "countdown": (
        "countdown to our wedding on June 12 2027!!",
        "2027年3月15日に引っ越し。あと何日か知りたい",
        "수능 D-day 2027년 11월 18일",
        "距离高考还有多少天，2027年6月7日",
        "ilang araw na lang bago ang kasal namin, Disyembre 19 2027",
    ),
}
# What a person would write into each app, in their language.
WORDS = {
    "en": {"dish": "Pancakes", "task": "Open the shop", "note": "Electric bill"},
    "ja": {"dish": "焼き魚定食", "task": "レジ開け", "note": "電気代"},
    "ko": {"dish": "김치찌개", "task": "매장 오픈", "note": "전기 요금"},
    "zh": {"dish": "番茄炒蛋", "task": "开店准备", "note": "电费"},
    "tl": {
        "dish": "Sinigang",
        "task": "Buksan ang tindahan",
        "note": "Bayad sa kuryente",
    },
}
# A card's sides in the languages the deck says (its front first).
APPLE = {"en": "apple", "es": "manzana", "ja": "りんご", "ko": "사과", "zh": "苹果", "tl": "mansanas", "fr": "pomme"}
MINOR_DIGITS = {"JPY": 0, "KRW": 0}


def make_app(idea: str, into: Path) -> tuple[str, Path]:
    """The app an offline make scaffolds for the idea (no verification), and its template."""
    from macaron_cli.config import Settings
    from macaron_cli.maker.brief import build_brief
    from macaron_cli.maker.choose import choose_template
    from macaron_cli.maker.scaffold import make_slug, scaffold

    template = choose_template(idea)
    brief = build_brief(idea, None, Settings(), None)
    return template.name, scaffold(template, brief, make_slug(idea, template.name, into), into)


def _post(origin: str, path: str, body: dict) -> None:
    request = urllib.request.Request(
        origin + path, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    urllib.request.urlopen(request, timeout=10).close()


def add_records(family: str, lang: str, origin: str, config: dict) -> None:
    """A record or two, as the person would add them (an empty app shows little)."""
    today, words = dt.date.today().isoformat(), WORDS[lang]
    minor = 10 ** MINOR_DIGITS.get(config.get("currency", ""), 2)
    people, categories = config.get("people") or [], config.get("categories") or ["other"]
    if family == "timer":
        for _ in range(2):
            _post(origin, "/api/sessions", {"minutes": config.get("work_minutes", 25), "day": today})
    elif family == "deck":
        front, back = (APPLE.get(side, side) for side in (config.get("sides") or ["en", lang])[:2])
        _post(origin, "/api/cards", {"front": front, "back": back, "day": today})
    elif family == "meal-plan":
        meal = (config.get("meals") or ["dinner"])[0]
        _post(origin, "/api/plan", {"day": today, "meal": meal, "dish": words["dish"]})
    elif family == "savings":
        deposit = int((config.get("savings_goal") or 1000) * 0.15)
        _post(origin, "/api/expenses", {"amount_minor": deposit * minor, "category": categories[0], "day": today})
    elif family in ("shared-bills", "debts"):
        for n, who in enumerate([p for p in people if p != "me" or family != "debts"][:2]):
            amount = (60 if minor > 1 else 6000) * (n + 1) * minor
            body = {"amount_minor": amount, "category": categories[0], "note": words["note"], "who": who, "day": today}
            _post(origin, "/api/expenses", body)
    elif family == "planner-people":
        shifts = config.get("shifts") or [None]
        for n, who in enumerate(people[:2]):
            task = {"title": words["task"], "day": today, "who": who, "shift": shifts[n % len(shifts)]}
            _post(origin, "/api/tasks", task)


def shoot(app: Path, family: str, lang: str, png: Path) -> None:
    config = json.loads((app / "config" / "app.json").read_text(encoding="utf-8"))
    with served(app) as origin:
        add_records(family, lang, origin, config)
        chromium(origin + "/", png, "480,1100")


@contextmanager
def served(app: Path) -> Iterator[str]:
    """The app started as `macaron run` starts it (without the sandbox); its origin."""
    from macaron_cli.sandbox.manifest import runnable_manifest
    from macaron_cli.sandbox.open_check import expand_argv, free_port, wait_until_answers

    run = runnable_manifest(app).run or ()
    port = free_port()
    origin = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        expand_argv(run, sys.executable, port), cwd=app, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
    )
    try:
        if wait_until_answers(origin + "/", server, 30) is None:
            raise SystemExit(f"{app.name}: the app did not start")
        yield origin
    finally:
        server.terminate()
        server.wait(timeout=10)


def chromium(url: str, png: Path, size: str) -> None:
    subprocess.run(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
         "--disable-background-networking", f"--screenshot={png}", f"--window-size={size}",
         "--virtual-time-budget=5000", url],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip


def contact_sheets(out: Path, families: list[str]) -> None:
    """One PNG per family with the five languages side by side, and an HTML page of all."""
    cells = lambda family: "".join(  # noqa: E731
        f'<figure><img src="{family}-{lang}.png"><figcaption>{family} · {lang}</figcaption></figure>' for lang in LANGS
    )
    style = "<style>body{margin:0;display:flex;gap:8px;font:14px sans-serif}figure{margin:0}"
    style += "img{width:480px;border:1px solid #ccc}"
    style += "</style>"
    for family in families:
        page = out / f"contact-{family}.html"
        page.write_text(f"<!doctype html><meta charset=utf-8>{style}{cells(family)}", encoding="utf-8")
        chromium(page.as_uri(), out / f"contact-{family}.png", "2500,1160")
    rows = "".join(f'<div style="display:flex;gap:8px">{cells(f)}</div>' for f in families)
    (out / "contact.html").write_text(f"<!doctype html><meta charset=utf-8>{rows}", encoding="utf-8")


def out_and_only(doc: str, choices) -> argparse.Namespace:
    """The command line of a screenshot bench: the folder the PNGs go to, --only some."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--only", choices=sorted(choices), action="append")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    return args


def main() -> int:
    args = out_and_only(__doc__, IDEAS)
    families = args.only or list(IDEAS)
    with tempfile.TemporaryDirectory(prefix="macaron-shots-") as home:
        import os

        os.environ.update(MACARON_HOME=home, MACARON_APPS_DIR=f"{home}/apps")
        for family in families:
            for lang, idea in zip(LANGS, IDEAS[family], strict=True):
                template, app = make_app(idea, Path(home) / "apps")
                png = args.out / f"{family}-{lang}.png"
                shoot(app, family, lang, png)
                print(f"{png}  ({template}: {idea})")
    contact_sheets(args.out, families)
    return 0


if __name__ == "__main__":
    sys.exit(main())
