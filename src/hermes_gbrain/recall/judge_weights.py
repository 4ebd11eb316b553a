"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed139; not edited by hand.
"""

BIAS = -1.6728820648305414
WEIGHTS: tuple[float, ...] = (
    -0.1187739299983411,  # rank
    0.5086247460882145,  # first
    0.726831517756901,  # score_share
    -0.3730077073056389,  # wanted
    0.24063518856970492,  # asked
    1.5420856305589294,  # asked_in_body
    1.4992499947340874,  # wanted_in_body
    -1.857679502485834,  # asked_in_backing
    0.3778289410885264,  # asked_in_title
    -0.7067773645295884,  # wanted_in_title
    -0.48681863746786425,  # title_words
    0.7830562925860495,  # title_share
    0.03817552505726213,  # asked_missing
    0.9324041824499623,  # asked_share
    -0.28989136686326245,  # elsewhere
    -1.8008743246159529,  # common
    -0.13936579371176167,  # names
    0.149356564916091,  # names_in_body
    -0.08075712555961849,  # latin
    0.04445193058533118,  # length
    -0.3242470894333075,  # evidence_keyword_exact
    0.011195867263731521,  # evidence_weak_semantic
    -1.6228723980598423,  # evidence_alias_hit
    -0.15649309748299817,  # evidence_exact_title_match
    -0.5433769826060274,  # name_page
    0.3195324996803417,  # person
    -1.0959608519736115,  # tier_none
    3.1337796385289267,  # tier_named
    -0.023284802397393344,  # tier_title_word
    0.05733941094742668,  # tier_content
    -0.3010592688294543,  # picked
)
