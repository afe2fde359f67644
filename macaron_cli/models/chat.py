"""The models the friend talks through: Claude, the local draft endpoint, or none (notebook).

registry.py builds them by name from endpoints.py; each is a registry.Model.

Each backend carries its `destination`, decided by the privacy gate (macaron_cli/privacy.py),
and so which privacy levels may travel with its requests:
- `claude` is the cloud whatever ANTHROPIC_BASE_URL says (a loopback address is a gateway
  or proxy on the way to Claude), unless the person lists it in `trusted_endpoints`.
- `local` is the draft endpoint: this machine's when macaron started it or it is a
  loopback URL; a remote one counts as cloud whatever model it serves.
- `none` sends nothing anywhere (the person sees their own memories).
Secret memories never go to any model.
"""

from __future__ import annotations

from collections.abc import Iterator

from macaron_cli import endpoints, privacy
from macaron_cli.models.client import Usage
from macaron_cli.models.failures import ModelError, ModelUnreachable
from macaron_cli.privacy import Destination

DEFAULT_CLAUDE_MODEL = "claude-sonnet-4-5"
# A person is waiting at the prompt: one quick retry, then say what went wrong.
_RETRIES = 1
_TIMEOUT_S = 60.0


class ChatModel:
    name = "none"
    endpoint: str | None = None
    destination: Destination = privacy.person()
    # Tokens and time of the last answer, where the model said them (None before one).
    usage: Usage | None = None

    @property
    def privacy_levels(self) -> frozenset[str]:
        return self.destination.levels

    @property
    def connected(self) -> bool:
        return self.name != "none"

    @property
    def model(self) -> str:
        """The model's name at its endpoint (none in notebook mode)."""
        return ""

    def stream(self, system: str, messages: list[dict], max_tokens: int = 1024) -> Iterator[str]:
        raise NotImplementedError

    def complete(self, system: str, messages: list[dict], max_tokens: int = 800) -> str:
        return "".join(self.stream(system, messages, max_tokens))

    def describe(self) -> str:
        if not self.connected:
            return "none — notebook mode: nothing is sent to any model"
        levels = ", ".join(sorted(self.privacy_levels, key=privacy.LEVELS.index))
        return f"{self.name} ({self.model}) at {self.endpoint}; memories it may see: {levels}"


class NoModel(ChatModel):
    """Notebook mode: the friend stores and recalls, and says plainly that no model is connected."""


class AnthropicWireModel(ChatModel):
    """A model behind the Anthropic Messages API, through the anthropic SDK (streaming)."""

    def __init__(
        self,
        name: str,
        base_url: str | None,
        model: str,
        api_key: str | None,
        auth_token: str | None,
        destination: Destination,
    ):
        import anthropic

        self.name = name
        self._model = model
        self.endpoint = base_url or endpoints.ANTHROPIC_CLOUD
        self.destination = destination
        # An endpoint without a key (a local server, a gateway) still needs some key for the SDK.
        if not api_key and not auth_token:
            api_key = "none"
        self._client = anthropic.Anthropic(
            api_key=api_key,
            auth_token=auth_token,
            base_url=base_url,
            max_retries=_RETRIES,
            timeout=_TIMEOUT_S,
        )

    @property
    def model(self) -> str:
        return self._model

    def stream(self, system, messages, max_tokens=1024):
        import anthropic

        try:
            with self._client.messages.stream(
                model=self.model,
                system=system,
                messages=messages,
                max_tokens=max_tokens,
            ) as response:
                yield from response.text_stream
                said = response.get_final_message().usage
                self.usage = Usage(said.input_tokens, said.output_tokens)
        except anthropic.APIStatusError as exc:
            # A refused key is the environment's to fix, as when nothing listens.
            failure = ModelUnreachable if exc.status_code in (401, 403) else ModelError
            raise failure(f"the model answered {exc.status_code}: {_error_message(exc)}") from None
        except anthropic.APITimeoutError:
            raise ModelError(f"the model at {self.endpoint} did not answer in time") from None
        except anthropic.APIConnectionError:
            raise ModelUnreachable(f"cannot reach the model at {self.endpoint}") from None
        except anthropic.APIError as exc:
            raise ModelError(f"the model failed: {str(exc).splitlines()[0]}") from None


class LocalChatModel(ChatModel):
    """The local model through macaron's own client (Anthropic or OpenAI wire)."""

    def __init__(self, client, destination: Destination):
        self._client = client
        self.name = "local"
        self.endpoint = client.base_url
        self.destination = destination

    @property
    def model(self) -> str:
        return self._client.model

    def stream(self, system, messages, max_tokens=1024):
        yield from self._client.stream(system, messages, max_tokens)
        self.usage = self._client.last_usage


def _error_message(exc) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        error = body.get("error")
        if isinstance(error, dict) and error.get("message"):
            return str(error["message"])
    return str(exc).splitlines()[0]
