"""The rules of every game: cards, piles, immutable states, moves, the deal's shuffle,
one module per game, the game with its history, the hint, and the variant table.

Nothing here imports the solver (:mod:`engine.solver`), which searches these rules.
"""
