"""Oubliette's search: alpha-beta (negamax with principal variation search) on bitboards.

A position is the two sides' pieces as bitboards, the mover's first; the ejections so far
ride along. Moves come in stages, each made only if the one before did not cut the search
off: the transposition table's move, ejections and pushes (more pushed first), two killer
moves a ply, then the quiet moves by the history heuristic. Null moves prune, and late
quiet moves are searched a ply shallower first; with `pruning` off the search is exact
alpha-beta, which the tests hold to plain minimax.
"""

from collections.abc import Iterator
from operator import itemgetter
from time import monotonic
from typing import Final, NamedTuple

from parlour.rules.hexgrid import BOARD, cells_of
from parlour.rules.oubliette import (
    _LINE_SPANS,
    DIRECTION_NAMES,
    Layout,
    MoveSet,
    OublietteMove,
    _move_sets,
)

from .oubliette_eval import Tables, evaluate_pair, tables
from .thinking import DECIDED, WIN, OutOfTime

Child = tuple[int, int, int, int, int]
"""A move and where it leads: (move key, the mover's pieces after, the other side's
pieces after, pieces pushed, 1 if a piece was ejected else 0)."""

INFINITY: Final = WIN + 1
EXACT, LOWER, UPPER = 0, 1, 2
"""What a stored score is: the value, at least the value, at most the value."""
CHECK_EVERY: Final = 200
"""Nodes between readings of the clock."""
MAX_PLY: Final = 128
TABLE_LIMIT: Final = 200_000
LEAF_LIMIT: Final = 400_000
"""Transposition table entries and evaluations kept before they are emptied, which holds
a worker's memory to some hundred megabytes however long it thinks."""
KILLER = 1 << 40
PUSH = 1 << 45
EJECT = 1 << 50
TABLE_MOVE = 1 << 60
"""Ordering ranks above any history count."""
NULL_FROM_DEPTH: Final = 1
NULL_REDUCTION: Final = 2
"""Null moves are tried from this depth, searched this many plies shallower than a move
would be; the evaluation's tempo terms stand in for a search of threats at the leaves."""
REDUCE_FROM_DEPTH: Final = 3
REDUCE_AFTER: Final = 4
"""From this depth, quiet moves after this many are first searched a ply shallower."""
DIRECTION_BITS: Final = 5
DIRECTION_OFFSET: Final = 12
"""A move key is the moved line's bitboard shifted left 5, plus its direction plus 12."""


def move_of_key(key: int) -> OublietteMove:
    """The rules' move for a move key."""
    line = key >> DIRECTION_BITS
    direction = (key & ((1 << DIRECTION_BITS) - 1)) - DIRECTION_OFFSET
    return OublietteMove(tuple(cells_of(line)), DIRECTION_NAMES[direction])


def children(own: int, opp: int, holes: int, blocks: int, limit: int) -> list[Child]:
    """Every legal move of the side with `own` pieces and the pieces each leaves."""
    empty = BOARD & ~(own | opp | holes | blocks)
    return expand(_move_sets(own, opp, holes, blocks, limit), own, opp, empty)


def expand(sets: list[MoveSet], own: int, opp: int, empty: int) -> list[Child]:
    """The moves in these move sets (as the rules group them) and the pieces each leaves."""
    found: list[Child] = []
    add = found.append
    for moving, length, axis, direction, pushed in sets:
        span = _LINE_SPANS[length, axis]
        code = direction + DIRECTION_OFFSET
        tails = moving
        if direction not in (axis, -axis):
            while tails:
                tail = tails & -tails
                tails ^= tail
                line = tail * span
                moved = line << direction if direction > 0 else line >> -direction
                add((line << DIRECTION_BITS | code, own ^ line ^ moved, opp, 0, 0))
            continue
        ahead = length * axis if direction > 0 else -axis
        rear = 0 if direction > 0 else (length - 1) * axis
        beyond = ahead + pushed * direction
        while tails:
            tail = tails & -tails
            tails ^= tail
            line = tail * span
            front = tail << ahead if ahead > 0 else tail >> -ahead
            moved = own ^ (tail << rear) ^ front
            if not pushed:
                add((line << DIRECTION_BITS | code, moved, opp, 0, 0))
                continue
            landing = (tail << beyond if beyond > 0 else tail >> -beyond) & empty
            add((line << DIRECTION_BITS | code, moved, opp ^ front ^ landing, pushed, not landing))
    return found


