"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed139; not edited by hand.
"""

BIAS = -1.6722598552279875
WEIGHTS: tuple[float, ...] = (
    -0.11874702549556491,  # rank
    0.5080528094185262,  # first
    0.7274802572675624,  # score_share
    -0.3726447833394107,  # wanted
    0.24152552787579293,  # asked
    1.5581664539711224,  # asked_in_body
    1.4979841360623127,  # wanted_in_body
    -1.8753042261683461,  # asked_in_backing
    0.37823883641525863,  # asked_in_title
    -0.706273509181805,  # wanted_in_title
    -0.48665065680716557,  # title_words
    0.7804671726785534,  # title_share
    0.03689344967644106,  # asked_missing
    0.9322511134842919,  # asked_share
    -0.2897098929824791,  # elsewhere
    -1.7997865291168869,  # common
    -0.1388356754535265,  # names
    0.14854095179197574,  # names_in_body
    -0.08099944973512166,  # latin
    0.044452051807644735,  # length
    -0.32391533647632426,  # evidence_keyword_exact
    0.011501368604773887,  # evidence_weak_semantic
    -1.622886005953057,  # evidence_alias_hit
    -0.1555746748300419,  # evidence_exact_title_match
    -0.5425789274000066,  # name_page
    0.31939224633519375,  # person
    -1.097353001534331,  # tier_none
    3.13440085858612,  # tier_named
    -0.022342018030727766,  # tier_title_word
    0.058906616579324646,  # tier_content
    -0.30039466298894196,  # picked
)
