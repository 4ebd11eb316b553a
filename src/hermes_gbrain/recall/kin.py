"""Words of work English that say the same thing, for a page that says it the other way.

A message that asks about a page without naming it ("what day do the phone builds go out")
shares one word with the page ("Mobile builds ship every Tuesday"), and the gate does not
show a page on one word: a no-answer message shares one word with some page just as often.
A word of the message whose kin the page holds counts as a second word. The groups are
ordinary workplace synonyms (phone and mobile, remote and from home, hire and recruit), no
name, and no word of one brain; a word in no group counts as itself only.
"""

from __future__ import annotations

from collections.abc import Mapping

from .words import fold, stem

__all__ = ["KIN", "kin_in"]

# Each line: words that stand for one another in a question about work.
_GROUPS = """
phone phones mobile smartphone smartphones handset handsets
remote remotely home wfh
hire hires hiring hired recruit recruiting recruitment headcount
price prices pricing charge charges charging billed billing
outage outages downtime
bug bugs defect defects glitch
boss manager managers
engineer engineers developer developers dev devs programmer programmers
investor investors backer backers funder funders
owner owns owned responsible
party celebration celebrate
lunch meal meals food
trip trips travel travelling traveling journey
picture pictures photo photos image images
poacher poachers poaching
schedule schedules scheduling roster rosters rota shift shifts
customer customers client clients
contract contracts agreement agreements
cert certs certificate certificates
approve approves approved approval approvals
server servers hosting hosted host
test tests testing qa
pentest pentests penetration
translate translated translation translations
money cash
runway burn
doc docs document documents writeup
onboard onboarding newcomer newcomers starter starters
quit resign resigned leaving
late delay delayed
expire expired expiry expiration
renew renews renewed renewal renewals
move moves moved moving relocate relocates relocated relocating relocation
sync syncing synchronise synchronize synchronisation synchronization
offline disconnected
battery batteries power
"""


def _build() -> dict[str, frozenset[str]]:
    kin: dict[str, set[str]] = {}
    for line in _GROUPS.strip().splitlines():
        stems = {stem(fold(w)) for w in line.split()}
        for s in stems:
            kin.setdefault(s, set()).update(stems - {s})
    return {s: frozenset(others) for s, others in kin.items() if others}


KIN: Mapping[str, frozenset[str]] = _build()
"""Stem -> the stems of the other words of its groups (words are read without hyphens)."""


def kin_in(said: set[str], held: set[str]) -> dict[str, set[str]]:
    """The stems of ``said`` the page does not hold, each with its kin the page holds
    (``held``), save a word whose kin the message says too ("phone" beside "mobile" counts
    once)."""
    found: dict[str, set[str]] = {}
    for s in said - held:
        others = KIN.get(s)
        if others is not None and not others & said and (kin := others & held):
            found[s] = set(kin)
    return found
