"""The template's own habits, for its tests.

The person's app may track other things (make fits config/app.json to the idea), and these
tests are about how the tracker behaves, not what it tracks. A test module that imports
`starter_habits` runs with these habits (the fixture is autouse).
"""

import pytest

STARTER_HABITS = [
    {"key": "water", "label": "", "icon": "💧", "unit": "milliliter", "goal": 2000, "step": 250},
    {"key": "steps", "label": "", "icon": "👟", "unit": "steps", "goal": 8000, "step": 1000},
    {"key": "medication", "label": "", "icon": "💊", "unit": "times", "goal": 1, "step": 1},
]


@pytest.fixture(autouse=True)
def starter_habits(settings):
    settings(habits=STARTER_HABITS)
