"""The coding agent: one Claude Agent SDK session per phase, run in the app repo.

`agent_options` is the one place the SDK is configured (FACTS.md): project settings so
the app's CLAUDE.md and `.claude/agents/` load, the model, endpoint and keys from the
registry's coder (models/registry.py), one retry, the guard hook and the memory tool, the walls
every tool runs within (containment.py: a sandbox, refused when it cannot run here), and the CLI
started with an allow-listed environment, its config, transcripts and key in macaron's home,
out of the app and out of its shell's reach (coder_home.py). `run_turn` streams one prompt's work,
reporting progress and cost, and turns budget and model failures into exceptions.
"""

from __future__ import annotations

import asyncio
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from macaron_cli import config
from macaron_cli.maker import containment
from macaron_cli.maker.coder_home import CoderHome
from macaron_cli.maker.cost import BudgetExceeded, CostMeter
from macaron_cli.maker.progress import Progress
from macaron_cli.maker.tools import TOOL_NAME
from macaron_cli.models import registry
from macaron_cli.models.failures import ModelError
from macaron_cli.untrusted.environment import for_app_code

TOOLS = ["Read", "Write", "Edit", "Glob", "Grep", "Bash", "Agent"]
TURN_TIMEOUT_S = float(os.environ.get("MACARON_AGENT_TIMEOUT", "1800"))

SYSTEM_APPEND = """\
You are macaron's coder. You turn one person's idea into a small personal web app in this
repository, which already holds a working template (read CLAUDE.md and .macaron/brief.md).
Delegate: give UI work (components, pages, styles, UI text in the person's language) to the
`frontend` subagent and API, data and persistence work to the `backend` subagent, using the
Agent tool with run_in_background: false. Keep the app's tests passing and add tests for
what you add. Work only inside this repository; never edit static/macaron-tokens.css.
The person's memories are private: use them to shape the app, never write them into files.
"""


@dataclass
class TurnResult:
    session_id: str | None = None
    text: str = ""
    turns: int = 0
    subagents: list[str] = field(default_factory=list)


def model_configured() -> bool:
    """Is any model reachable in principle? (a key, a token, or an endpoint of one's own)."""
    return registry.claude_configured()


# What to do when no model is configured: said wherever make falls back to the template alone.
CONNECT_A_MODEL = (
    "set ANTHROPIC_API_KEY for Claude (or ANTHROPIC_BASE_URL for an endpoint of your own) and make it again"
)


def reshape_hint(offline_asked: bool) -> str:
    """How a model could take the app further than its template: what is missing, said plainly."""
    if offline_asked or model_configured():
        return "a model can reshape it: make without --offline"
    return f"no model is connected to reshape it: {CONNECT_A_MODEL}"


def agent_env(app: Path, coder: registry.Coder, home: CoderHome) -> dict[str, str]:
    """The CLI's whole environment (the launcher drops the rest): the allow-list every process
    running app code gets, its HOME in macaron's home, and what the CLI needs to reach Claude."""
    cli = {
        "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        "CLAUDE_CONFIG_DIR": str(home.config_dir),
        "CLAUDE_CODE_MAX_RETRIES": os.environ.get("CLAUDE_CODE_MAX_RETRIES", "1"),
        "ENABLE_TOOL_SEARCH": "false",  # the memory tool must be visible, not deferred
        "MACARON_APP_DATA": str(app / "data"),
        # The sandbox shows the Python running macaron (the one apps are verified on) but
        # hides the rest of the person's home, where version managers keep their shims.
        "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", os.defpath)]),
        **coder.environment(),
    }
    # The CLI's temporary files and its shell's go to the coder's scratch folder, the one the
    # walls show (coder_home.py).
    cli["CLAUDE_CODE_TMPDIR"] = str(home.scratch)
    return for_app_code(str(home.home), str(home.scratch), cli, reach_model=True)


