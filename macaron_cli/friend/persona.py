"""The person's own macaron: a flavour, a colour and a personality that set the friend's voice.

The persona comes only from what the person chose in the quiz (flavour, way of talking,
how they meet change) and their language; never from gender or any other protected trait.
It is saved in config.toml (`color` is also the accent colour of the apps macaron makes).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field

from macaron_cli import config, lang

# flavour → (colour, temperament the friend borrows)
FLAVOURS = {
    "pistachio": ("#93C572", "calm and steady"),
    "raspberry": ("#E30B5C", "bright and energetic"),
    "lemon": ("#F4D35E", "cheerful and upbeat"),
    "lavender": ("#B57EDC", "gentle and thoughtful"),
    "chocolate": ("#7B3F00", "warm and cosy"),
    "matcha": ("#7BA05B", "focused and grounded"),
}
STYLES = {
    "brief": "Keep answers short and to the point.",
    "warm": "Be warm and a little chatty, but never gushing.",
    "playful": "Be playful; a light joke now and then is welcome.",
}


@dataclass
class Persona:
    flavour: str = "pistachio"
    color: str = FLAVOURS["pistachio"][0]
    temperament: str = FLAVOURS["pistachio"][1]
    style: str = "warm"
    traits: list[str] = field(default_factory=list)
    language: str = "en"
    call_me: str = ""

    @property
    def title(self) -> str:
        return f"your {self.flavour} macaron"

    def voice(self) -> str:
        """The part of the system prompt that makes the friend sound like this macaron."""
        lines = [
            f"You are the person's friend: {self.title}, {self.temperament}.",
            STYLES.get(self.style, STYLES["warm"]),
        ]
        if self.traits:
            lines.append("They told you: " + "; ".join(self.traits) + ".")
        if self.call_me:
            lines.append(f"Call them {self.call_me}.")
        # How to speak the language respectfully with someone just met (its file's "register"
        # line; English's, "answer in the person's language", for a language without one).
        lines.append(lang.line("register", self.language))
        return " ".join(lines)

    def to_settings(self) -> dict:
        return {"color": self.color, "language": self.language, "persona": asdict(self)}


def load_persona(settings: config.Settings) -> Persona | None:
    """The saved persona, or None when the person has not met their friend yet."""
    saved = settings.persona
    if not isinstance(saved, Mapping):
        return None
    known = {k: v for k, v in saved.items() if k in Persona.__dataclass_fields__}
    if isinstance(known.get("traits"), tuple):  # read-only in Settings; the persona's own to change
        known["traits"] = list(known["traits"])
    return Persona(**known)


def save_persona(persona: Persona) -> config.Settings:
    """Save the persona in config.toml; returns the settings as they now are."""
    return config.save_settings(persona.to_settings())
