"""Beleaguered Castle's rows packed into one bytes object: the form the search (castle.py), its
relaxed game (castle_relaxed.py) and its dead tests (castle_dead.py) all read. It lives apart so
that the relaxed game and the dead tests need not import the search, which imports them.
"""

# the rows of a position as one bytes object: each row's cards bottom first (a card is one
# byte, suit << 4 | rank), the rows joined by SEP (no card)
SEP = b"\xff"
# each card (in the relaxed game's form too) as a row of its own, to add to a row's end
BYTE = [bytes((i,)) for i in range(128)]
# the foundation heights of a win
WON = (13, 13, 13, 13)
