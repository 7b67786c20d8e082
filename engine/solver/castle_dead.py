"""Beleaguered Castle's dead-position tests (docs/solver.md §9.3, §9.10): :func:`stuck` proves
that no row can ever be emptied again, :func:`layer_dead` that no card can ever go to a
foundation again; either proves a position lost, so the search (castle.py) gives it no
children. They read the rows and the foundations alone, nothing of the search's, so they
live apart from it and are tested on their own.
"""

from __future__ import annotations

from ..rules.castle import ROWS
from .castle_rows import SEP

_TARGET = 0x40  # a card a foundation takes next, in layer_dead's rows


def stuck(rows: list[bytes] | tuple[bytes, ...], heights: tuple[int, ...] | list[int]) -> bool:
    """True when no row can ever be emptied again (so: lost, as a win empties every row).

    Sound over-estimate, grown to a fixed point, of what could happen if no row ever
    empties: ``depth[i]`` is the lowest position of row ``i`` that can ever be exposed
    (the cards above it can all leave), ``count[r]`` how many cards of rank ``r`` can ever
    be exposed, ``h`` how high each foundation can ever grow. A card can leave only onto
    a card one rank higher that can ever be exposed (anywhere: it may have been moved
    there), or to its foundation once that holds the rank below (then the suit's next
    cards that can be exposed can follow). Every real line that empties no row stays
    inside this estimate, so if the estimate never empties a row, no line ever does.
    """
    if not all(rows):
        return False
    h = list(heights)
    depth = [len(row) - 1 for row in rows]
    count = [0] * 15
    for row in rows:
        count[row[-1] & 15] += 1
    changed = True  # another pass is needed only after a count left 0 or a foundation grew
    while changed:
        changed = False
        for i in range(ROWS):
            row = rows[i]
            p = depth[i]
            while True:
                card = row[p]
                rank = card & 15
                height = h[card >> 4]
                if height >= rank:
                    pass  # gone up already, by a chain from another row
                elif height == rank - 1:
                    suit = card >> 4
                    h[suit] = rank
                    changed = True
                    # the suit's next cards, where already exposable, follow
                    nxt = card + 1
                    while rank < 13:
                        j = 0
                        q = rows[0].find(nxt)
                        while q < 0:
                            j += 1
                            q = rows[j].find(nxt)
                        if q < (p if j == i else depth[j]):
                            break
                        rank += 1
                        h[suit] = rank
                        nxt += 1
                elif not count[rank + 1]:
                    break
                p -= 1
                if p < 0:
                    return False  # row i could be emptied
                below = row[p] & 15
                if not count[below]:
                    changed = True
                count[below] += 1
            depth[i] = p
    return True


def layer_table(nexts: bytes) -> bytes:
    """The translation of cards into :func:`layer_dead`'s form: a card of ``nexts`` (the
    cards the foundations take next) as itself with :data:`_TARGET` set, any other card as
    its rank alone."""
    table = bytearray(range(256))
    for card in range(128):
        table[card] = card & 15
    for card in nexts:
        table[card] = _TARGET | card
    return bytes(table)


def layer_dead(rows: list[bytes] | tuple[bytes, ...] | bytes, table: bytes, dead: set[bytes],
               tried: set[bytes], limit: int) -> tuple[bool | None, int]:
    """Whether no card can ever go to a foundation again from these rows (so: lost, as a win
    takes every card there); None when ``limit`` positions of its own did not tell. Also
    the positions it spent.

    Until a card goes to a foundation, the foundations stay as they are, so the cards they
    take next stay the same (``table`` is :func:`layer_table` of them), and a move is
    possible or not by the ranks of the row ends alone (building ignores suits; any card
    may enter an empty row). So the rows are searched with every other card known by its
    rank only: positions that differ only in the suits of such cards are one, and the
    search, of every row move (into the first empty row only: rows are interchangeable),
    is exact for the question whether a card a foundation takes next can ever lie at a
    row's end. Its form of rows found dead join ``dead``, those of a search that found a
    way or ran out join ``tried`` (no search starts from them again), both for these
    foundations only.
    """
    packed = rows if isinstance(rows, bytes) else SEP.join(rows)
    start = sorted(packed.translate(table).split(SEP))  # (SEP is left as it is)
    key = SEP.join(start)
    if key in dead:
        return True, 0
    if key in tried:
        return None, 0
    seen = {key}
    stack = [start]
    spent = 0
    join = SEP.join
    while stack:
        if spent >= limit:
            tried.update(seen)
            return None, spent
        rs = stack.pop()
        spent += 1
        # rank -> rows ending in it; an empty row as rank 14 (any card may enter it)
        onto: list[list[int]] = [[], [], [], [], [], [], [], [], [], [], [], [], [], [], [], []]
        free = onto[14]
        if not rs[0]:  # sorted: an empty row comes first
            free.append(0)
        for d, row in enumerate(rs):
            if row:
                end = row[-1]
                if end & _TARGET:
                    tried.update(seen)
                    return False, spent
                onto[end & 15].append(d)
        for s, row in enumerate(rs):
            if not row:
                continue
            dests = onto[(row[-1] & 15) + 1]
            if free and len(row) > 1:
                dests = dests + free
            for d in dests:
                new = list(rs)
                new[s] = row[:-1]
                new[d] = rs[d] + row[-1:]
                new.sort()
                nkey = join(new)
                if nkey not in seen:
                    seen.add(nkey)
                    stack.append(new)
    dead.update(seen)
    return True, spent
