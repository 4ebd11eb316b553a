"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed107; not edited by hand.
"""

BIAS = -1.8756030688316092
WEIGHTS: tuple[float, ...] = (
    -0.11854323074435782,  # rank
    0.5217231368413423,  # first
    0.6655257870046226,  # score_share
    -0.39146612810490283,  # wanted
    0.2619772603597391,  # asked
    1.4522384437146778,  # asked_in_body
    1.5741585632627135,  # wanted_in_body
    -1.7575171252575603,  # asked_in_backing
    0.40192428380689177,  # asked_in_title
    -0.8033299409423156,  # wanted_in_title
    -0.45595905984166146,  # title_words
    0.981033216670268,  # title_share
    0.013428070733466017,  # asked_missing
    0.8602547228811191,  # asked_share
    -0.1790235325155954,  # elsewhere
    -1.8066879001423928,  # common
    -0.10650282488183392,  # names
    0.14347085119097536,  # names_in_body
    -0.12277443316861661,  # latin
    0.05604691572206549,  # length
    -0.3591915503593624,  # evidence_keyword_exact
    -0.01806426305263669,  # evidence_weak_semantic
    -1.4832129935366922,  # evidence_alias_hit
    -0.30779642274351093,  # evidence_exact_title_match
    -0.5611298847631121,  # name_page
    0.428246195797354,  # person
    -0.9992276896599738,  # tier_none
    3.1806741147599036,  # tier_named
    0.039692601716141494,  # tier_title_word
    -0.03545575885075143,  # tier_content
    -0.30229731756514233,  # picked
)
