"""Mate problems (tsume): the prover (``prover``, the rules core alone), the stored form of
a puzzle (``puzzle``), mining from engine self-play and records (``miner``) and the shipped
collections in ``data/puzzles`` (``collection``)."""
