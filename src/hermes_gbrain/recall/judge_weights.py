"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed131; not edited by hand.
"""

BIAS = -1.6546490344604683
WEIGHTS: tuple[float, ...] = (
    -0.11837721556443395,  # rank
    0.5309118516504462,  # first
    0.6583594738644808,  # score_share
    -0.3670567576289392,  # wanted
    0.2385418844103983,  # asked
    1.5421644001699506,  # asked_in_body
    1.5205165659892166,  # wanted_in_body
    -1.8658964930695077,  # asked_in_backing
    0.4364585997268834,  # asked_in_title
    -0.6980950828695277,  # wanted_in_title
    -0.4845090904423302,  # title_words
    0.6820810255927192,  # title_share
    0.025612017411916797,  # asked_missing
    0.8684233762624554,  # asked_share
    -0.2639665038518314,  # elsewhere
    -1.6224797865581988,  # common
    -0.1702458119901286,  # names
    0.17318795502203732,  # names_in_body
    -0.08860026670735391,  # latin
    0.04597654817417824,  # length
    -0.3072108824144314,  # evidence_keyword_exact
    0.021399656122134087,  # evidence_weak_semantic
    -1.7816607881289634,  # evidence_alias_hit
    -0.09148323992778092,  # evidence_exact_title_match
    -0.5918817294114846,  # name_page
    0.3811261050346412,  # person
    -1.0764653131515431,  # tier_none
    3.029342129018795,  # tier_named
    0.005721416092566905,  # tier_title_word
    0.09675617748784109,  # tier_content
    -0.31855434989289905,  # picked
)
