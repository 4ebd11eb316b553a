"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed107; not edited by hand.
"""

BIAS = -1.875743249562551
WEIGHTS: tuple[float, ...] = (
    -0.11851817687880133,  # rank
    0.5217573471703473,  # first
    0.6655696117705379,  # score_share
    -0.3914746528534037,  # wanted
    0.261978019589132,  # asked
    1.4521948695634632,  # asked_in_body
    1.574221738979539,  # wanted_in_body
    -1.7575219169936653,  # asked_in_backing
    0.4019938724809856,  # asked_in_title
    -0.8033712192505591,  # wanted_in_title
    -0.45598672931597434,  # title_words
    0.98095255955838,  # title_share
    0.01343655985816965,  # asked_missing
    0.8602539254504286,  # asked_share
    -0.17904527204709833,  # elsewhere
    -1.806718635788955,  # common
    -0.10650708076451562,  # names
    0.14347295643711105,  # names_in_body
    -0.12276676669196998,  # latin
    0.056046192130103534,  # length
    -0.35902140209002553,  # evidence_keyword_exact
    -0.017977634561420423,  # evidence_weak_semantic
    -1.4830887665305479,  # evidence_alias_hit
    -0.30766804975079304,  # evidence_exact_title_match
    -0.5611512771458302,  # name_page
    0.428282903780362,  # person
    -0.9992257067330826,  # tier_none
    3.180709087313416,  # tier_named
    0.03968217290343093,  # tier_title_word
    -0.03547377897986616,  # tier_content
    -0.3023081460272869,  # picked
)
