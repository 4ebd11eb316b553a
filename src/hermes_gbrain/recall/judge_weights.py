"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed139; not edited by hand.
"""

BIAS = -1.7115374399313565
WEIGHTS: tuple[float, ...] = (
    -0.11943393234254317,  # rank
    0.513461629187936,  # first
    0.7089557454017654,  # score_share
    -0.37200168039865616,  # wanted
    0.23817135690386246,  # asked
    1.526371705481235,  # asked_in_body
    1.5035404229016716,  # wanted_in_body
    -1.841600191136805,  # asked_in_backing
    0.3786980764674131,  # asked_in_title
    -0.6961848625830747,  # wanted_in_title
    -0.48538100967675896,  # title_words
    0.7998212495542938,  # title_share
    0.039688819140838445,  # asked_missing
    0.9568766883763702,  # asked_share
    -0.26758453691450196,  # elsewhere
    -1.6233566063996299,  # common
    -0.13441766985251774,  # names
    0.15340908523058824,  # names_in_body
    -0.08639083326216977,  # latin
    0.04525363648536749,  # length
    -0.3280738160479129,  # evidence_keyword_exact
    0.0071170560404973165,  # evidence_weak_semantic
    -1.6234149924123935,  # evidence_alias_hit
    -0.1577327857462298,  # evidence_exact_title_match
    -0.5429751148369268,  # name_page
    0.3351035181162404,  # person
    -1.082536366262465,  # tier_none
    3.1034140107318486,  # tier_named
    -0.029542162651373476,  # tier_title_word
    0.0648137860709937,  # tier_content
    -0.29960681549833734,  # picked
)
