"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed139; not edited by hand.
"""

BIAS = -1.6773948551080289
WEIGHTS: tuple[float, ...] = (
    -0.11871905386976588,  # rank
    0.5105805575411136,  # first
    0.724522720873258,  # score_share
    -0.3732086910284618,  # wanted
    0.2405929365537005,  # asked
    1.5396195450552241,  # asked_in_body
    1.5004533027340368,  # wanted_in_body
    -1.8541943615479426,  # asked_in_backing
    0.37810529961053324,  # asked_in_title
    -0.7019485641034018,  # wanted_in_title
    -0.4871687127575819,  # title_words
    0.7787851941774272,  # title_share
    0.039397962373597224,  # asked_missing
    0.9378690921612336,  # asked_share
    -0.2854312735237368,  # elsewhere
    -1.8070397620180247,  # common
    -0.13903329044419888,  # names
    0.14825931874101755,  # names_in_body
    -0.08178282850534574,  # latin
    0.044183866821854274,  # length
    -0.3251607702885234,  # evidence_keyword_exact
    0.011062640750531724,  # evidence_weak_semantic
    -1.616011423597325,  # evidence_alias_hit
    -0.1567595375552044,  # evidence_exact_title_match
    -0.5421579011098713,  # name_page
    0.3206802982253328,  # person
    -1.0929495907105697,  # tier_none
    3.130875301637436,  # tier_named
    -0.024802900298655967,  # tier_title_word
    0.057350493520437626,  # tier_content
    -0.3025322910909759,  # picked
)
