"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed139; not edited by hand.
"""

BIAS = -1.7092060367025448
WEIGHTS: tuple[float, ...] = (
    -0.11881277000650226,  # rank
    0.5234032469121601,  # first
    0.703670957087061,  # score_share
    -0.36959417742733636,  # wanted
    0.23661736587629287,  # asked
    1.5258563128055769,  # asked_in_body
    1.5006018067724878,  # wanted_in_body
    -1.8416871966672788,  # asked_in_backing
    0.37820450824333407,  # asked_in_title
    -0.6861898571385723,  # wanted_in_title
    -0.48604212846211986,  # title_words
    0.784490725139083,  # title_share
    0.038390416013990784,  # asked_missing
    0.9610620473288537,  # asked_share
    -0.27133359650002675,  # elsewhere
    -1.618808194604484,  # common
    -0.13380335584950637,  # names
    0.14718684807199528,  # names_in_body
    -0.08559287202248182,  # latin
    0.045574479919746905,  # length
    -0.3346591912077185,  # evidence_keyword_exact
    0.009517643656339718,  # evidence_weak_semantic
    -1.6577790324679451,  # evidence_alias_hit
    -0.10783236749489888,  # evidence_exact_title_match
    -0.5410778955054981,  # name_page
    0.3139522636982838,  # person
    -1.07897330183977,  # tier_none
    3.0627140537186652,  # tier_named
    -0.02120519162673057,  # tier_title_word
    0.07649664913657755,  # tier_content
    -0.3023070295670008,  # picked
)
