"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed119; not edited by hand.
"""

BIAS = -1.7929153973875076
WEIGHTS: tuple[float, ...] = (
    -0.11520170064456171,  # rank
    0.5402590782952816,  # first
    0.6658463719790164,  # score_share
    -0.3962525733985119,  # wanted
    0.2519218805878576,  # asked
    1.3775856160105058,  # asked_in_body
    1.5729256785116126,  # wanted_in_body
    -1.7183012051113207,  # asked_in_backing
    0.4322124378811638,  # asked_in_title
    -0.7518757708676025,  # wanted_in_title
    -0.46926785563697004,  # title_words
    0.7998663044822764,  # title_share
    0.024610869563338827,  # asked_missing
    0.8500734371305433,  # asked_share
    -0.19117005653501173,  # elsewhere
    -1.6258895508014342,  # common
    -0.08992745724111754,  # names
    0.13182038688675224,  # names_in_body
    -0.08803715822344854,  # latin
    0.05371775723564826,  # length
    -0.3011678024426033,  # evidence_keyword_exact
    0.029556189575372583,  # evidence_weak_semantic
    -1.6297117912616512,  # evidence_alias_hit
    -0.24456803759777573,  # evidence_exact_title_match
    -0.513142846668876,  # name_page
    0.35505668006358776,  # person
    -1.0810373286071062,  # tier_none
    3.0805951610199886,  # tier_named
    0.051627994528870645,  # tier_title_word
    0.09636485796014081,  # tier_content
    -0.33645138546991954,  # picked
)
