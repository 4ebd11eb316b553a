"""Write-back of Hermes' built-in memory into GBrain facts (``GBRAIN_WRITEBACK=memory``).

``entries`` reads ``MEMORY.md``/``USER.md`` the way Hermes' memory tool does; ``ledger``
is the durable queue of fact operations and the map from each Hermes entry to its GBrain
fact id; ``mirror`` turns a committed memory-tool write into ledger rows and sends them
in the background. Nothing here imports Hermes.
"""

from .entries import ENTRY_DELIMITER, read_entries
from .ledger import Ledger, LedgerStatus
from .mirror import Mirror, MirrorPolicy, profile_label

__all__ = [
    "ENTRY_DELIMITER",
    "Ledger",
    "LedgerStatus",
    "Mirror",
    "MirrorPolicy",
    "profile_label",
    "read_entries",
]
