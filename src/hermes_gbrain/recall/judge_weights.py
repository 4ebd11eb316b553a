"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed139; not edited by hand.
"""

BIAS = -1.6729980645478033
WEIGHTS: tuple[float, ...] = (
    -0.11871730360892388,  # rank
    0.5087756079628979,  # first
    0.7268246131026281,  # score_share
    -0.3728693517365174,  # wanted
    0.24055400083872944,  # asked
    1.5419797753995284,  # asked_in_body
    1.4992267090262728,  # wanted_in_body
    -1.8573521408500708,  # asked_in_backing
    0.3779092873921483,  # asked_in_title
    -0.7070648579024754,  # wanted_in_title
    -0.4868000433366126,  # title_words
    0.7834051151821705,  # title_share
    0.0381058545769265,  # asked_missing
    0.931862631284706,  # asked_share
    -0.2900760417755751,  # elsewhere
    -1.8011919589693046,  # common
    -0.1394009932555271,  # names
    0.14919276285942407,  # names_in_body
    -0.08073522631544945,  # latin
    0.0444342759460106,  # length
    -0.323644862222103,  # evidence_keyword_exact
    0.011454963765824784,  # evidence_weak_semantic
    -1.6223123193937923,  # evidence_alias_hit
    -0.1557197257635481,  # evidence_exact_title_match
    -0.5435893093768112,  # name_page
    0.319617759188286,  # person
    -1.096013823341278,  # tier_none
    3.133737128743784,  # tier_named
    -0.022951414001962253,  # tier_title_word
    0.05748123938912897,  # tier_content
    -0.3012955099963465,  # picked
)
