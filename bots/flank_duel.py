"""Two-seat search (Doublolo, Othello): iterative-deepening principal variation search.

Negamax alpha-beta with null windows after the first move, the previous iteration's best
move first at the root, a transposition table's move, killer moves and a history table at
inner nodes, and optionally ordering by the replies a move leaves (fastest first). Once the
depth reaches the number of empty squares every line ends in a finished game, so the
result is exact: a win in n plies scores `WIN - n`.
"""

from .flank_eval import make_eval2
from .flank_search import INFINITY, Config, Search, load_score, store_score
from .flank_shape import Shape
from .thinking import WIN, Deadline

EXACT, LOWER, UPPER = 0, 1, 2
TABLE_LIMIT = 400_000
"""Entries before the transposition table is cleared, to bound memory (tens of MB)."""
TT_FIRST = 1 << 40
KILLER = 1 << 30
REPLY_WEIGHT = 400


class Duel(Search):
    """One two-seat search from one position, `own` to move."""

    def __init__(
        self, shape: Shape, config: Config, deadline: Deadline, own: int, opp: int
    ) -> None:
        super().__init__(shape, config, deadline)
        self.own = own
        self.opp = opp
        self.moves2 = shape.moves2
        self.flips2 = shape.flips2
        self.evaluate = make_eval2(shape, config.weights)
        self.use_table = config.transpositions
        self.table: dict[tuple[int, int], tuple[int, int, int, int, int]] = {}
        self.history: dict[int, int] = {}
        plies = 2 * shape.free.bit_count() + 4
        self.killers = [[0, 0] for _ in range(plies)]
        self.lines: list[tuple[int, ...]] = [()] * plies

    def _child(self, bit: int) -> tuple[int, int]:
        """The position after root move `bit`, the opponent to move."""
        flipped = self.flips2(bit, self.own, self.opp)
        return self.opp ^ flipped, self.own | flipped | bit

    def _quick_score(self, bit: int) -> int:
        own, opp = self._child(bit)
        empty = self.free & ~(own | opp)
        return -self.evaluate(own, opp, empty, self.moves2(own, opp, empty))

    def _score_move(self, bit: int, depth: int, alpha: int, beta: int) -> int:
        own, opp = self._child(bit)
        return -self._search(own, opp, depth - 1, -beta, -alpha, 1)

    def _line_after(self, bit: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        return (bit, *self.lines[1]), ()

    def _final(self, own: int, opp: int, ply: int) -> int:
        """A finished game: won, lost or drawn, sooner being better for the winner; a draw
        costs the root seat its contempt (`own` is the root seat at even plies)."""
        margin = self.points(own) - self.points(opp)
        if margin > 0:
            return WIN - ply
        if margin < 0:
            return ply - WIN
        return -self.config.contempt if ply % 2 == 0 else self.config.contempt

    def _search(  # noqa: PLR0917 (the hot path: positional arguments are the fastest)
        self, own: int, opp: int, depth: int, alpha: int, beta: int, ply: int
    ) -> int:
        """The negamax score of the position with `own` to move, within (alpha, beta)."""
        self.clock.tick()
        lines = self.lines
        lines[ply] = ()
        empty = self.free & ~(own | opp)
        moves = self.moves2(own, opp, empty)
        if not moves:
            if not self.moves2(opp, own, empty):
                return self._final(own, opp, ply)
            score = -self._search(opp, own, depth, -beta, -alpha, ply + 1)
            lines[ply] = lines[ply + 1]
            return score
        if depth <= 0:
            self.estimates += 1
            return self.evaluate(own, opp, empty, moves)
        estimates = self.estimates
        table_move = 0
        if self.use_table:
            entry = self.table.get((own, opp))
            if entry is not None:
                stored_depth, flag, stored, table_move, estimated = entry
                if stored_depth >= depth:
                    stored = load_score(stored, ply)
                    if (
                        flag == EXACT
                        or (flag == LOWER and stored >= beta)
                        or (flag == UPPER and stored <= alpha)
                    ):
                        lines[ply] = (table_move,)
                        self.estimates += estimated
                        return stored
        order = (
            [moves]
            if not moves & (moves - 1)
            else self._order(own, opp, empty, moves, table_move, ply, depth)
        )
        original_alpha = alpha
        best, best_move = -INFINITY, 0
        flips2 = self.flips2
        search = self._search
        for index, bit in enumerate(order):
            flipped = flips2(bit, own, opp)
            new_own, new_opp = opp ^ flipped, own | flipped | bit
            if index == 0:
                score = -search(new_own, new_opp, depth - 1, -beta, -alpha, ply + 1)
            else:
                score = -search(new_own, new_opp, depth - 1, -alpha - 1, -alpha, ply + 1)
                if alpha < score < beta:
                    score = -search(new_own, new_opp, depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best, best_move = score, bit
                if score > alpha:
                    alpha = score
                    lines[ply] = (bit, *lines[ply + 1])
                    if alpha >= beta:
                        self._remember_cutoff(bit, ply, depth)
                        break
        if self.use_table:
            if len(self.table) >= TABLE_LIMIT:
                self.table.clear()
            flag = LOWER if best >= beta else UPPER if best <= original_alpha else EXACT
            estimated = int(self.estimates != estimates)
            self.table[own, opp] = (depth, flag, store_score(best, ply), best_move, estimated)
        return best

    def _remember_cutoff(self, bit: int, ply: int, depth: int) -> None:
        """A move that refuted its sibling: try it early at this ply and everywhere."""
        killers = self.killers[ply]
        if killers[0] != bit:
            killers[1] = killers[0]
            killers[0] = bit
        self.history[bit] = self.history.get(bit, 0) + depth * depth

    def _order(  # noqa: PLR0917 (on the hot path too)
        self, own: int, opp: int, empty: int, moves: int, table_move: int, ply: int, depth: int
    ) -> list[int]:
        """The moves best first: the table's move, killers, then history and square worth,
        or at deep enough nodes the moves that leave the opponent fewest replies."""
        first, second = self.killers[ply]
        priorities = self.priorities
        history = self.history
        by_replies = 0 < self.config.reply_order_depth <= depth
        moves2, flips2 = self.moves2, self.flips2
        keyed = []
        while moves:
            bit = moves & -moves
            moves ^= bit
            if bit == table_move:
                key = TT_FIRST
            elif bit in (first, second):
                key = KILLER + priorities[bit]
            else:
                key = priorities[bit] + history.get(bit, 0)
                if by_replies:
                    flipped = flips2(bit, own, opp)
                    replies = moves2(opp ^ flipped, own | flipped | bit, empty ^ bit)
                    key -= REPLY_WEIGHT * replies.bit_count()
            keyed.append((key, bit))
        keyed.sort(reverse=True)
        return [bit for _, bit in keyed]
