"""Where the loop rule can cost a drawn Tripppin game: positions in which the opponent can
keep us on rails, for "perfect" to steer clear of.

A computer player may not start a move sequence a third time in a row. If, at each of our
turns, only one move keeps the draw, an opponent who keeps repeating a cycle makes that
move forbidden in the end, and we must leave the draw. With two drawing moves we can vary
and break the repetition, unless one of them only leads into such a trap.

Round 1 finds the opponent's positions (opponent to move, drawn) from which it can keep
every one of our turns down to one drawing move for ever; round k counts a move into a
round k-1 trap as no escape. The rounds grow, and a position trapped only in later rounds
is less surely lost. Each round is found backwards, like the solve: our turn with two
escapes is safe, an opponent's position whose drawing moves all lead to safe turns is
safe, our turn whose one escape leads to a safe position is safe; what is never found safe
is a trap. A round takes about 0.15 s, and stops at a deadline to carry on later.
"""

from dataclasses import dataclass, field
from typing import Final

from parlour.rules.tripppin import GOAL

from .thinking import Deadline, OutOfTime
from .tripppin_solver import BLOCKS, CHUNK, PAIRS, POSITIONS, PREDECESSOR_BASES, Solution

ROUNDS: Final = 4
"""The most rounds worked out."""
SEAT_BLOCKS: Final = GOAL * GOAL
"""Blocks of positions with one seat to move."""


def trap_rounds(solution: Solution, victim: int, deadline: Deadline) -> list[bytes]:
    """The traps for `victim` in each round finished, by position number (1: a trap);
    rounds are worked on until the deadline, and an unfinished one is kept for later."""
    progress = solution.traps.setdefault(victim, TrapProgress())
    rounds = progress.rounds
    try:
        while len(rounds) < ROUNDS:
            if progress.current is None:
                progress.current = TrapRound(solution, victim, rounds[-1] if rounds else None)
            found = progress.current.finish(deadline)
            progress.current = None
            if rounds and found == rounds[-1]:
                rounds.extend([found] * (ROUNDS - len(rounds)))
            else:
                rounds.append(found)
    except OutOfTime:
        pass
    return rounds


def trap_rank(rounds: list[bytes], index: int) -> int:
    """How many rounds position `index` is no trap in: the higher, the safer."""
    return sum(not found[index] for found in rounds)


class TrapRound:
    """One round of traps for `victim` under way, moves into `previous` counting as no
    escape; it can stop at a deadline and carry on where it stopped."""

    def __init__(self, solution: Solution, victim: int, previous: bytes | None) -> None:
        self.solution = solution
        self.victim = victim
        self.previous = previous
        self.alive = bytearray(POSITIONS)
        """1 for each position not (yet) found safe: a trap once the round is done."""
        self.waiting = bytearray(solution.drawing)
        """For the opponent's positions: drawing moves not yet found to lead somewhere safe."""
        self.safe: list[int] = []
        self.escapes: bytes | None = None
        """For our positions: the drawing moves that do not lead into a `previous` trap."""
        self.block = 0
        """The next block to set up."""
        self.done = 0
        """How many safe positions have passed their safety back."""

    def finish(self, deadline: Deadline) -> bytes:
        """The round's traps; OutOfTime if the deadline comes first."""
        while self.block < BLOCKS:
            if deadline.passed():
                raise OutOfTime
            if self.escapes is None:
                self.escapes = self._escapes()
            self._set_up(self.block, self.escapes)
            self.block += 1
        self._spread(deadline)
        return bytes(self.alive)

    def _escapes(self) -> bytes:
        """For our positions: how many drawing moves do not lead into a `previous` trap."""
        solution, previous, victim = self.solution, self.previous, self.victim
        escapes = bytearray(solution.drawing)
        if previous is None:
            return bytes(escapes)
        stored = solution.stored
        at = previous.find(1)
        while at >= 0:
            if (at >> 12) // SEAT_BLOCKS != victim:
                for before in _predecessors(solution, at):
                    if not stored[before] and escapes[before]:
                        escapes[before] -= 1
            at = previous.find(1, at + 1)
        return bytes(escapes)

    def _set_up(self, block: int, escapes: bytes) -> None:
        """Mark a block's drawn positions as traps for now, and queue our positions with
        two escapes as safe."""
        stored, drawing = self.solution.stored, self.solution.drawing
        start, end = block * PAIRS, (block + 1) * PAIRS
        pairs = zip(stored[start:end], drawing[start:end], strict=True)
        drawn = [not won and count > 0 for won, count in pairs]
        previous = self.previous
        kept = previous[start:end] if previous is not None else bytes(PAIRS)
        if block // SEAT_BLOCKS != self.victim:
            self.alive[start:end] = bytes(drawn)
            return
        counts = escapes[start:end]
        self.alive[start:end] = bytes(
            d and (c <= 1 or bool(k)) for d, c, k in zip(drawn, counts, kept, strict=True)
        )
        self.safe.extend(
            start + pair
            for pair, d in enumerate(drawn)
            if d and counts[pair] > 1 and not kept[pair]
        )

    def _spread(self, deadline: Deadline) -> None:
        """Clear `alive` backwards from the safe positions, as the module docstring says."""
        solution, victim, previous = self.solution, self.victim, self.previous
        alive, waiting, safe = self.alive, self.waiting, self.safe
        while self.done < len(safe):
            if deadline.passed():
                raise OutOfTime
            end = min(self.done + CHUNK, len(safe))
            for index in safe[self.done : end]:
                ours = (index >> 12) // SEAT_BLOCKS == victim
                for before in _predecessors(solution, index):
                    if not alive[before] or (previous is not None and previous[before]):
                        continue
                    if ours:
                        waiting[before] -= 1
                        if waiting[before]:
                            continue
                    alive[before] = 0
                    safe.append(before)
            self.done = end


@dataclass
class TrapProgress:
    """The rounds of traps found for one victim on one board, and the one under way."""

    rounds: list[bytes] = field(default_factory=list)
    current: TrapRound | None = None


def _predecessors(solution: Solution, index: int) -> list[int]:
    """The positions with a move to position `index`."""
    offsets = solution.offsets[index & (PAIRS - 1)]
    return [
        base + offset
        for base in PREDECESSOR_BASES[(index >> 12) << 6 | (index & 63)]
        for offset in offsets
    ]