def play_key(  # noqa: PLR0917 (the hot path: positional arguments are the fastest)
    key: int, own: int, opp: int, empty: int, blocks: int, limit: int
) -> Child | None:
    """The move named by `key` played from this position, or None if it is not legal here."""
    line = key >> DIRECTION_BITS
    direction = (key & ((1 << DIRECTION_BITS) - 1)) - DIRECTION_OFFSET
    if line & ~own or line.bit_count() > limit:
        return None
    ahead = line << direction if direction > 0 else line >> -direction
    if not ahead & line:
        return (key, own ^ line ^ ahead, opp, 0, 0) if ahead & empty == ahead else None
    front = ahead & ~line
    rear = line & ~ahead
    if front & empty:
        return (key, own ^ rear ^ front, opp, 0, 0)
    if not front & opp:
        return None
    pushed = 0
    cell = front
    while cell & opp:
        pushed += 1
        cell = cell << direction if direction > 0 else cell >> -direction
    if pushed >= line.bit_count() or cell & (own | blocks):
        return None
    landing = cell & empty
    return (key, own ^ rear ^ front, opp ^ front ^ landing, pushed, 0 if landing else 1)


def push_rank(kid: Child) -> int:
    """Ejections first, then the moves that push more."""
    return kid[4] * EJECT + kid[3]


def to_table(score: int, ply: int) -> int:
    """A score as the table keeps it: forced results counted from the node, not the root."""
    if score >= DECIDED:
        return score + ply
    if score <= -DECIDED:
        return score - ply
    return score


def from_table(score: int, ply: int) -> int:
    """A kept score counted from the root again."""
    if score >= DECIDED:
        return score - ply
    if score <= -DECIDED:
        return score + ply
    return score


class RootResult(NamedTuple):
    """A root move found best so far in an iteration: its score (without the level's
    random preference) and line (move keys)."""

    score: int
    line: tuple[int, ...]


