"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed139; not edited by hand.
"""

BIAS = -1.6797493945530557
WEIGHTS: tuple[float, ...] = (
    -0.11862417431101961,  # rank
    0.5111390744085208,  # first
    0.7237718096337546,  # score_share
    -0.3726389355093698,  # wanted
    0.23999892836192535,  # asked
    1.5381749062310761,  # asked_in_body
    1.502515657897515,  # wanted_in_body
    -1.854900799088121,  # asked_in_backing
    0.3795737717767878,  # asked_in_title
    -0.7038362701920255,  # wanted_in_title
    -0.4874298483994971,  # title_words
    0.7778869805010699,  # title_share
    0.03902373666862488,  # asked_missing
    0.9389752434906012,  # asked_share
    -0.27975149776986924,  # elsewhere
    -1.8045944432026653,  # common
    -0.13764275934258416,  # names
    0.14852876249242772,  # names_in_body
    -0.08046581421567779,  # latin
    0.04424322057263137,  # length
    -0.32456159889132263,  # evidence_keyword_exact
    0.011294798234744843,  # evidence_weak_semantic
    -1.6299021417648871,  # evidence_alias_hit
    -0.15214426540902157,  # evidence_exact_title_match
    -0.5451377488421311,  # name_page
    0.32557882197255494,  # person
    -1.093227077185185,  # tier_none
    3.1285676487773975,  # tier_named
    -0.022783615718493785,  # tier_title_word
    0.0570959053633705,  # tier_content
    -0.3026122211108038,  # picked
)
