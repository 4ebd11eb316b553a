"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed115; not edited by hand.
"""

BIAS = -1.8184979404741382
WEIGHTS: tuple[float, ...] = (
    -0.11860019283948599,  # rank
    0.5391547956471507,  # first
    0.6733483465306755,  # score_share
    -0.3957750107466321,  # wanted
    0.2599424774352287,  # asked
    1.4349890243844758,  # asked_in_body
    1.5656844169927309,  # wanted_in_body
    -1.755955442095892,  # asked_in_backing
    0.4039921205833299,  # asked_in_title
    -0.7326880433197865,  # wanted_in_title
    -0.472537314753167,  # title_words
    0.7644733361737395,  # title_share
    0.017454995516891208,  # asked_missing
    0.8460462669786477,  # asked_share
    -0.20124188939690535,  # elsewhere
    -1.7460345695156587,  # common
    -0.09770912609439969,  # names
    0.1361667873847897,  # names_in_body
    -0.10823021301107869,  # latin
    0.05747840526185132,  # length
    -0.32175011872456794,  # evidence_keyword_exact
    0.005184866487969088,  # evidence_weak_semantic
    -1.5093441346089242,  # evidence_alias_hit
    -0.3102938103378904,  # evidence_exact_title_match
    -0.5315297939004833,  # name_page
    0.3788388405503845,  # person
    -1.0490102071929426,  # tier_none
    3.119036898244446,  # tier_named
    0.0672484920647716,  # tier_title_word
    0.04349017422406311,  # tier_content
    -0.3189017376709012,  # picked
)
