"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed139; not edited by hand.
"""

BIAS = -1.6667015872202167
WEIGHTS: tuple[float, ...] = (
    -0.11850170614150632,  # rank
    0.5422510211261172,  # first
    0.6870334995905961,  # score_share
    -0.3639232122545468,  # wanted
    0.23279542391428035,  # asked
    1.5190123130180588,  # asked_in_body
    1.4976443819118657,  # wanted_in_body
    -1.8377208995379626,  # asked_in_backing
    0.40341830905969916,  # asked_in_title
    -0.6593081851985672,  # wanted_in_title
    -0.4879849113073334,  # title_words
    0.6524931548975755,  # title_share
    0.03604085779605829,  # asked_missing
    0.9360419947426251,  # asked_share
    -0.274813866540432,  # elsewhere
    -1.580514060831964,  # common
    -0.145279460780974,  # names
    0.14495187181446628,  # names_in_body
    -0.08874631581569155,  # latin
    0.04536231906745637,  # length
    -0.3270499851658217,  # evidence_keyword_exact
    0.009374996382464234,  # evidence_weak_semantic
    -1.852036506390347,  # evidence_alias_hit
    -0.09022004013102773,  # evidence_exact_title_match
    -0.609856240646514,  # name_page
    0.3875314132099598,  # person
    -1.086618008035832,  # tier_none
    3.0631334157689913,  # tier_named
    -0.02598581790803973,  # tier_title_word
    0.08750976218791723,  # tier_content
    -0.3066165184469608,  # picked
)
