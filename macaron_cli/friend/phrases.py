"""What the friend says on its own, in the person's language: one table of lines by key,
each language's own (a key a language lacks is said in English, never left out).

The words rules read live in macaron_cli/lang/; these are sentences the friend writes: its
greeting, and the lines around a change to an app (the question, progress, the result).
Names, numbers and what the rules read ("water goal 3000 milliliter") go in as values.
"""

from __future__ import annotations

PHRASES: dict[str, dict[str, str]] = {
    "en": {
        "hello": "Hi{name}! Good to see you.",
        "last_time": "Last time: {text} How has it been since?",
        "interest": "I remember: {text}. Anything new there?",
        "soon": "Coming up {when}: {text}",
        "change.ask": "Change {title} ({app}): {what}? (y/n)",
        "change.not_by_rules": "(not by rules: {what})",
        "change.declined": "Nothing changed.",
        "change.changing": "Changing {app}…",
        "change.done": "Changed {title}: {done} (tests {tests}; {checkpoints}; undo: {undo}).",
        "change.stopped": "The change of {app} stopped ({status}): {message}",
        "change.already": "{title} already does that: {message}.",
        "change.cannot": "I can't change {title} that way by rules: {what}. A model can: connect one, then run {hint}",
        "change.interrupted": "(stopped the change; `macaron checkpoints {app}` shows where {app} stands)",
        "change.failed": "The change did not work out: {error}",
        "tests.passed": "passed",
        "tests.failed": "failed",
        "tests.reused": "{tests} (not run again: nothing they read changed)",
        "phase.change": "change",
        "phase.verify": "verify",
        "phase.brief": "brief",
        "phase.spec": "spec",
        "phase.resume": "resume",
        "verify.running": "tests, then open it in a headless browser",
        "verify.passed": "passed",
        "verify.problems": "{n} problem(s)",
        "verify.reused": " (tests: nothing they read changed, their last pass stands)",
    },
    "ja": {
        "hello": "こんにちは{name}。またお話しできてうれしいです。",
        "last_time": "前回のお話: {text} その後いかがですか？",
        "interest": "覚えています: {text}。最近はいかがですか？",
        "soon": "{when}の予定です: {text}",
        "change.ask": "{title}（{app}）を変更しますか: {what} (y/n)",
        "change.not_by_rules": "（ルールではできないこと: {what}）",
        "change.declined": "何も変更していません。",
        "change.changing": "{app} を変更しています…",
        "change.done": "{title}を変更しました: {done}（テスト{tests}、{checkpoints}、元に戻すには: {undo}）。",
        "change.stopped": "{app} の変更は止まりました（{status}）: {message}",
        "change.already": "{title}はもうそうなっています: {message}。",
        "change.cannot": "{title}をルールでそのようには変えられません: {what}。モデルならできます。接続してから {hint}",
        "change.interrupted": "（変更を止めました。`macaron checkpoints {app}` で {app} の状態がわかります）",
        "change.failed": "変更はうまくいきませんでした: {error}",
        "tests.passed": "合格",
        "tests.failed": "不合格",
        "tests.reused": "{tests}（再実行なし: テストが読むものは変わっていません）",
        "phase.change": "変更",
        "phase.verify": "確認",
        "phase.brief": "ブリーフ",
        "phase.spec": "仕様",
        "phase.resume": "再開",
        "verify.running": "テストのあと、ブラウザで開きます",
        "verify.passed": "合格",
        "verify.problems": "不具合が{n}件",
        "verify.reused": "（テスト: 読むものが変わらず、前回の合格のまま）",
    },
    "ko": {
        "hello": "안녕하세요{name}. 다시 만나서 반가워요.",
        "last_time": "지난번 이야기: {text} 그 후로 어떠세요?",
        "interest": "기억하고 있어요: {text}. 요즘은 어떠세요?",
        "soon": "{when} 예정이에요: {text}",
        "change.ask": "{title}({app})을(를) 바꿀까요: {what} (y/n)",
        "change.not_by_rules": "(규칙으로는 못 하는 것: {what})",
        "change.declined": "아무것도 바꾸지 않았어요.",
        "change.changing": "{app} 바꾸는 중…",
        "change.done": "{title}을(를) 바꿨어요: {done} (테스트 {tests}, {checkpoints}, 되돌리기: {undo}).",
        "change.stopped": "{app} 변경이 멈췄어요({status}): {message}",
        "change.already": "{title}은(는) 이미 그래요: {message}.",
        "change.cannot": (
            "{title}을(를) 규칙으로는 그렇게 바꿀 수 없어요: {what}. 모델은 할 수 있어요. 연결한 뒤 {hint}"
        ),
        "change.interrupted": "(변경을 멈췄어요. `macaron checkpoints {app}`에서 {app}의 상태를 볼 수 있어요)",
        "change.failed": "변경이 잘 되지 않았어요: {error}",
        "tests.passed": "통과",
        "tests.failed": "실패",
        "tests.reused": "{tests} (다시 돌리지 않음: 테스트가 읽는 것이 그대로예요)",
        "phase.change": "변경",
        "phase.verify": "검증",
        "phase.brief": "브리프",
        "phase.spec": "사양",
        "phase.resume": "재개",
        "verify.running": "테스트 후 브라우저에서 열어 봐요",
        "verify.passed": "통과",
        "verify.problems": "오류 {n}개",
        "verify.reused": " (테스트: 읽는 것이 그대로라 지난 통과 유지)",
    },
    "zh": {
        "hello": "你好{name}！很高兴又见到你。",
        "last_time": "上次聊到：{text} 之后怎么样了？",
        "interest": "我记得：{text}。最近有什么新进展吗？",
        "soon": "{when}的安排：{text}",
        "change.ask": "要修改{title}（{app}）吗：{what} (y/n)",
        "change.not_by_rules": "（规则做不到：{what}）",
        "change.declined": "什么都没有改。",
        "change.changing": "正在修改 {app}…",
        "change.done": "已修改{title}：{done}（测试{tests}；{checkpoints}；撤销：{undo}）。",
        "change.stopped": "{app} 的修改停下了（{status}）：{message}",
        "change.already": "{title}已经是这样了：{message}。",
        "change.cannot": "规则无法这样修改{title}：{what}。模型可以：连接一个模型，然后运行 {hint}",
        "change.interrupted": "（已停止修改；`macaron checkpoints {app}` 可以看到 {app} 现在的状态）",
        "change.failed": "修改没有成功：{error}",
        "tests.passed": "通过",
        "tests.failed": "未通过",
        "tests.reused": "{tests}（未重新运行：测试读取的内容没有变）",
        "phase.change": "修改",
        "phase.verify": "验证",
        "phase.brief": "简报",
        "phase.spec": "规格",
        "phase.resume": "继续",
        "verify.running": "先测试，再在浏览器中打开",
        "verify.passed": "通过",
        "verify.problems": "{n} 处错误",
        "verify.reused": "（测试：读取的内容没变，上次的通过仍有效）",
    },
    "tl": {
        "hello": "Kumusta{name}! Masaya akong makita ka ulit.",
        "last_time": "Noong huli: {text} Kumusta na mula noon?",
        "interest": "Naaalala ko: {text}. May bago ba roon?",
        "soon": "Paparating sa {when}: {text}",
        "change.ask": "Babaguhin ang {title} ({app}): {what}? (y/n)",
        "change.not_by_rules": "(hindi kaya ng mga patakaran: {what})",
        "change.declined": "Walang binago.",
        "change.changing": "Binabago ang {app}…",
        "change.done": "Nabago ang {title}: {done} (tests {tests}; {checkpoints}; pang-undo: {undo}).",
        "change.stopped": "Huminto ang pagbabago ng {app} ({status}): {message}",
        "change.already": "Ganyan na ang {title}: {message}.",
        "change.cannot": (
            "Hindi kayang baguhin ng mga patakaran ang {title} nang ganyan: {what}. "
            "Kaya ng isang model: ikonekta ito, saka patakbuhin ang {hint}"
        ),
        "change.interrupted": (
            "(itinigil ang pagbabago; ipinapakita ng `macaron checkpoints {app}` kung nasaan ang {app})"
        ),
        "change.failed": "Hindi natuloy ang pagbabago: {error}",
        "tests.passed": "pumasa",
        "tests.failed": "hindi pumasa",
        "tests.reused": "{tests} (hindi na inulit: walang nagbago sa binabasa nila)",
        "phase.change": "pagbabago",
        "phase.verify": "pagsusuri",
        "phase.brief": "brief",
        "phase.spec": "spec",
        "phase.resume": "pagpapatuloy",
        "verify.running": "tests, saka bubuksan sa browser",
        "verify.passed": "pumasa",
        "verify.problems": "{n} problema",
        "verify.reused": " (tests: walang nagbago sa binabasa nila, nananatili ang huling pasa)",
    },
}

NAME_FORMS = {"ja": " {}さん", "ko": " {}님"}  # the polite way to address someone by name


def said(language: str, key: str, **values) -> str:
    """The line `key` in `language` (English where that language has none), filled in."""
    line = PHRASES.get(language, {}).get(key) or PHRASES["en"][key]
    return line.format(**values)


def has(key: str) -> bool:
    return key in PHRASES["en"]
