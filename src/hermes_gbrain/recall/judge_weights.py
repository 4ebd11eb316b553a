"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed139; not edited by hand.
"""

BIAS = -1.672685723709511
WEIGHTS: tuple[float, ...] = (
    -0.11876123253084493,  # rank
    0.5087443012224442,  # first
    0.7266139108818231,  # score_share
    -0.3730317045121233,  # wanted
    0.24064736700471223,  # asked
    1.5420092776996144,  # asked_in_body
    1.4992493710604515,  # wanted_in_body
    -1.857465404684056,  # asked_in_backing
    0.37767730412949824,  # asked_in_title
    -0.706808759150128,  # wanted_in_title
    -0.48682053958454574,  # title_words
    0.7832649051140991,  # title_share
    0.03819861465817533,  # asked_missing
    0.9322690701922577,  # asked_share
    -0.2896374414460602,  # elsewhere
    -1.8009975734260935,  # common
    -0.13931348411568592,  # names
    0.14922586442429472,  # names_in_body
    -0.08071910962998088,  # latin
    0.04443112955446227,  # length
    -0.3240576027674547,  # evidence_keyword_exact
    0.011233717247675053,  # evidence_weak_semantic
    -1.6228211966451238,  # evidence_alias_hit
    -0.15629176099038747,  # evidence_exact_title_match
    -0.5433160960128564,  # name_page
    0.31962797167117596,  # person
    -1.0960508490258525,  # tier_none
    3.133907703442002,  # tier_named
    -0.022737796279583954,  # tier_title_word
    0.05733946587596707,  # tier_content
    -0.30121213868620267,  # picked
)
