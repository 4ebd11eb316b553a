"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed139; not edited by hand.
"""

BIAS = -1.705113702195443
WEIGHTS: tuple[float, ...] = (
    -0.11917051319706817,  # rank
    0.5130285599217782,  # first
    0.706739776296798,  # score_share
    -0.37098878581168243,  # wanted
    0.23816456214105367,  # asked
    1.528382717389256,  # asked_in_body
    1.5037692242044285,  # wanted_in_body
    -1.8438234278115027,  # asked_in_backing
    0.381586666757161,  # asked_in_title
    -0.6949571203144829,  # wanted_in_title
    -0.4866096611070674,  # title_words
    0.7897661943436441,  # title_share
    0.03939789622573681,  # asked_missing
    0.9578981564939738,  # asked_share
    -0.2666727401810901,  # elsewhere
    -1.619000636512939,  # common
    -0.13843803207800537,  # names
    0.15182926014044382,  # names_in_body
    -0.08880520362545716,  # latin
    0.044882459698290356,  # length
    -0.3274780623434379,  # evidence_keyword_exact
    0.009279527089255477,  # evidence_weak_semantic
    -1.6233865133538907,  # evidence_alias_hit
    -0.15311156886283622,  # evidence_exact_title_match
    -0.541504113315133,  # name_page
    0.33391060930996985,  # person
    -1.085277295607607,  # tier_none
    3.1083968517408205,  # tier_named
    -0.025454992839705495,  # tier_title_word
    0.061879716665727856,  # tier_content
    -0.3001482525785812,  # picked
)
