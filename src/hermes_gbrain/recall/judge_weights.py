"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed99; not edited by hand.
"""

BIAS = -1.892729553816068
WEIGHTS: tuple[float, ...] = (
    -0.11702645110242547,  # rank
    0.5124831441429498,  # first
    0.6700860831556416,  # score_share
    -0.3733343799390898,  # wanted
    0.23647658636694288,  # asked
    1.2409261608549247,  # asked_in_body
    1.5937295418446489,  # wanted_in_body
    -1.52869580150295,  # asked_in_backing
    0.45330205114926636,  # asked_in_title
    -0.8784962419799323,  # wanted_in_title
    -0.4564603785959016,  # title_words
    1.0686092332482235,  # title_share
    0.02363443928188789,  # asked_missing
    0.8201872578285452,  # asked_share
    -0.18562015191835018,  # elsewhere
    -1.773552157745998,  # common
    -0.11415561599223145,  # names
    0.13411263728116682,  # names_in_body
    -0.13113665363914206,  # latin
    0.055287429577715944,  # length
    -0.35960405933631817,  # evidence_keyword_exact
    -0.018102006048065736,  # evidence_weak_semantic
    -1.4083374053435773,  # evidence_alias_hit
    -0.14366653043243893,  # evidence_exact_title_match
    -0.5841389989680701,  # name_page
    0.4515690430595378,  # person
    -0.9807189787229219,  # tier_none
    3.2573276860250973,  # tier_named
    0.004544374647016532,  # tier_title_word
    -0.05543492865341271,  # tier_content
    -0.3032472733153066,  # picked
)