class Search:
    """One search from one position: its tables live as long as it does."""

    def __init__(
        self,
        layout: Layout,
        ejected: tuple[int, int],
        plies_left: int,
        stop_at: float,
        *,
        pruning: bool = True,
    ) -> None:
        self.holes = layout.holes
        self.blocks = layout.blocks
        self.limit = layout.limit
        self.win = layout.win
        self.tables: Tables = tables(layout.holes, layout.limit, layout.win)
        self.root_ejected = ejected
        """(the mover's ejections, the other side's) at the root."""
        self.plies_left = plies_left
        """Plies from the root to the ply limit, which draws the game."""
        self.stop_at = stop_at
        self.nodes = 0
        self.next_check = CHECK_EVERY
        self.table: dict[tuple[int, int, int], tuple[int, int, int, int]] = {}
        self.history: dict[int, int] = {}
        self.leaves: dict[tuple[int, int, int, int], int] = {}
        """Evaluations already made, by (own, opp, own ejections, opp ejections)."""
        self.killers: list[list[int]] = [[0, 0] for _ in range(MAX_PLY)]
        self.pv: list[tuple[int, ...]] = [() for _ in range(MAX_PLY + 1)]
        self.path: set[tuple[int, int, int]] = set()
        self.nulled = [False] * (MAX_PLY + 1)
        """Whether the node at each ply was reached by a null move."""
        self.pruning = pruning
        """Whether to prune and reduce by judgement (off: exact alpha-beta)."""

    def children(self, own: int, opp: int) -> list[Child]:
        """The moves of the side with `own` pieces."""
        return children(own, opp, self.holes, self.blocks, self.limit)

    def leaf(self, own: int, opp: int, own_ejected: int, opp_ejected: int) -> int:
        """The evaluation of a position, kept with the other side's view of it for later."""
        key = (own, opp, own_ejected, opp_ejected)
        leaves = self.leaves
        score = leaves.get(key)
        if score is None:
            if len(leaves) > LEAF_LIMIT:
                leaves.clear()
            score, other = evaluate_pair(own, opp, own_ejected, opp_ejected, self.tables)
            leaves[key] = score
            leaves[opp, own, opp_ejected, own_ejected] = other
        return score

    def ordered(self, kids: list[Child], table_move: int, ply: int) -> list[Child]:
        """The moves best first: table move, ejections, pushes, killers, then by history."""
        first_killer, second_killer = self.killers[ply]
        history = self.history
        ranked: list[tuple[int, Child]] = []
        for kid in kids:
            key = kid[0]
            if key == table_move:
                rank = TABLE_MOVE
            elif kid[4]:
                rank = EJECT + kid[3]
            elif kid[3]:
                rank = PUSH + kid[3]
            elif key in (first_killer, second_killer):
                rank = KILLER
            else:
                rank = history.get(key, 0)
            ranked.append((rank, kid))
        ranked.sort(key=itemgetter(0), reverse=True)
        return [kid for _, kid in ranked]

    def remember_cutoff(self, key: int, depth: int, ply: int) -> None:
        """A quiet move refuted the line: keep it as a killer and credit its history."""
        killers = self.killers[ply]
        if killers[0] != key:
            killers[1] = killers[0]
            killers[0] = key
        self.history[key] = self.history.get(key, 0) + depth * depth

    def negamax(  # noqa: PLR0917 (the hot path: positional arguments are the fastest)
        self,
        own: int,
        opp: int,
        own_ejected: int,
        opp_ejected: int,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
    ) -> int:
        """The position's value to the side to move (`own`), searched `depth` plies."""
        self.nodes += 1
        if self.nodes >= self.next_check:
            self.next_check = self.nodes + CHECK_EVERY
            if monotonic() >= self.stop_at:
                raise OutOfTime
        pv = self.pv
        pv[ply] = ()
        if ply >= self.plies_left:
            return 0
        if depth <= 0:
            return self.leaf(own, opp, own_ejected, opp_ejected)
        key = (own, opp, ply & 1)
        if key in self.path:
            return 0
        use_table = ply + depth < self.plies_left
        table_move = 0
        if use_table:
            entry = self.table.get(key)
            if entry is not None:
                stored_depth, flag, stored, table_move = entry
                if stored_depth >= depth:
                    score = from_table(stored, ply)
                    if (
                        flag == EXACT
                        or (flag == LOWER and score >= beta)
                        or (flag == UPPER and score <= alpha)
                    ):
                        if flag == EXACT and table_move:
                            pv[ply] = (table_move,)
                        return score
        if beta - alpha == 1 and self.pruning:
            pruned = self.prune(own, opp, own_ejected, opp_ejected, depth, beta, ply)
            if pruned is not None:
                return pruned
        best, best_move = self.search_children(
            self.moves(own, opp, table_move, ply),
            own_ejected,
            opp_ejected,
            depth,
            alpha,
            beta,
            ply,
            key,
        )
        if best == -INFINITY:
            return ply - WIN
        if use_table:
            if len(self.table) > TABLE_LIMIT:
                self.table.clear()
            flag = UPPER if best <= alpha else LOWER if best >= beta else EXACT
            self.table[key] = (depth, flag, to_table(best, ply), best_move)
        return best

    def prune(  # noqa: PLR0917 (the hot path: positional arguments are the fastest)
        self, own: int, opp: int, own_ejected: int, opp_ejected: int, depth: int, beta: int,
        ply: int,
    ) -> int | None:  # fmt: skip
        """A score of at least `beta` if passing the move (a null move) still reaches beta
        in a shallower search: a side is rarely worse off for having the move."""
        if (
            depth < NULL_FROM_DEPTH
            or self.nulled[ply]
            or abs(beta) >= DECIDED
            or opp_ejected + 1 >= self.win
            or self.leaf(own, opp, own_ejected, opp_ejected) < beta
        ):
            return None
        null_depth = depth - 1 - NULL_REDUCTION
        if null_depth <= 0 and ply + 1 < self.plies_left:
            self.nodes += 1
            score = -self.leaf(opp, own, opp_ejected, own_ejected)
        else:
            self.nulled[ply + 1] = True
            try:
                score = -self.negamax(
                    opp, own, opp_ejected, own_ejected, null_depth, -beta, -beta + 1, ply + 1
                )
            finally:
                self.nulled[ply + 1] = False
        return score if beta <= score < DECIDED else None

    def moves(self, own: int, opp: int, table_move: int, ply: int) -> Iterator[Child]:
        """The moves in the order to try them, each stage made only when it is reached: the
        table's move, ejections and pushes, the killers, then the quiet moves by history."""
        empty = BOARD & ~(own | opp | self.holes | self.blocks)
        if table_move:
            first = play_key(table_move, own, opp, empty, self.blocks, self.limit)
            if first is not None:
                yield first
        sets = _move_sets(own, opp, self.holes, self.blocks, self.limit)
        pushes = expand([found for found in sets if found[4]], own, opp, empty)
        if pushes:
            pushes.sort(key=push_rank, reverse=True)
            for kid in pushes:
                if kid[0] != table_move:
                    yield kid
        killers = self.killers[ply]
        for killer in killers:
            if killer and killer != table_move:
                found_killer = play_key(killer, own, opp, empty, self.blocks, self.limit)
                if found_killer is not None and not found_killer[3]:
                    yield found_killer
        history = self.history
        quiet = [
            (history.get(kid[0], 0), kid)
            for kid in expand([found for found in sets if not found[4]], own, opp, empty)
        ]
        quiet.sort(key=itemgetter(0), reverse=True)
        skip = (table_move, *killers)
        for _, kid in quiet:
            if kid[0] not in skip:
                yield kid

    def search_children(  # noqa: PLR0917 (the hot path: positional arguments are the fastest)
        self,
        kids: Iterator[Child],
        own_ejected: int,
        opp_ejected: int,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        key: tuple[int, int, int],
    ) -> tuple[int, int]:
        """The best value among the ordered moves and the move that gives it (PVS, with
        late quiet moves searched a ply shallower first)."""
        pv = self.pv
        win_now = own_ejected + 1 >= self.win
        frontier = depth == 1
        draw_next = ply + 1 >= self.plies_left
        reduce = depth >= REDUCE_FROM_DEPTH and self.pruning
        killers = self.killers[ply]
        leaf = self.leaf
        negamax = self.negamax
        best, best_move = -INFINITY, 0
        self.path.add(key)
        for tried, kid in enumerate(kids):
            move, own, opp, pushed, ejects = kid
            if ejects and win_now:
                self.path.discard(key)
                pv[ply] = (move,)
                return WIN - ply - 1, move
            if draw_next:
                score = 0
                pv[ply + 1] = ()
            elif frontier:
                self.nodes += 1
                score = -leaf(opp, own, opp_ejected, own_ejected + ejects)
                pv[ply + 1] = ()
            elif tried == 0:
                score = -negamax(
                    opp, own, opp_ejected, own_ejected + ejects, depth - 1, -beta, -alpha, ply + 1
                )
            else:
                next_depth = depth - 1
                if reduce and tried >= REDUCE_AFTER and not pushed and move not in killers:
                    next_depth -= 1
                score = -negamax(
                    opp, own, opp_ejected, own_ejected + ejects, next_depth, -alpha - 1, -alpha,
                    ply + 1,
                )  # fmt: skip
                if score > alpha and next_depth < depth - 1:
                    score = -negamax(
                        opp, own, opp_ejected, own_ejected + ejects, depth - 1, -alpha - 1,
                        -alpha, ply + 1,
                    )  # fmt: skip
                if alpha < score < beta:
                    score = -negamax(
                        opp, own, opp_ejected, own_ejected + ejects, depth - 1, -beta, -alpha,
                        ply + 1,
                    )  # fmt: skip
            if score > best:
                best, best_move = score, move
                if score > alpha:
                    alpha = score
                    pv[ply] = (move, *pv[ply + 1])
                    if alpha >= beta:
                        if not pushed:
                            self.remember_cutoff(move, depth, ply)
                        break
        self.path.discard(key)
        return best, best_move

    def root_children(self, own: int, opp: int) -> list[Child]:
        """The root's moves, ejections and pushes first."""
        return self.ordered(self.children(own, opp), 0, 0)

    def iterate(
        self, own: int, opp: int, roots: list[Child], depth: int, noise: dict[int, int]
    ) -> Iterator[RootResult]:
        """One iteration at the root: each move found best so far, then the scores of all.

        `roots` is searched in order and reordered in place, best first, once the iteration
        completes. `noise` adds a level's small random preference to each move's estimate.
        """
        win_now = self.root_ejected[0] + 1 >= self.win
        alpha, beta = -INFINITY, INFINITY
        scores: dict[int, int] = {}
        self.path = {(own, opp, 0)}
        for kid in roots:
            move, ejects = kid[0], kid[4]
            bias = noise.get(move, 0)
            if ejects and win_now:
                score = WIN - 1
                self.pv[1] = ()
            elif alpha == -INFINITY:
                score = self.root_move(kid, depth, alpha, beta, bias)
            else:
                score = self.root_move(kid, depth, alpha, alpha + 1, bias)
                if score > alpha:
                    score = self.root_move(kid, depth, alpha, beta, bias)
            scores[move] = score
            if score > alpha:
                alpha = score
                honest = score if abs(score) >= DECIDED else score - bias
                yield RootResult(honest, (move, *self.pv[1]))
                if score >= DECIDED:
                    break
        roots.sort(key=lambda kid: scores.get(kid[0], -INFINITY), reverse=True)

    def root_move(self, kid: Child, depth: int, alpha: int, beta: int, bias: int) -> int:
        """One root move's score in the window (alpha, beta), its bias included."""
        _, own, opp, _, ejects = kid
        own_ejected, opp_ejected = self.root_ejected
        low, high = alpha - bias, beta - bias
        score = -self.negamax(
            opp, own, opp_ejected, own_ejected + ejects, depth - 1, -high, -low, 1
        )
        return score if abs(score) >= DECIDED else score + bias
