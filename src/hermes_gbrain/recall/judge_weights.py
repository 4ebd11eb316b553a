"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed139; not edited by hand.
"""

BIAS = -1.67589810667879
WEIGHTS: tuple[float, ...] = (
    -0.11870049771449265,  # rank
    0.5109325164678951,  # first
    0.7248335744506526,  # score_share
    -0.3730695592637675,  # wanted
    0.24051463977139348,  # asked
    1.5394192700112277,  # asked_in_body
    1.5000843313710415,  # wanted_in_body
    -1.8544249419678716,  # asked_in_backing
    0.3772815923971617,  # asked_in_title
    -0.701538325980759,  # wanted_in_title
    -0.4872331019019495,  # title_words
    0.7770147819741666,  # title_share
    0.03932186151277848,  # asked_missing
    0.9370327572598143,  # asked_share
    -0.2864579531312321,  # elsewhere
    -1.8046430521780719,  # common
    -0.13877082958219913,  # names
    0.14787886766592212,  # names_in_body
    -0.08167386542424329,  # latin
    0.044183898219106954,  # length
    -0.32509416324256524,  # evidence_keyword_exact
    0.011321474696362903,  # evidence_weak_semantic
    -1.616999144261423,  # evidence_alias_hit
    -0.1565516180566993,  # evidence_exact_title_match
    -0.5424052782183619,  # name_page
    0.320526778859831,  # person
    -1.0942327633832611,  # tier_none
    3.132404332506769,  # tier_named
    -0.02262027824960606,  # tier_title_word
    0.05768550202789965,  # tier_content
    -0.30207673364690396,  # picked
)
