"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed119; not edited by hand.
"""

BIAS = -1.7752256893480294
WEIGHTS: tuple[float, ...] = (
    -0.12011046500757044,  # rank
    0.5346684243520644,  # first
    0.6582504845997391,  # score_share
    -0.3962589349695819,  # wanted
    0.25225616267608897,  # asked
    1.38056631329126,  # asked_in_body
    1.571104505074205,  # wanted_in_body
    -1.7062790004702963,  # asked_in_backing
    0.4162902309135406,  # asked_in_title
    -0.7406938167707445,  # wanted_in_title
    -0.47056604028328197,  # title_words
    0.770051124059075,  # title_share
    0.024550255820524683,  # asked_missing
    0.8384029565069605,  # asked_share
    -0.19700412809385578,  # elsewhere
    -1.6255012442560564,  # common
    -0.0814828415157456,  # names
    0.11654869728731447,  # names_in_body
    -0.072689952697026,  # latin
    0.05385476711796495,  # length
    -0.32997946444955417,  # evidence_keyword_exact
    -0.005763069507803854,  # evidence_weak_semantic
    -1.6598599364502613,  # evidence_alias_hit
    -0.2600097435367796,  # evidence_exact_title_match
    -0.5299236527382593,  # name_page
    0.37185968428902977,  # person
    -1.0572492554068436,  # tier_none
    3.094710141952954,  # tier_named
    0.04821877923210562,  # tier_title_word
    0.06359093157382355,  # tier_content
    -0.32797300851115185,  # picked
)
