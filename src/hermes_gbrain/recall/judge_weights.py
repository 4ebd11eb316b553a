"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed99; not edited by hand.
"""

BIAS = -1.8927262157993898
WEIGHTS: tuple[float, ...] = (
    -0.11702649635354508,  # rank
    0.5124834925289024,  # first
    0.6700828996898047,  # score_share
    -0.3733342245420507,  # wanted
    0.23647649251826822,  # asked
    1.2409259960901942,  # asked_in_body
    1.5937295570492456,  # wanted_in_body
    -1.5286957193384583,  # asked_in_backing
    0.45330197390838545,  # asked_in_title
    -0.878495890190586,  # wanted_in_title
    -0.456460573822587,  # title_words
    1.0686092488397092,  # title_share
    0.023634371666970667,  # asked_missing
    0.820187574780657,  # asked_share
    -0.18562011548249038,  # elsewhere
    -1.7735524180816216,  # common
    -0.11415563034367143,  # names
    0.13411253780125007,  # names_in_body
    -0.13113668886661597,  # latin
    0.05528744073474808,  # length
    -0.3596042914876768,  # evidence_keyword_exact
    -0.018102931316088047,  # evidence_weak_semantic
    -1.4083376189711114,  # evidence_alias_hit
    -0.14366691145519375,  # evidence_exact_title_match
    -0.5841392059411263,  # name_page
    0.45156909488869684,  # person
    -0.9807189984276629,  # tier_none
    3.2573276672033256,  # tier_named
    0.004544486027471577,  # tier_title_word
    -0.05543493454490534,  # tier_content
    -0.3032473411527365,  # picked
)
