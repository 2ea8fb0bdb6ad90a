"""Developer programs that check the game review (jitfish/review.py) on real games."""
