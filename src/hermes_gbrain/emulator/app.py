"""``Emulator``: one GBrain-compatible server with its store, clients, knobs and request log."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import Literal, get_args

from hermes_gbrain.emulator import generated_brain, large_brain, sample_brain
from hermes_gbrain.emulator.faults import Knobs, RecordedRequest
from hermes_gbrain.emulator.hybrid import Embedder, embed
from hermes_gbrain.emulator.oauth import OAuth, OAuthError, RateLimiter
from hermes_gbrain.emulator.operations import LEAN_SERVER_VERSION, SERVER_VERSION
from hermes_gbrain.emulator.server import EmulatorHTTPServer
from hermes_gbrain.emulator.store import Database, PageStore
from hermes_gbrain.emulator.tools import Dispatcher, StrictParams, build_catalog

STOP_TIMEOUT_S = 5.0
REQUEST_LOG_SIZE = 5_000
"""Requests the log keeps (the newest; ~3 KB each, so ~15 MB at most). Counters such as
``token_requests`` and ``request_count`` count every request, dropped ones included."""


class RequestLog(list[RecordedRequest]):
    """The request log: a list (tests compare it, index it, filter it) that keeps only the
    newest ``size`` entries, dropping the oldest tenth at a time so an append stays cheap."""

    def __init__(self, size: int = REQUEST_LOG_SIZE) -> None:
        super().__init__()
        if size < 1:
            raise ValueError("the request log keeps at least one request")
        self.size = size

    def append(self, request: RecordedRequest) -> None:
        super().append(request)
        if len(self) > self.size:
            del self[: max(len(self) - self.size, self.size // 10)]


BRAINS = {"sample": sample_brain.seed, "large": large_brain.seed}
"""Seeded brains: the 31-page sample (default) and the ~300-page relevance benchmark brain."""


class Emulator:
    """A GBrain 0.46.28-compatible MCP HTTP server for tests, benchmarks and the demo.

        ``data_dir=None`` keeps the brain in memory; a directory keeps ``brain.sqlite3`` there, so
        pages, clients and tokens survive a restart. ``lean=True`` imitates newer GBrain (``search``
        declares ``fields`` and rows carry ``injection_suspected``). ``brain="large"`` seeds the
    ~300-page benchmark brain instead of the 31-page sample; ``brain="generated:N"`` an
    N-page synthetic brain for scale benchmarks (``generated_brain``). The request log keeps
    the newest ``request_log_size`` requests (:data:`REQUEST_LOG_SIZE`). ``hybrid=True``
    adds the vector arm to ``search`` and ``query`` (:mod:`.hybrid`, recordings 111-115);
    ``embedder`` (text to unit vector) replaces its small deterministic embedding and implies
    ``hybrid``. ``clock`` is the moment search's recency boost dates pages from (GBrain's reads
    the wall clock, which is the default): a benchmark pins it to rank the same on any day.
    """

    def __init__(  # noqa: PLR0917 - the documented positional order
        self,
        data_dir: str | Path | None = None,
        strict_params: Literal["ignore", "warn", "reject"] = "warn",
        lean: bool = False,
        token_ttl: int = 3600,
        seed: bool = True,
        port: int = 0,
        host: str = "127.0.0.1",
        brain: str = "sample",
        request_log_size: int = REQUEST_LOG_SIZE,
        hybrid: bool = False,
        embedder: Embedder | None = None,
        clock: datetime | None = None,
    ) -> None:
        if strict_params not in get_args(StrictParams):
            raise ValueError(f"strict_params must be one of {get_args(StrictParams)}")
        if token_ttl < 1:
            raise ValueError("token_ttl must be at least 1 second")
        generated = generated_brain.size_of(brain)
        if brain not in BRAINS and generated is None:
            raise ValueError(f"brain must be one of {tuple(BRAINS)} or 'generated:N'")
        self.lean = lean
        self.hybrid = hybrid or embedder is not None
        self.embedder: Embedder = embedder or embed
        self.clock = clock
        self.strict_params: StrictParams = strict_params
        self.host = host
        self.port = port
        self.db = Database(data_dir)
        self.store = PageStore(self.db)
        self.oauth = OAuth(self.db, token_ttl)
        self.rate_limiter = RateLimiter()
        self.dispatcher = Dispatcher(build_catalog(lean=lean), strict_params)
        self.knobs = Knobs()
        self.requests: RequestLog = RequestLog(request_log_size)
        self._token_requests = 0
        self._request_count = 0
        self._log_lock = threading.Lock()
        self._server: EmulatorHTTPServer | None = None
        self._thread: threading.Thread | None = None
        self._base_url: str | None = None
        self.store.add_source("default", "default")
        if seed and not self.store.pages(include_deleted=True):
            if generated is not None:
                generated_brain.seed(self.store, generated)
            else:
                BRAINS[brain](self.store)

    # lifecycle ------------------------------------------------------------------------------
    def start(self) -> Emulator:
        """Bind and serve on daemon threads; returns ``self``."""
        if self._server is not None:
            return self
        server = EmulatorHTTPServer((self.host, self.port), self)
        bound_port = int(server.server_address[1])
        shown = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host  # noqa: S104
        self._base_url = f"http://{shown}:{bound_port}"
        self.port = bound_port
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name=f"gbrain-emulator-{bound_port}",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop promptly, even with gated or dripping handlers in flight. Safe to call twice."""
        server, thread = self._server, self._thread
        self._server = self._thread = None
        if server is None:
            return
        server.stopping.set()
        server.shutdown()
        server.close_connections()
        server.server_close()
        if thread is not None:
            thread.join(STOP_TIMEOUT_S)

    def __enter__(self) -> Emulator:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    # addresses ------------------------------------------------------------------------------
    @property
    def base_url(self) -> str:
        if self._base_url is None:
            raise RuntimeError("the emulator has not been started")
        return self._base_url

    @property
    def mcp_url(self) -> str:
        return self.base_url + "/mcp"

    @property
    def token_url(self) -> str:
        return self.base_url + "/token"

    @property
    def server_version(self) -> str:
        return LEAN_SERVER_VERSION if self.lean else SERVER_VERSION

    # credentials ----------------------------------------------------------------------------
    def client_env(self, name: str, scopes: str = "read") -> dict[str, str]:
        """Register a client and return the settings a profile needs to use it:
        ``GBRAIN_MCP_URL``, ``GBRAIN_MCP_CLIENT_ID``, ``GBRAIN_MCP_CLIENT_SECRET``."""
        client_id, secret = self.register_client(name, scopes)
        return {
            "GBRAIN_MCP_URL": self.mcp_url,
            "GBRAIN_MCP_CLIENT_ID": client_id,
            "GBRAIN_MCP_CLIENT_SECRET": secret,
        }

    def register_client(
        self,
        name: str,
        scopes: str = "read",
        token_ttl: int | None = None,
        *,
        source_id: str = "default",
        federated_read: Sequence[str] | None = None,
    ) -> tuple[str, str]:
        """Register an OAuth client; by default it reads every source the brain has."""
        reads = list(federated_read) if federated_read is not None else self.store.source_ids()
        return self.oauth.register_client(
            name, scopes, token_ttl, source_id=source_id, federated_read=reads
        )

    def create_legacy_key(self, name: str, scopes: str = "read") -> str:
        return self.oauth.create_legacy_key(name, scopes)

    def mint_token(self, client_id: str, secret: str, scope: str | None = None) -> str:
        """Mint an access token without HTTP (not counted in ``token_requests``)."""
        try:
            answer = self.oauth.issue(client_id, secret, scope)
        except OAuthError as err:
            raise ValueError(f"{err.error}: {err.description}") from None
        return str(answer["access_token"])

    def revoke_all_tokens(self) -> None:
        self.oauth.revoke_all()

    def expire_all_tokens(self) -> None:
        self.oauth.expire_all()

    # knobs and log --------------------------------------------------------------------------
    def reset_knobs(self) -> None:
        self.knobs = Knobs()

    def record(self, request: RecordedRequest) -> None:
        with self._log_lock:
            self.requests.append(request)
            self._request_count += 1
            if request.method == "POST" and request.path == "/token":
                self._token_requests += 1

    def clear_requests(self) -> None:
        """Empty the request log and zero its counters."""
        with self._log_lock:
            self.requests.clear()
            self._token_requests = self._request_count = 0

    @property
    def token_requests(self) -> int:
        """POST /token requests since the last clear (``mint_token`` does not count)."""
        with self._log_lock:
            return self._token_requests

    @property
    def request_count(self) -> int:
        """Requests since the last clear, including those the log has dropped."""
        with self._log_lock:
            return self._request_count
