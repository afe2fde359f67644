"""Ideas that would give medical or financial advice, which need the person's yes first.

Plain trackers (water, mood, spending) are not advice; dosing, diagnosis, investing and
loans are. The words are matched in every language macaron speaks.
"""

from __future__ import annotations

import re

_MEDICAL = [
    r"\bdos(e|es|age|ing)\b",
    r"\bdiagnos",
    r"\bsymptom checker\b",
    r"\bprescri",
    r"\btreatment plan\b",
    "服用量",
    "投与量",
    "用量",
    "診断",
    "処方",
    "복용량",
    "투약",
    "진단",
    "처방",
    "剂量",
    "用药量",
    "诊断",
    "处方",
    r"\bdosis\b",
    r"\bdiyagnos",
    r"\breseta\b",
]
_FINANCIAL = [
    r"\binvest",
    r"\bstock picks?\b",
    r"\bportfolio\b",
    r"\bloans?\b",
    r"\bmortgage\b",
    r"\bcrypto\b",
    r"\btrading\b",
    "投資",
    "ローン",
    "融資",
    "株",
    "투자",
    "대출",
    "주식",
    "投资",
    "贷款",
    "股票",
    "理财",
    r"\bpautang\b",
    r"\butang\b",
    r"\bpamumuhunan\b",
    r"\bpuhunan\b",
]

ADVICE_NOTE = {
    "en": "Not professional advice: check with a qualified professional before you act on it.",
    "ja": "専門家による助言ではありません。判断の前に専門家にご相談ください。",
    "ko": "전문가의 조언이 아닙니다. 결정하기 전에 전문가와 상의하세요.",
    "zh": "这不是专业建议：请在行动前咨询合格的专业人士。",
    "tl": "Hindi ito propesyonal na payo: kumonsulta muna sa isang propesyonal bago kumilos.",
}


def advice_kind(idea: str) -> str | None:
    """'medical', 'financial' or None for an idea."""
    text = idea.lower()
    for kind, patterns in (("medical", _MEDICAL), ("financial", _FINANCIAL)):
        if any(re.search(p, text) for p in patterns):
            return kind
    return None


def advice_note(language: str) -> str:
    return ADVICE_NOTE.get(language, ADVICE_NOTE["en"])
