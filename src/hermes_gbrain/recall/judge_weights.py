"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed139; not edited by hand.
"""

BIAS = -1.6787924560385046
WEIGHTS: tuple[float, ...] = (
    -0.11858766860393416,  # rank
    0.5106363287610869,  # first
    0.7252141970379637,  # score_share
    -0.37301062472719004,  # wanted
    0.24031783489756067,  # asked
    1.5379125960536892,  # asked_in_body
    1.5027828266903946,  # wanted_in_body
    -1.85480857876357,  # asked_in_backing
    0.38020738606174315,  # asked_in_title
    -0.7045243081300318,  # wanted_in_title
    -0.4872271647403168,  # title_words
    0.7794658107136239,  # title_share
    0.03939270383353745,  # asked_missing
    0.9387772627069959,  # asked_share
    -0.2797426885136975,  # elsewhere
    -1.8075355150437036,  # common
    -0.13840039369317986,  # names
    0.14808742455343274,  # names_in_body
    -0.08229159323971513,  # latin
    0.04415353692916955,  # length
    -0.324737913642055,  # evidence_keyword_exact
    0.011017693662176574,  # evidence_weak_semantic
    -1.617161303303523,  # evidence_alias_hit
    -0.15703952789573483,  # evidence_exact_title_match
    -0.5399902106322344,  # name_page
    0.32054506348713285,  # person
    -1.0938346868459314,  # tier_none
    3.1319371141009116,  # tier_named
    -0.023172385735150257,  # tier_title_word
    0.05724754112428612,  # tier_content
    -0.3031565323664136,  # picked
)
