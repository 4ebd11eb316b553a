"""``hermes-gbrain grant-help``: the GBrain commands that create this profile's client.

For GBrain 0.46.x: ``gbrain auth register-client NAME --scopes read`` (or ``read
write``) prints ``Client ID: gbrain_cl_…`` and ``Client Secret: gbrain_cs_…`` once.
On the PGLite engine the brain is locked while ``gbrain serve`` runs, so the client
is registered with the server stopped. Nothing here contacts the server.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TextIO

from ..settings import DEFAULT_MCP_URL, cli_lookup, load_settings
from ..urls import shown_url

__all__ = ["client_name", "grant_text", "run_grant_help"]

_NAME_CHARS = re.compile(r"[^a-z0-9-]+")


def client_name(hermes_home: Path) -> str:
    """``hermes-<profile>``, in the characters a client name needs: the folder's name for
    a named profile (``profiles/work`` → ``hermes-work``), ``hermes-default`` for the
    default profile (``~/.hermes``, whose folder name says nothing)."""
    name = hermes_home.name.lower().lstrip(".")
    folder = "default" if name == "hermes" else _NAME_CHARS.sub("-", name).strip("-")
    return f"hermes-{folder or 'profile'}"


def grant_text(url: str, hermes_home: Path) -> str:
    """The whole explanation, filled in with the URL and the profile."""
    name = client_name(hermes_home)
    env = hermes_home / ".env"
    return f"""\
Create a client for this profile on the machine that runs GBrain (0.46.x). On the
PGLite engine, stop `gbrain serve` first: the brain is locked while it runs.

  read only (briefing, pointers, search and read tools):
    gbrain auth register-client {name} --scopes read

  read and write (also lets the model write pages, with GBRAIN_TOOLS=write):
    gbrain auth register-client {name}-writer --scopes "read write"

Each prints `Client ID: gbrain_cl_…` and `Client Secret: gbrain_cs_…`; the secret
is shown once. Then start the server again (`gbrain serve --http`) and put the pair
into the profile:

  hermes-gbrain setup --hermes-home {hermes_home} --url {url}

which asks for the id and the secret and writes them to {env} (mode 0600) as

  GBRAIN_MCP_URL={url}
  GBRAIN_MCP_CLIENT_ID=gbrain_cl_…
  GBRAIN_MCP_CLIENT_SECRET=gbrain_cs_…

(for the read-and-write client, also GBRAIN_TOOLS=write). Check it with
`hermes-gbrain doctor --hermes-home {hermes_home}`. List or revoke clients with
`gbrain auth clients` and `gbrain auth revoke-client CLIENT_ID`.
"""


def run_grant_help(hermes_home: Path, out: TextIO, *, url: str | None = None) -> int:
    settings = load_settings(cli_lookup(hermes_home), hermes_home=hermes_home)
    shown = shown_url(url or settings.mcp_url or DEFAULT_MCP_URL).split(" ", 1)[0]
    out.write(grant_text(shown, hermes_home))
    return 0
