"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed131; not edited by hand.
"""

BIAS = -1.64944144744295
WEIGHTS: tuple[float, ...] = (
    -0.11820250568333496,  # rank
    0.5326217110963064,  # first
    0.657432193630178,  # score_share
    -0.36843412814873316,  # wanted
    0.2391226429945219,  # asked
    1.5411329407357393,  # asked_in_body
    1.5228932756540345,  # wanted_in_body
    -1.8659801177600097,  # asked_in_backing
    0.4393884055681614,  # asked_in_title
    -0.7061365695359132,  # wanted_in_title
    -0.48405377456949694,  # title_words
    0.6961040593849633,  # title_share
    0.02636228967423578,  # asked_missing
    0.863812023147661,  # asked_share
    -0.26788159175970067,  # elsewhere
    -1.623233440369622,  # common
    -0.17075707379476038,  # names
    0.17171907844810608,  # names_in_body
    -0.08768278531139127,  # latin
    0.045974498793416314,  # length
    -0.30538993599737874,  # evidence_keyword_exact
    0.02275223245183894,  # evidence_weak_semantic
    -1.801652458974796,  # evidence_alias_hit
    -0.1217000473207379,  # evidence_exact_title_match
    -0.5944434474869474,  # name_page
    0.38042788948705486,  # person
    -1.0820914422987205,  # tier_none
    3.05690669661441,  # tier_named
    0.0021347340754283876,  # tier_title_word
    0.09317086504731062,  # tier_content
    -0.3187179270225985,  # picked
)
