"""The judge's logistic weights, one per ``judge.FEATURES`` name, on raw feature values.

Written by ``bench/judge_fit.py --write``, fitted on the sets up to sealed103; not edited by hand.
"""

BIAS = -1.8611155151365608
WEIGHTS: tuple[float, ...] = (
    -0.11703767840456257,  # rank
    0.5084317235530784,  # first
    0.6569386532640822,  # score_share
    -0.3894377163336101,  # wanted
    0.25687962383137225,  # asked
    1.3887494499524748,  # asked_in_body
    1.5789525880418844,  # wanted_in_body
    -1.691937185337179,  # asked_in_backing
    0.42367711685294884,  # asked_in_title
    -0.8210979191571182,  # wanted_in_title
    -0.4589399402357441,  # title_words
    0.9915808026977021,  # title_share
    0.018342632933442887,  # asked_missing
    0.8664679509461127,  # asked_share
    -0.1810450356767721,  # elsewhere
    -1.7915146112478308,  # common
    -0.10931773472017425,  # names
    0.13219451394098217,  # names_in_body
    -0.11117497308973473,  # latin
    0.05514150015710543,  # length
    -0.3643758629758601,  # evidence_keyword_exact
    -0.026183309015703555,  # evidence_weak_semantic
    -1.496068626777521,  # evidence_alias_hit
    -0.05279090838976932,  # evidence_exact_title_match
    -0.5806291214706366,  # name_page
    0.4327082716776843,  # person
    -0.9956171070877112,  # tier_none
    3.216828213035117,  # tier_named
    0.02713218646246699,  # tier_title_word
    -0.04081487322173608,  # tier_content
    -0.30246095541788187,  # picked
)
