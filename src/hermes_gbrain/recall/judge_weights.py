"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed139; not edited by hand.
"""

BIAS = -1.679674827322322
WEIGHTS: tuple[float, ...] = (
    -0.11876653652355722,  # rank
    0.5122885115600936,  # first
    0.7215754605248295,  # score_share
    -0.37304659209416396,  # wanted
    0.24013016513674143,  # asked
    1.53801271390025,  # asked_in_body
    1.5032048765299526,  # wanted_in_body
    -1.8544876607588525,  # asked_in_backing
    0.3805888689710288,  # asked_in_title
    -0.7006602615322493,  # wanted_in_title
    -0.48792261374959234,  # title_words
    0.7767232651320436,  # title_share
    0.0392891061727675,  # asked_missing
    0.9384970416962765,  # asked_share
    -0.27917384834509684,  # elsewhere
    -1.806926485611875,  # common
    -0.13790122809785582,  # names
    0.1491550541638101,  # names_in_body
    -0.08017303581846626,  # latin
    0.04427661991260662,  # length
    -0.3272408126442164,  # evidence_keyword_exact
    0.011011195706708913,  # evidence_weak_semantic
    -1.632538488607811,  # evidence_alias_hit
    -0.1516743726779374,  # evidence_exact_title_match
    -0.5466928969947978,  # name_page
    0.32754335165744364,  # person
    -1.0913147929340874,  # tier_none
    3.1219560838275555,  # tier_named
    -0.023344538904572235,  # tier_title_word
    0.058351088928507315,  # tier_content
    -0.3025702037832451,  # picked
)
