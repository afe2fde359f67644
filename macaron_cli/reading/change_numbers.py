"""The change rules that set numbers (en, ja, ko, zh, tl): a timer's work and break minutes in
the order said ("50 on 10 off", "集中45分、休み15分").

Each rule takes the change being read (change_rules._Ask) and edits one part of the app's
spec, the way change_rules' own rules do; change_rules.RULES runs them in its order.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from macaron_cli.reading.spec_families import minutes_said
from macaron_cli.spec import Timer

if TYPE_CHECKING:
    from macaron_cli.reading.change_rules import _Ask


def timer_minutes(ask: _Ask, config: dict) -> None:
    """Work and break minutes, as said: a pair in its order, or one of them named ("make the
    break 10 minutes"); the other stays as it was."""
    timer = ask.spec.timer
    if timer is None or ask.remove:
        return
    work, rest = minutes_said(ask.text, ask.slots)
    if work is None and rest is None:
        return
    after = Timer(work=work or timer.work, rest=rest or timer.rest)
    said = f"{after.work} minutes of work, then {after.rest} of break"
    if after == timer:
        ask.already.append(f"the timer is already {said}")
        return
    ask.spec = replace(ask.spec, timer=after)
    ask.done.append(said)