def agent_options(
    app: Path,
    hook,
    mcp_server,
    *,
    home: CoderHome,
    settings: config.Settings,
    accept_unsandboxed: bool = False,
    model: str | None = None,
    resume: str | None = None,
    budget_usd: float | None = None,
    stderr=None,
):
    """The session's options; a UserError when the sandbox cannot run here and the person
    did not accept running the coder without it (`accept_unsandboxed`). `model` None: the
    registry's coder's (config.toml `model`, else the SDK's choice). What the CLI writes, and
    its key, live in `home` (coder_home.py), never in the app."""
    from claude_agent_sdk import ClaudeAgentOptions, HookMatcher

    coder = registry.coder(settings)
    containment.require(accept_unsandboxed)
    walls = containment.walls(app, config.memory_uri(settings), home.scratch)
    watch = containment.SandboxWatch(accept_unsandboxed, stderr)
    env = agent_env(app, coder, home)
    return ClaudeAgentOptions(
        cwd=str(app),
        cli_path=home.launcher(env),
        setting_sources=["project"],
        tools=TOOLS,
        allowed_tools=[*TOOLS, TOOL_NAME],
        permission_mode="acceptEdits",  # works as root, unlike bypassPermissions
        system_prompt={"type": "preset", "preset": "claude_code", "append": SYSTEM_APPEND},
        mcp_servers={"macaron": mcp_server},
        hooks={"PreToolUse": [HookMatcher(matcher=None, hooks=[watch.hook, hook])]},
        env=env,
        settings=str(home.settings_file(walls.settings(accept_unsandboxed), coder.key())),
        model=model or coder.model,
        resume=resume,
        # A runaway backstop only: our own meter (cost.py) enforces the real budget.
        max_budget_usd=budget_usd * 3 if budget_usd else None,
        stderr=watch.stderr,
    )


def _summary(name: str, tool_input: dict) -> str:
    for key in ("file_path", "command", "pattern", "description", "query", "path"):
        if key in tool_input:
            return str(tool_input[key]).splitlines()[0] if tool_input[key] else ""
    return ""


async def _run(options, prompt: str, meter: CostMeter, progress: Progress) -> TurnResult:
    from claude_agent_sdk import (
        AssistantMessage,
        ClaudeSDKClient,
        ResultMessage,
        TaskNotificationMessage,
        TaskStartedMessage,
        TextBlock,
        ToolUseBlock,
    )

    result = TurnResult()
    names: dict[str, str] = {}  # Agent tool_use id → subagent name
    open_tasks: set[str] = set()
    async with ClaudeSDKClient(options) as client:
        await client.query(prompt)
        async for message in client.receive_messages():
            if isinstance(message, TaskStartedMessage):
                open_tasks.add(message.data.get("task_id", ""))
            elif isinstance(message, TaskNotificationMessage):
                open_tasks.discard(message.data.get("task_id", ""))
            elif isinstance(message, AssistantMessage):
                who = names.get(message.parent_tool_use_id or "", "main")
                if message.error:
                    raise ModelError(_error_text(message))
                meter.add(message.model, message.usage, getattr(message, "message_id", None))
                progress.usage(meter.total_tokens, meter.cost_usd)
                for block in message.content:
                    if isinstance(block, ToolUseBlock):
                        if block.name in ("Agent", "Task"):
                            names[block.id] = str(block.input.get("subagent_type") or "subagent")
                            result.subagents.append(names[block.id])
                            progress.agent(names[block.id], str(block.input.get("description", "")))
                        else:
                            progress.tool(who, block.name, _summary(block.name, block.input))
                    elif isinstance(block, TextBlock) and block.text.strip():
                        progress.agent(who, block.text.strip().splitlines()[0])
                if meter.over_budget:
                    await client.interrupt()
                    meter.check()
            elif isinstance(message, ResultMessage):
                result.session_id = message.session_id
                result.turns += message.num_turns or 0
                if message.is_error:
                    raise ModelError(_result_error(message))
                result.text = message.result or result.text
                if not open_tasks:
                    break
    return result


def _error_text(message) -> str:
    text = " ".join(getattr(b, "text", "") for b in message.content).strip()
    return text or str(message.error)


def _result_error(message) -> str:
    return (message.result or "").strip() or f"the agent session ended with an error ({message.subtype})"


def run_turn(options, prompt: str, meter: CostMeter, progress: Progress) -> TurnResult:
    """Run one prompt to completion; BudgetExceeded or ModelError when it cannot finish."""
    from claude_agent_sdk import ClaudeSDKError

    async def guarded():
        return await asyncio.wait_for(_run(options, prompt, meter, progress), TURN_TIMEOUT_S)

    try:
        return asyncio.run(guarded())
    except (BudgetExceeded, ModelError):
        raise
    except TimeoutError:
        raise ModelError(f"the model did not finish within {TURN_TIMEOUT_S:.0f} s") from None
    except ClaudeSDKError as exc:
        raise ModelError(str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from None
