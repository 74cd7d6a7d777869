"""Bitboards as Python integers: the helpers every board shape shares."""

from collections.abc import Iterable, Iterator, Sequence


def set_bits(mask: int) -> Iterator[int]:
    """The positions of the bits set in `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def union(bits: Sequence[int], indices: Iterable[int]) -> int:
    """The bitboard with `bits[i]` set for every index i in `indices`."""
    result = 0
    for index in indices:
        result |= bits[index]
    return result
