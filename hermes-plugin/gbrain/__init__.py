"""Hermes memory provider 'gbrain': a shim written by `hermes-gbrain install`.

All code lives in the hermes-gbrain package; this file only hands Hermes the
MemoryProvider class (GBrainMemoryProvider). Remove with `hermes-gbrain install --name gbrain --uninstall`.
"""

from hermes_gbrain.adapters.provider import GBrainMemoryProvider as GBrainMemoryProvider
from hermes_gbrain.adapters.provider import register as register

__all__ = ["GBrainMemoryProvider", "register"]
