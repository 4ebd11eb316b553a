"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed139; not edited by hand.
"""

BIAS = -1.681771001518397
WEIGHTS: tuple[float, ...] = (
    -0.11863595269729395,  # rank
    0.5118070928727646,  # first
    0.7229920807914623,  # score_share
    -0.37300493634548604,  # wanted
    0.24014115957562113,  # asked
    1.538038945789184,  # asked_in_body
    1.502767311926159,  # wanted_in_body
    -1.8545460218829506,  # asked_in_backing
    0.37936579291760825,  # asked_in_title
    -0.7016630006781066,  # wanted_in_title
    -0.48766526268410487,  # title_words
    0.7786746383499287,  # title_share
    0.039189719572954335,  # asked_missing
    0.9394824197351654,  # asked_share
    -0.27928372464221346,  # elsewhere
    -1.8065655008847337,  # common
    -0.13759500137163702,  # names
    0.14863150637762435,  # names_in_body
    -0.07970141281961748,  # latin
    0.04430045534355004,  # length
    -0.3257520611109314,  # evidence_keyword_exact
    0.011319181441961436,  # evidence_weak_semantic
    -1.626346722436136,  # evidence_alias_hit
    -0.15030168779639763,  # evidence_exact_title_match
    -0.5461289031479644,  # name_page
    0.3268414342895753,  # person
    -1.0918363349080846,  # tier_none
    3.123611299874569,  # tier_named
    -0.023281994174996216,  # tier_title_word
    0.05815581014459041,  # tier_content
    -0.30269786547458216,  # picked
)
