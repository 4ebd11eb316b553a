"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed139; not edited by hand.
"""

BIAS = -1.6973742941568577
WEIGHTS: tuple[float, ...] = (
    -0.11909795612018065,  # rank
    0.5116705057155359,  # first
    0.7198616519273596,  # score_share
    -0.3686042002860292,  # wanted
    0.23676113014466735,  # asked
    1.5216413952905825,  # asked_in_body
    1.503130231619276,  # wanted_in_body
    -1.8352355020112265,  # asked_in_backing
    0.38578181855913973,  # asked_in_title
    -0.6988863129050142,  # wanted_in_title
    -0.4876398694189799,  # title_words
    0.7832528066252018,  # title_share
    0.03870407710249817,  # asked_missing
    0.9451657825677203,  # asked_share
    -0.25550819575072803,  # elsewhere
    -1.6045205187379743,  # common
    -0.13870790887245535,  # names
    0.1515265473225852,  # names_in_body
    -0.08333376866300513,  # latin
    0.04426716726942242,  # length
    -0.3281317721463938,  # evidence_keyword_exact
    0.010798752039674458,  # evidence_weak_semantic
    -1.633280453008703,  # evidence_alias_hit
    -0.15827890378314197,  # evidence_exact_title_match
    -0.5385390343595601,  # name_page
    0.33245308020177594,  # person
    -1.0872695841575395,  # tier_none
    3.1149146957927627,  # tier_named
    -0.025522995258721023,  # tier_title_word
    0.05885188151810578,  # tier_content
    -0.30581924519438936,  # picked
)
