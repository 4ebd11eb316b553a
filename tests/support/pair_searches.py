"""Telling a turn's pairs search (``recall.pairs``) from its own search in an emulator log."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from hermes_gbrain.recall.pairs import pair_query

SEARCH_TOOLS = ("search", "query")  # with a source filter, searches go through ``query``


def _query(request: Any) -> str:
    return str((request.arguments or {}).get("query") or "")


def pairs_of(requests: Sequence[Any]) -> set[str]:
    """The pair queries of the searches in ``requests``."""
    return {
        pair
        for r in requests
        if r.tool in SEARCH_TOOLS and (pair := pair_query(_query(r))) is not None
    }


def is_pair_search(request: Any, requests: Sequence[Any]) -> bool:
    """True for a search whose query is the pairs query of another search in ``requests``."""
    return request.tool in SEARCH_TOOLS and _query(request) in pairs_of(requests)


def without_pairs(requests: Iterable[Any]) -> list[Any]:
    """``requests`` less the pairs searches."""
    listed = list(requests)
    pairs = pairs_of(listed)
    return [r for r in listed if not (r.tool in SEARCH_TOOLS and _query(r) in pairs)]
