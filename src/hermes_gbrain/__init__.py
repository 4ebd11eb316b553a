"""GBrain as the long-term memory of Hermes Agent."""

__version__ = "0.1.0"
