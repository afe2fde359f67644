"""The one reader of a model's answer (maker/answer.py): a file only from a `### FILE: path`
line followed by a fenced block that closes; everything else, a bare path line above all,
is talk. Examples first, then properties over fences, nesting, truncation and echoes."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from macaron_cli.maker.answer import read_answer
from macaron_cli.maker.local_model import build_messages


def files_of(text: str) -> dict[str, str]:
    return {f.path: f.content for f in read_answer(text).files}


def test_only_a_file_header_then_a_closed_fence_is_a_file():
    text = (
        "<think>### FILE: static/x.js\n```js\nnot this\n```</think>\n"
        "`static/style.css`:\n```css\nbody{}\n```\n"  # a path in backticks: talk
        "```js static/app.js\nlet a = 1;\n```\n"  # a path in the info string: talk
        "**server/main.py**\n```python\nx = 1\n```\n"  # a bold name: talk
        "File: server/digest.py\n\n```python\ny = 2\n```\n"  # no hashes: talk
        "### FILE: static/style.css\n````css\n/* ```not a fence end``` */\nbody{color:red}\n````\n"
        "## file: `static/app.js`\n\n~~~\nconst b = 2;\n~~~\n"
    )
    assert files_of(text) == {
        "static/style.css": "/* ```not a fence end``` */\nbody{color:red}\n",
        "static/app.js": "const b = 2;\n",
    }


def test_think_tags_inside_a_file_are_its_text_not_reasoning():
    text = "<think>plan\n### FILE: a.js\n```js\nno\n```\n</think>\n### FILE: b.md\n```md\n<think>\nwhy\n</think>\n```\n"
    assert files_of(text) == {"b.md": "<think>\nwhy\n</think>\n"}


def test_a_bare_path_line_before_a_fence_never_becomes_a_file():
    # What a weak model echoed: a path, then prompt text in a fence, then its own fences.
    text = (
        "Here is the app as you gave it.\n.config/app/config.json\n```json\n# The brief\nThe person wants…\n```\n"
        "```\nstray\n```\n.config/app/config.json\n```\n"
    )
    answer = read_answer(text)
    assert answer.files == [] and answer.dropped == []


def test_a_header_without_a_fence_or_a_block_left_open_gives_no_file():
    answer = read_answer("### FILE: a.js\nconst a = 1;\n### FILE: b.js\n```js\nconst b =")
    assert answer.files == []
    assert [d["path"] for d in answer.dropped] == ["a.js", "b.js"]
    assert "no fenced block" in answer.dropped[0]["why"] and "never closed" in answer.dropped[1]["why"]


def test_a_block_a_later_header_interrupts_is_dropped_and_the_later_one_read():
    answer = read_answer("### FILE: a.js\n```js\nhalf of a\n\n### FILE: b.js\n```js\nall of b\n```\n")
    assert files_of("### FILE: a.js\n```js\nhalf of a\n\n### FILE: b.js\n```js\nall of b\n```\n") == {
        "b.js": "all of b\n"
    }
    assert answer.dropped[0]["path"] == "a.js" and "did not close" in answer.dropped[0]["why"]


# ── properties ──────────────────────────────────────────────────────────────────────────
PATHS = st.sampled_from(["static/app.js", "static/app.css", "server/main.py", "index.html", "static/i18n/app.json"])
LINE = st.one_of(
    st.text(st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp")), max_size=30),
    st.sampled_from(["```", "```js", "~~~", "````", "static/app.js", "# a heading", "", "  ```python"]),
)
CONTENT = st.lists(LINE, max_size=8).map(lambda lines: "".join(line + "\n" for line in lines))
PROSE = st.lists(
    st.one_of(st.sampled_from(["Here you go:", "static/app.js", "**server/main.py**", "Done.", ""]), LINE), max_size=3
)


def fence_for(content: str, char: str) -> str:
    """A fence no line of the content can close: longer than any run of its character."""
    longest = max((len(m) for m in re.findall(re.escape(char) + "{3,}", content)), default=2)
    return char * max(3, longest + 1)


def render(files: list[tuple[str, str, str]], prose: list[list[str]]) -> str:
    out = []
    for (path, content, char), talk in zip(files, prose, strict=False):
        out += [line + "\n" for line in talk if not line.lstrip().startswith(("`", "~", "#"))]
        fence = fence_for(content, char)
        out.append(f"### FILE: {path}\n{fence}\n{content}{fence}\n")
    return "".join(out)


ANSWERS = st.lists(st.tuples(PATHS, CONTENT, st.sampled_from("`~")), max_size=4).flatmap(
    lambda files: st.tuples(st.just(files), st.lists(PROSE, min_size=len(files), max_size=len(files)))
)


@settings(max_examples=200, deadline=None)
@given(ANSWERS)
def test_every_well_formed_file_is_read_back_exactly(answer):
    files, prose = answer
    expected = {path: content for path, content, _ in files}  # a later copy of a path wins
    assert files_of(render(files, prose)) == expected


@settings(max_examples=200, deadline=None)
@given(ANSWERS, st.data())
def test_an_answer_cut_anywhere_gives_only_whole_files_never_half_ones(answer, data):
    files, prose = answer
    text = render(files, prose)
    cut = data.draw(st.integers(0, len(text)))
    whole = {(path, content) for path, content, _ in files}
    for f in read_answer(text[:cut]).files:
        assert (f.path, f.content) in whole


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(PATHS, CONTENT), max_size=4), st.lists(LINE, max_size=6))
def test_fences_under_bare_path_lines_are_never_files(blocks, talk):
    text = "".join(f"{line}\n" for line in talk if not re.match(r"^ {0,3}#{1,6}[ \t]*FILE:", line, re.I)) + "".join(
        f"{path}\n```\n{content}```\n" for path, content in blocks
    )
    assert read_answer(text).files == []


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(PATHS, CONTENT), min_size=1, max_size=4, unique_by=lambda f: f[0]), st.data())
def test_an_echo_of_the_prompt_gives_back_only_the_files_as_shown(shown, data):
    [message] = build_messages("The person wants a water tracker.", shown, ["pytest.ini"], feedback="tests failed")
    prompt = message["content"]
    cut = data.draw(st.integers(0, len(prompt)))
    as_shown = {(path, content.rstrip() + "\n") for path, content in shown}
    assert {(f.path, f.content) for f in read_answer(prompt).files} == as_shown
    for f in read_answer(prompt[:cut]).files:  # an echo cut short: whole files or none
        assert (f.path, f.content) in as_shown
