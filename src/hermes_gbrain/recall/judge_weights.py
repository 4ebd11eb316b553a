"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed139; not edited by hand.
"""

BIAS = -1.672998119404215
WEIGHTS: tuple[float, ...] = (
    -0.11870154518798394,  # rank
    0.5092018160497068,  # first
    0.7265496847274021,  # score_share
    -0.37278230121804606,  # wanted
    0.24055793726913527,  # asked
    1.5415290248656912,  # asked_in_body
    1.4992356087457037,  # wanted_in_body
    -1.856798247276632,  # asked_in_backing
    0.37791958135481035,  # asked_in_title
    -0.7063891746500794,  # wanted_in_title
    -0.4868622141121096,  # title_words
    0.7835501292475432,  # title_share
    0.03828902321991094,  # asked_missing
    0.9319870463763485,  # asked_share
    -0.29002249820649617,  # elsewhere
    -1.8020765672755232,  # common
    -0.1396007815248132,  # names
    0.14926166142793482,  # names_in_body
    -0.08078832592163694,  # latin
    0.04433672461989367,  # length
    -0.32396596540888595,  # evidence_keyword_exact
    0.011426844551879181,  # evidence_weak_semantic
    -1.6219825143500646,  # evidence_alias_hit
    -0.15583655783847083,  # evidence_exact_title_match
    -0.5436787210139958,  # name_page
    0.3198183367917129,  # person
    -1.095780085796227,  # tier_none
    3.132863382252349,  # tier_named
    -0.023337911104697268,  # tier_title_word
    0.05783679694303351,  # tier_content
    -0.3014294307301337,  # picked
)
