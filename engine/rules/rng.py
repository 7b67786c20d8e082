"""The engine's own random numbers: PCG32 (O'Neill) and a Fisher-Yates shuffle.

Deals must stay the same forever and on every machine, so the engine never uses
:mod:`random`, whose algorithms may change between Python versions.

>>> Pcg32(42).next_u32() == Pcg32(42).next_u32()
True
"""

_MASK64 = (1 << 64) - 1
_MULT = 6364136223846793005
_INC = 1442695040888963407  # odd stream increment


class Pcg32:
    """PCG-XSH-RR with 64-bit state and 32-bit output."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = 0
        self.next_u32()
        self._state = (self._state + seed) & _MASK64
        self.next_u32()

    def next_u32(self) -> int:
        """The next 32-bit output."""
        old = self._state
        self._state = (old * _MULT + _INC) & _MASK64
        xorshifted = (((old >> 18) ^ old) >> 27) & 0xFFFFFFFF
        rot = old >> 59
        return ((xorshifted >> rot) | (xorshifted << (-rot & 31))) & 0xFFFFFFFF

    def below(self, n: int) -> int:
        """A uniform integer in ``0..n-1`` (rejection sampling, no modulo bias)."""
        threshold = (0x100000000 - n) % n
        while True:
            r = self.next_u32()
            if r >= threshold:
                return r % n


def shuffled(items: list[int], seed: int) -> list[int]:
    """A new list: ``items`` shuffled by Fisher-Yates driven by PCG32(seed)."""
    out = list(items)
    rng = Pcg32(seed)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out
