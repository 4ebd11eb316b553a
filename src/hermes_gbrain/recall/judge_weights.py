"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed111; not edited by hand.
"""

BIAS = -1.8774384277505438
WEIGHTS: tuple[float, ...] = (
    -0.11799356947365576,  # rank
    0.5344548976563649,  # first
    0.6591006610309365,  # score_share
    -0.39500008543372195,  # wanted
    0.267175441487238,  # asked
    1.4753350963603984,  # asked_in_body
    1.5701598105676375,  # wanted_in_body
    -1.7791102358313395,  # asked_in_backing
    0.39052722610935486,  # asked_in_title
    -0.7966342321558012,  # wanted_in_title
    -0.4549989973519028,  # title_words
    0.9501621651905862,  # title_share
    0.012065732334736158,  # asked_missing
    0.860924703494323,  # asked_share
    -0.20143895319359637,  # elsewhere
    -1.8057451546467465,  # common
    -0.10920901827630088,  # names
    0.13999583840099325,  # names_in_body
    -0.12574513390786055,  # latin
    0.05645475925599044,  # length
    -0.3281739278590672,  # evidence_keyword_exact
    -4.6312200544531536e-05,  # evidence_weak_semantic
    -1.550019638943373,  # evidence_alias_hit
    -0.294448340602746,  # evidence_exact_title_match
    -0.5720934864336508,  # name_page
    0.424269285099507,  # person
    -1.011825627447407,  # tier_none
    3.169723226825929,  # tier_named
    0.042499209399278995,  # tier_title_word
    -0.02459998724474255,  # tier_content
    -0.3090804279980258,  # picked
)
