"""GBrain as the long-term memory of Hermes Agent.

The client stack is usable on its own, without Hermes::

    from hermes_gbrain import load_settings, open_brain
    from hermes_gbrain.settings import default_hermes_home

    settings = load_settings(os.environ.get, hermes_home=default_hermes_home())
    brain = open_brain(settings, scope="read")
    for row in brain.search("project falcon", limit=5).rows:
        print(row.source_id, row.slug, row.title)

The Hermes adapters live in ``hermes_gbrain.adapters`` (imported only by Hermes), the
bundled server in ``hermes_gbrain.emulator``.
"""

__version__ = "0.1.0"

from .api import GBrain, Page, PageRef, SearchResult, SearchRow, UnsupportedError
from .connect import open_brain
from .errors import (
    AuthError,
    ConfigError,
    DeadlineError,
    GBrainError,
    HTTPStatusError,
    ProtocolError,
    RateLimitedError,
    RedirectError,
    RefusedError,
    TooLargeError,
    ToolError,
    TransportError,
)
from .settings import Settings, load_settings

__all__ = [
    "AuthError",
    "ConfigError",
    "DeadlineError",
    "GBrain",
    "GBrainError",
    "HTTPStatusError",
    "Page",
    "PageRef",
    "ProtocolError",
    "RateLimitedError",
    "RedirectError",
    "RefusedError",
    "SearchResult",
    "SearchRow",
    "Settings",
    "TooLargeError",
    "ToolError",
    "TransportError",
    "UnsupportedError",
    "__version__",
    "load_settings",
    "open_brain",
]
