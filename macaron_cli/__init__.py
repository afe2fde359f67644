"""macaron: a personal agent for your terminal."""

__version__ = "0.1.0"
