"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed123; not edited by hand.
"""

BIAS = -1.719580348006184
WEIGHTS: tuple[float, ...] = (
    -0.11726061315222866,  # rank
    0.539804041699361,  # first
    0.6444918642365753,  # score_share
    -0.38554354067584623,  # wanted
    0.24744685428074484,  # asked
    1.3704822848978682,  # asked_in_body
    1.5546898916767307,  # wanted_in_body
    -1.7029501208967324,  # asked_in_backing
    0.43201804928415416,  # asked_in_title
    -0.7421599945310202,  # wanted_in_title
    -0.4731559639233875,  # title_words
    0.7727184710771091,  # title_share
    0.028941621437221912,  # asked_missing
    0.8730403735171539,  # asked_share
    -0.2587738522153868,  # elsewhere
    -1.636538558392977,  # common
    -0.14007681584589532,  # names
    0.15500171615246713,  # names_in_body
    -0.0888047564775782,  # latin
    0.050621302817089264,  # length
    -0.3034831222532371,  # evidence_keyword_exact
    0.017555841299415113,  # evidence_weak_semantic
    -1.7376130319712062,  # evidence_alias_hit
    -0.23433287008300155,  # evidence_exact_title_match
    -0.5807720828776306,  # name_page
    0.38559599088209473,  # person
    -1.0729418941902833,  # tier_none
    3.0751294729238485,  # tier_named
    0.02868200573582211,  # tier_title_word
    0.08912491751401966,  # tier_content
    -0.329891478917671,  # picked
)
