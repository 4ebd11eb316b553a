"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed127; not edited by hand.
"""

BIAS = -1.706109712401604
WEIGHTS: tuple[float, ...] = (
    -0.11755848407028797,  # rank
    0.5408191682757653,  # first
    0.652786821930452,  # score_share
    -0.38242112737496753,  # wanted
    0.24724006611089122,  # asked
    1.4349364153945616,  # asked_in_body
    1.5461512502874137,  # wanted_in_body
    -1.7708732615795715,  # asked_in_backing
    0.43722541227875944,  # asked_in_title
    -0.7266967912653743,  # wanted_in_title
    -0.47542113095325716,  # title_words
    0.7293201188554398,  # title_share
    0.028957700346827972,  # asked_missing
    0.8851374570878972,  # asked_share
    -0.26195529583074467,  # elsewhere
    -1.5979634172173849,  # common
    -0.14520483278016244,  # names
    0.1570062887883898,  # names_in_body
    -0.08766740332336766,  # latin
    0.04934006695843705,  # length
    -0.3115875236776008,  # evidence_keyword_exact
    0.012277160351438858,  # evidence_weak_semantic
    -1.7878975342890147,  # evidence_alias_hit
    -0.20016911423704167,  # evidence_exact_title_match
    -0.5888252828847178,  # name_page
    0.38738895439878024,  # person
    -1.0729088306473131,  # tier_none
    3.0655216987393463,  # tier_named
    0.008836935958126652,  # tier_title_word
    0.08624731895045026,  # tier_content
    -0.32350885619114683,  # picked
)
