"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed111; not edited by hand.
"""

BIAS = -1.877732425094734
WEIGHTS: tuple[float, ...] = (
    -0.11793890688809687,  # rank
    0.5346027140129469,  # first
    0.6587261441847398,  # score_share
    -0.3949703841210045,  # wanted
    0.2671565529696589,  # asked
    1.4754758252750217,  # asked_in_body
    1.5699562348551355,  # wanted_in_body
    -1.7788048769506888,  # asked_in_backing
    0.39000351502567465,  # asked_in_title
    -0.7962829445099989,  # wanted_in_title
    -0.4550282459491577,  # title_words
    0.9490494181965196,  # title_share
    0.01202117112329016,  # asked_missing
    0.8610427875642237,  # asked_share
    -0.20126125865399283,  # elsewhere
    -1.805516929333623,  # common
    -0.10921657454084747,  # names
    0.14010039510533065,  # names_in_body
    -0.12559962423664572,  # latin
    0.056455458689314314,  # length
    -0.3274436467002234,  # evidence_keyword_exact
    0.0002546753664771942,  # evidence_weak_semantic
    -1.549414405520195,  # evidence_alias_hit
    -0.2935422485861187,  # evidence_exact_title_match
    -0.571939751743942,  # name_page
    0.4240734537641543,  # person
    -1.0117153140297666,  # tier_none
    3.1702923358969133,  # tier_named
    0.04267660127829442,  # tier_title_word
    -0.02530855364207222,  # tier_content
    -0.30924922902055196,  # picked
)
