"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed135; not edited by hand.
"""

BIAS = -1.659462803322173
WEIGHTS: tuple[float, ...] = (
    -0.11825761888806245,  # rank
    0.5431341911177281,  # first
    0.6634685426187881,  # score_share
    -0.3669162871709723,  # wanted
    0.23191137620262936,  # asked
    1.4923596400019006,  # asked_in_body
    1.5081140533026465,  # wanted_in_body
    -1.8096317049574524,  # asked_in_backing
    0.4203799917490607,  # asked_in_title
    -0.6811503883630543,  # wanted_in_title
    -0.4874930709274432,  # title_words
    0.6598145140110788,  # title_share
    0.03677612922547509,  # asked_missing
    0.9141475338197599,  # asked_share
    -0.27292737783526566,  # elsewhere
    -1.6037090266157596,  # common
    -0.1386991607243906,  # names
    0.1423149994399114,  # names_in_body
    -0.09064165786746053,  # latin
    0.04597022488681182,  # length
    -0.3036742093774655,  # evidence_keyword_exact
    0.022777336417367757,  # evidence_weak_semantic
    -1.8008403833872788,  # evidence_alias_hit
    -0.13493920108266777,  # evidence_exact_title_match
    -0.5970898441811467,  # name_page
    0.38093916164856106,  # person
    -1.0917562336593036,  # tier_none
    3.075647156162087,  # tier_named
    -0.005846645024192564,  # tier_title_word
    0.09237448755736807,  # tier_content
    -0.31438116392703463,  # picked
)
