"""How Oubliette's bots judge a position: ejections first, then safety, shape and tempo.

Every term is a difference between the side to move and the other side, so a position
seen by the other side scores the negation, and a mirrored board scores the same.
"""

from dataclasses import dataclass
from functools import lru_cache

from parlour.rules.hexgrid import BOARD, CELL_BITS, CELL_NAMES, DIRECTIONS, OFF_BOARD, shift

STEPS = tuple(DIRECTIONS.values())
"""The six step distances between neighbouring cells."""
PAIR_STEPS = tuple(step for step in STEPS if step > 0)
"""One step along each axis: every pair of neighbours differs by one of them."""

EJECTION = 1000
"""A piece ejected, the unit everything else is measured against."""
NEARER_WIN = 60
"""Each ejection is worth this much more than the one before, so the side ahead gladly
trades ejections and the side behind avoids it: the game is won sooner."""
WORTH_UNIT = 8
EXIT_STEP = 3
"""Each step between a piece and its nearest way out (the edge or a hole), in WORTH_UNITs."""
CENTRE_STEP = 1
"""Each step a piece stands nearer the centre of the board, in WORTH_UNITs."""
NEIGHBOUR = 6
"""Each pair of neighbouring pieces of one side."""
TEMPO_THREAT = 300
"""The side to move can eject a piece now."""
EXTRA_THREAT = 60
"""Each further piece the side to move could eject."""
THREATENED = 90
"""Each piece of the side to move that the other side could eject if given the move."""
DOUBLE_THREAT = 350
"""The other side threatens two or more pieces, more than one move can usually parry."""
DECISIVE = 4 * EJECTION
"""A threat that would win the game."""
CENTRE = CELL_BITS[CELL_NAMES.index("e5")]
"""The centre cell, e5."""


@dataclass(frozen=True, slots=True)
class Tables:
    """What the evaluation needs of a layout, worked out once per layout."""

    value_bits: tuple[int, ...]
    """For each bit b of a cell's worth in WORTH_UNITs, the cells whose worth has it set."""
    limit: int
    win: int
    rising: tuple[tuple[int, int], ...]
    """For each step up the bits (e, ne, nw): the step and the cells it takes out."""
    falling: tuple[tuple[int, int], ...]
    """For each step down the bits (w, sw, se): its length and the cells it takes out."""


def neighbours(bits: int) -> int:
    """Every bit one step from a bit of `bits` (board cells or not)."""
    around = 0
    for step in STEPS:
        around |= shift(bits, step)
    return around


def distance_layers(sources: int) -> list[int]:
    """The board cells by their distance in steps from `sources`: layer i at distance i + 1."""
    layers: list[int] = []
    reached = sources
    frontier = sources
    while True:
        frontier = neighbours(frontier) & BOARD & ~reached
        if not frontier:
            return layers
        layers.append(frontier)
        reached |= frontier


def cell_worths(holes: int) -> dict[int, int]:
    """Each cell's bit and what a piece there is worth in WORTH_UNITs: far from a way out,
    near the centre."""
    worth = {}
    for exit_distance, layer in enumerate(distance_layers(OFF_BOARD | holes), start=1):
        for_cell = exit_distance * EXIT_STEP
        bits = layer
        while bits:
            bit = bits & -bits
            bits ^= bit
            worth[bit] = for_cell
    for ring, layer in enumerate([CENTRE, *distance_layers(CENTRE)]):
        bits = layer
        while bits:
            bit = bits & -bits
            bits ^= bit
            if bit in worth:
                worth[bit] += (4 - ring) * CENTRE_STEP
    return worth


@lru_cache(maxsize=64)
def tables(holes: int, limit: int, win: int) -> Tables:
    """The evaluation tables of a layout with these holes, move limit and ejections to win."""
    worth = cell_worths(holes)
    value_bits = tuple(
        sum(bit for bit, value in worth.items() if value >> b & 1)
        for b in range(max(worth.values(), default=0).bit_length())
    )
    exits = OFF_BOARD | holes
    rising = tuple((step, BOARD & exits >> step) for step in PAIR_STEPS)
    falling = tuple((step, BOARD & exits << step) for step in PAIR_STEPS)
    return Tables(value_bits, limit, win, rising, falling)


def ejectable(attackers: int, defenders: int, t: Tables) -> int:
    """The defenders that the attackers, given the move, could push out with one push.

    A run of k defenders with a way out ahead falls to k + 1 attackers in line behind it,
    as long as the move limit lets k + 1 pieces move. The two loops are one rule written
    for steps up and down the bits, as Python shifts need; runs of one are most of them.
    """
    found = 0
    limit = t.limit
    if limit < 2:
        return 0
    for step, edge in t.rising:
        run = defenders & edge
        if run:
            pushers = attackers & (attackers << step)
            found |= run & (pushers << step)
            run &= defenders << step
            k = 2
            while run and k < limit:
                pushers &= attackers << k * step
                if not pushers:
                    break
                found |= run & (pushers << k * step)
                run &= defenders << k * step
                k += 1
    for step, edge in t.falling:
        run = defenders & edge
        if run:
            pushers = attackers & (attackers >> step)
            found |= run & (pushers >> step)
            run &= defenders >> step
            k = 2
            while run and k < limit:
                pushers &= attackers >> k * step
                if not pushers:
                    break
                found |= run & (pushers >> k * step)
                run &= defenders >> k * step
                k += 1
    return found


def material(ejected: int) -> int:
    """What a side's ejections are worth: each one more than the last."""
    return ejected * (EJECTION + NEARER_WIN * ejected)


def threat_score(mine: int, theirs: int, own_ejected: int, opp_ejected: int, win: int) -> int:
    """Tempo: `mine` pieces the mover can eject now, `theirs` it must guard against."""
    score = 0
    if mine:
        score += DECISIVE if own_ejected + 1 >= win else TEMPO_THREAT + EXTRA_THREAT * (mine - 1)
    if theirs:
        score -= THREATENED * theirs
        if theirs > 1:
            score -= DECISIVE if opp_ejected + 1 >= win else DOUBLE_THREAT
    return score


def evaluate_pair(
    own: int, opp: int, own_ejected: int, opp_ejected: int, t: Tables
) -> tuple[int, int]:
    """The position from the view of `own` with the move, and from the other side's view
    were it the other side's move: they differ only in tempo, so they are found together."""
    worth = 0
    for b, cells in enumerate(t.value_bits):
        worth += ((own & cells).bit_count() - (opp & cells).bit_count()) << b
    pairs = 0
    for step in PAIR_STEPS:
        pairs += (own & (own >> step)).bit_count() - (opp & (opp >> step)).bit_count()
    base = material(own_ejected) - material(opp_ejected) + WORTH_UNIT * worth + NEIGHBOUR * pairs
    mine = ejectable(own, opp, t).bit_count()
    theirs = ejectable(opp, own, t).bit_count()
    if not (mine or theirs):
        return base, -base
    win = t.win
    return (
        base + threat_score(mine, theirs, own_ejected, opp_ejected, win),
        threat_score(theirs, mine, opp_ejected, own_ejected, win) - base,
    )


def evaluate(own: int, opp: int, own_ejected: int, opp_ejected: int, t: Tables) -> int:
    """The position from the side to move's view, which has `own` pieces and the move."""
    return evaluate_pair(own, opp, own_ejected, opp_ejected, t)[0]
