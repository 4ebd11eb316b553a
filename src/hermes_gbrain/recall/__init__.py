"""Recall features: what reaches the model each turn (pointers for now).

Nothing here imports Hermes; the adapters translate Hermes calls into these layers.
"""

from .config import PointerConfig, load_pointer_config
from .pointers import HEADER, PointerEngine, StoreKey, format_block, pointer_lines, shared_engine
from .screen import looks_like_instructions
from .trivial import is_trivial

__all__ = [
    "HEADER",
    "PointerConfig",
    "PointerEngine",
    "StoreKey",
    "format_block",
    "is_trivial",
    "load_pointer_config",
    "looks_like_instructions",
    "pointer_lines",
    "shared_engine",
]
