"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed139; not edited by hand.
"""

BIAS = -1.6748290615968489
WEIGHTS: tuple[float, ...] = (
    -0.11870039979501174,  # rank
    0.5092189676720567,  # first
    0.7264921461127922,  # score_share
    -0.37261899779236857,  # wanted
    0.24052435978759423,  # asked
    1.5415618270479479,  # asked_in_body
    1.4994700309869724,  # wanted_in_body
    -1.8563545104127477,  # asked_in_backing
    0.3780772036107634,  # asked_in_title
    -0.7064914852523846,  # wanted_in_title
    -0.48678695018962903,  # title_words
    0.7828269662344762,  # title_share
    0.03836629725097733,  # asked_missing
    0.932979766432831,  # asked_share
    -0.2893044323422671,  # elsewhere
    -1.802802736874513,  # common
    -0.13974994468510357,  # names
    0.1495042617608433,  # names_in_body
    -0.08074331752616312,  # latin
    0.04425715473536713,  # length
    -0.3240441508190049,  # evidence_keyword_exact
    0.01123548794597808,  # evidence_weak_semantic
    -1.6224295519414944,  # evidence_alias_hit
    -0.1565938026568016,  # evidence_exact_title_match
    -0.54346640005868,  # name_page
    0.3199684959169919,  # person
    -1.0946455064150735,  # tier_none
    3.1333406553405796,  # tier_named
    -0.025128095811526623,  # tier_title_word
    0.05629379257907151,  # tier_content
    -0.30132473091803375,  # picked
)
