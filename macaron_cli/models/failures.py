"""How a model call fails: one hierarchy, whichever layer made the call.

The chat backends (the anthropic SDK), macaron's own client (httpx, either wire) and the
coding agent (the Agent SDK) all raise these, so a caller catches ModelFailure for any of
them and a subclass for what it can act on:
- ModelUnreachable: nothing listens at the URL, or it refused our key (exit 2: the
  environment needs fixing);
- ModelError: the model answered with an error, timed out or cut its answer short (exit 1);
  ContextExceeded, one of them: the request does not fit the server's context;
- OverBudget: the make's budget ran out before the model finished (exit 1).
"""

from __future__ import annotations

from macaron_cli.errors import MacaronError, UserError, WorkFailed


class ModelFailure(MacaronError):
    """Any failure talking to a model; catch this to handle all of them."""


class ModelUnreachable(UserError, ModelFailure):
    """Nothing listens at the URL, or it refused our key: the environment needs fixing (exit 2)."""


class ModelError(WorkFailed, ModelFailure):
    """The model answered with an error, timed out, or cut its stream short (exit 1)."""


class OverBudget(WorkFailed, ModelFailure):
    """The budget was reached before the model finished (maker/cost.py's meter raises it)."""


class ContextExceeded(ModelError):
    """The server refused the request: prompt and answer do not fit its context. Retrying
    the same request cannot help, so the message names the size and the settings."""

    def __init__(self, base_url: str, context: int | None, prompt_tokens: int | None = None, *, sized: bool = False):
        """`sized`: the request was already sized to that context, so only a larger one helps."""
        self.context, self.prompt_tokens = context, prompt_tokens
        size = f"its context of {context:,} tokens" if context else "its context (it did not say how large)"
        asked = f" (the prompt alone was {prompt_tokens:,} tokens)" if prompt_tokens else ""
        told = f"MACARON_DRAFT_CONTEXT={context}" if context else "MACARON_DRAFT_CONTEXT to its size"
        fix = "though macaron fitted it to that size; " if sized else f"set {told} so macaron sends less, or "
        super().__init__(
            f"the model server at {base_url} refused the request: it does not fit {size}{asked}, {fix}"
            "start the server with a larger context (`macaron draft serve` reads MACARON_DRAFT_CONTEXT; "
            "engines: --n_ctx, -c, --max-model-len)"
        )
