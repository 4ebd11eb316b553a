"""The tool bridge: a few compact ``gbrain_*`` tools that reach every GBrain tool.

``schemas`` (what the model sees), ``discovery`` (the cached ``tools/list``),
``validate`` (argument checks), ``outbox`` (durable queued writes), ``deletes``
(two-step delete tokens), ``bridge`` (dispatch with bounded outputs), ``session``
(their life inside one provider) and ``doctor`` (the health check command).
Nothing here imports Hermes.
"""

from .bridge import ToolBridge, WriteGate
from .session import ToolSession, write_gate

__all__ = ["ToolBridge", "ToolSession", "WriteGate", "write_gate"]
