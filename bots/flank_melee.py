"""Three-seat search (Tribolo, Numlo): paranoid or best-reply search, deepening iteratively.

Pieces are kept from the root seat's view: `root`, then `a` (the seat after it in turn
order), then `b`. Scores are always the root seat's.

- Paranoid search lets both other seats play in turn, each choosing what is worst for the
  root: a two-sided alpha-beta, and a proof of a win once it reaches the end of the game.
- Best-reply search (Schadd and Winands, 2011) lets only one opponent reply between the
  root's moves, the one whose reply hurts most; the other passes. That sees twice as many
  of the root's own moves for the same depth, at the price of lines out of turn (the line
  reported is cut where it leaves the turn order) and of never proving anything.
"""

from .flank_eval import POINT, UNKNOWN, Known, make_eval3
from .flank_search import INFINITY, Config, Search, load_score, store_score
from .flank_shape import Shape
from .thinking import DECIDED, WIN, Deadline

EXACT, LOWER, UPPER = 0, 1, 2
TABLE_LIMIT = 300_000
TT_FIRST = 1 << 40
KILLER = 1 << 30
UNPROVEN_WIN = DECIDED // 2
"""What a won finish scores in best-reply search, whose results prove nothing."""

Pieces = tuple[int, int, int]
Line = tuple[tuple[int, int], ...]
"""(seat, move bit) pairs, seats counted from the root: 0 root, 1 `a`, 2 `b`."""


class Melee(Search):
    """One three-seat search from one position, the root seat to move."""

    def __init__(self, shape: Shape, config: Config, deadline: Deadline, pieces: Pieces) -> None:
        super().__init__(shape, config, deadline)
        self.pieces = pieces
        self.moves3 = shape.moves3
        self.flips3 = shape.flips3
        self.evaluate = make_eval3(shape, config.weights)
        self.paranoid = config.multi == "paranoid"
        self.use_table = config.transpositions
        self.table: dict[tuple[int, int, int, int], tuple[int, int, int, int, int]] = {}
        self.history: list[dict[int, int]] = [{}, {}, {}]
        plies = 2 * shape.free.bit_count() + 4
        self.killers = [[0, 0] for _ in range(plies)]
        self.lines: list[Line] = [()] * plies

    def _child(self, bit: int) -> Pieces:
        """The pieces after root move `bit`."""
        root, a, b = self.pieces
        flipped = self.flips3(bit, root, a, b)
        return root | flipped | bit, a & ~flipped, b & ~flipped

    def _quick_score(self, bit: int) -> int:
        root, a, b = self._child(bit)
        return self.evaluate(root, a, b, self.free & ~(root | a | b), UNKNOWN)

    def _score_move(self, bit: int, depth: int, alpha: int, beta: int) -> int:
        root, a, b = self._child(bit)
        if self.paranoid:
            return self._paranoid(root, a, b, 1, depth - 1, alpha, beta, 1)
        return self._best_reply(root, a, b, False, depth - 1, alpha, beta, 1)

    def _line_after(self, bit: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        line = ((0, bit), *self.lines[1])
        return tuple(move for _, move in line), tuple(seat for seat, _ in line)

    def _proven(self, score: int) -> bool:
        return not self.estimates or (self.paranoid and abs(score) >= DECIDED)

    def _final(self, root: int, a: int, b: int, ply: int) -> int:
        """A finished game: won if the root seat tops the scores alone, sooner being better.

        Otherwise it scores the root's points less the best rival's, less the contempt: a
        line the others must gang up to win is no forced loss, and a bot that thought it
        one would stop fighting.
        """
        mine = self.points(root)
        rival = max(self.points(a), self.points(b))
        if mine > rival:
            return (WIN if self.paranoid else UNPROVEN_WIN) - ply
        return (mine - rival) * POINT - self.config.contempt

    def _moves_of(self, seat: int, root: int, a: int, b: int, empty: int) -> int:
        """The moves of `seat` (0 root, 1 `a`, 2 `b`)."""
        if seat == 0:
            return self.moves3(root, a, b, empty)
        if seat == 1:
            return self.moves3(a, b, root, empty)
        return self.moves3(b, root, a, empty)

    def _play(self, seat: int, bit: int, root: int, a: int, b: int) -> Pieces:
        """The pieces after `seat` plays `bit`."""
        if seat == 0:
            flipped = self.flips3(bit, root, a, b)
            return root | flipped | bit, a & ~flipped, b & ~flipped
        if seat == 1:
            flipped = self.flips3(bit, a, b, root)
            return root & ~flipped, a | flipped | bit, b & ~flipped
        flipped = self.flips3(bit, b, root, a)
        return root & ~flipped, a & ~flipped, b | flipped | bit

    def _probe(
        self, key: tuple[int, int, int, int], depth: int, alpha: int, beta: int, ply: int
    ) -> tuple[int | None, int]:
        """A usable stored score (or None) and the stored best move (or 0)."""
        entry = self.table.get(key)
        if entry is None:
            return None, 0
        stored_depth, flag, stored, move, estimated = entry
        if stored_depth >= depth:
            stored = load_score(stored, ply)
            if (
                flag == EXACT
                or (flag == LOWER and stored >= beta)
                or (flag == UPPER and stored <= alpha)
            ):
                self.estimates += estimated
                return stored, move
        return None, move

    def _store(
        self, key: tuple[int, int, int, int], entry: tuple[int, int, int, int, int]
    ) -> None:
        """Keep a node's (depth, kind of score, score, best move, whether estimated)."""
        if len(self.table) >= TABLE_LIMIT:
            self.table.clear()
        self.table[key] = entry

    def _paranoid(  # noqa: PLR0917 (the hot path: positional arguments are the fastest)
        self, root: int, a: int, b: int, seat: int, depth: int, alpha: int, beta: int, ply: int
    ) -> int:
        """The root's score with `seat` next in turn (passed over if it cannot move): the
        root maximises, the others minimise."""
        self.clock.tick()
        lines = self.lines
        lines[ply] = ()
        empty = self.free & ~(root | a | b)
        moves = self._moves_of(seat, root, a, b, empty)
        if not moves:
            following = (seat + 1) % 3
            if not (
                self._moves_of(following, root, a, b, empty)
                or self._moves_of((seat + 2) % 3, root, a, b, empty)
            ):
                return self._final(root, a, b, ply)
            score = self._paranoid(root, a, b, following, depth, alpha, beta, ply + 1)
            lines[ply] = lines[ply + 1]
            return score
        if depth <= 0:
            self.estimates += 1
            known = (
                (moves, -1, -1) if seat == 0 else (-1, moves, -1) if seat == 1 else (-1, -1, moves)
            )
            return self.evaluate(root, a, b, empty, known)
        estimates = self.estimates
        key = (root, a, b, seat)
        table_move = 0
        if self.use_table:
            stored, table_move = self._probe(key, depth, alpha, beta, ply)
            if stored is not None:
                lines[ply] = ((seat, table_move),)
                return stored
        window = (alpha, beta)
        order = [moves] if not moves & (moves - 1) else self._order(seat, moves, table_move, ply)
        maximise = seat == 0
        best = -INFINITY if maximise else INFINITY
        best_move = 0
        following = (seat + 1) % 3
        for bit in order:
            child = self._play(seat, bit, root, a, b)
            score = self._paranoid(*child, following, depth - 1, alpha, beta, ply + 1)
            if maximise:
                if score > best:
                    best, best_move = score, bit
                    if score > alpha:
                        alpha = score
                        lines[ply] = ((seat, bit), *lines[ply + 1])
            elif score < best:
                best, best_move = score, bit
                if score < beta:
                    beta = score
                    lines[ply] = ((seat, bit), *lines[ply + 1])
            if alpha >= beta:
                self._remember_cutoff(seat, bit, ply, depth)
                break
        if self.use_table:
            estimated = int(self.estimates != estimates)
            entry = (depth, _kind(best, window), store_score(best, ply), best_move, estimated)
            self._store(key, entry)
        return best

    def _best_reply(  # noqa: PLR0917 (the hot path: positional arguments are the fastest)
        self, root: int, a: int, b: int, root_turn: bool, depth: int, alpha: int, beta: int,
        ply: int,
    ) -> int:  # fmt: skip
        """The root's score in best-reply search: the root's turn, or the others' (one of
        them replies, whichever hurts the root most)."""
        self.clock.tick()
        lines = self.lines
        lines[ply] = ()
        empty = self.free & ~(root | a | b)
        root_moves = self.moves3(root, a, b, empty) if root_turn else 0
        replies = [] if root_turn else self._replies(root, a, b, empty)
        if not root_moves and not replies:
            if root_turn:
                replies = self._replies(root, a, b, empty)
            else:
                root_moves = self.moves3(root, a, b, empty)
            if not root_moves and not replies:
                return self._final(root, a, b, ply)
            score = self._best_reply(root, a, b, not root_turn, depth, alpha, beta, ply + 1)
            lines[ply] = lines[ply + 1]
            return score
        if depth <= 0:
            self.estimates += 1
            return self.evaluate(root, a, b, empty, self._known(root_moves, replies))
        estimates = self.estimates
        key = (root, a, b, 0 if root_turn else 1)
        table_move = 0
        if self.use_table:
            stored, table_move = self._probe(key, depth, alpha, beta, ply)
            if stored is not None:
                return stored
        window = (alpha, beta)
        if root_turn:
            moves = [(0, bit) for bit in self._order(0, root_moves, table_move, ply)]
        else:
            moves = self._order_replies(replies, table_move, ply)
        best = -INFINITY if root_turn else INFINITY
        best_move = 0
        for seat, bit in moves:
            child = self._play(seat, bit, root, a, b)
            score = self._best_reply(*child, not root_turn, depth - 1, alpha, beta, ply + 1)
            if root_turn:
                if score > best:
                    best, best_move = score, bit
                    if score > alpha:
                        alpha = score
                        lines[ply] = ((seat, bit), *lines[ply + 1])
            elif score < best:
                best, best_move = score, bit
                if score < beta:
                    beta = score
                    lines[ply] = ((seat, bit), *lines[ply + 1])
            if alpha >= beta:
                self._remember_cutoff(seat, bit, ply, depth)
                break
        if self.use_table:
            estimated = int(self.estimates != estimates)
            entry = (depth, _kind(best, window), store_score(best, ply), best_move, estimated)
            self._store(key, entry)
        return best

    @staticmethod
    def _known(root_moves: int, replies: list[tuple[int, int]]) -> Known:
        """The moves a best-reply node has worked out, for the evaluation."""
        if root_moves:
            return root_moves, -1, -1
        found = dict(replies)
        return -1, found.get(1, 0), found.get(2, 0)

    def _replies(self, root: int, a: int, b: int, empty: int) -> list[tuple[int, int]]:
        """Every move of either opponent, as (seat, move mask) pairs with a non-empty mask."""
        a_moves = self.moves3(a, b, root, empty)
        b_moves = self.moves3(b, root, a, empty)
        return [(seat, mask) for seat, mask in ((1, a_moves), (2, b_moves)) if mask]

    def _remember_cutoff(self, seat: int, bit: int, ply: int, depth: int) -> None:
        """A move that refuted its sibling: try it early at this ply and everywhere."""
        killers = self.killers[ply]
        if killers[0] != bit:
            killers[1] = killers[0]
            killers[0] = bit
        history = self.history[seat]
        history[bit] = history.get(bit, 0) + depth * depth

    def _key(self, seat: int, bit: int, table_move: int, ply: int) -> int:
        """How early to try `seat`'s move `bit`: table move, killers, history, square."""
        if bit == table_move:
            return TT_FIRST
        if bit in self.killers[ply]:
            return KILLER + self.priorities[bit]
        return self.priorities[bit] + self.history[seat].get(bit, 0)

    def _order(self, seat: int, moves: int, table_move: int, ply: int) -> list[int]:
        """`seat`'s moves, the most promising first."""
        keyed = []
        while moves:
            bit = moves & -moves
            moves ^= bit
            keyed.append((self._key(seat, bit, table_move, ply), bit))
        keyed.sort(reverse=True)
        return [bit for _, bit in keyed]

    def _order_replies(
        self, replies: list[tuple[int, int]], table_move: int, ply: int
    ) -> list[tuple[int, int]]:
        """Both opponents' moves together, the most promising first."""
        keyed = []
        for seat, mask in replies:
            moves = mask
            while moves:
                bit = moves & -moves
                moves ^= bit
                keyed.append((self._key(seat, bit, table_move, ply), seat, bit))
        keyed.sort(reverse=True)
        return [(seat, bit) for _, seat, bit in keyed]


def _kind(score: int, window: tuple[int, int]) -> int:
    """Whether a score found in `window` is a lower bound, an upper bound or exact."""
    alpha, beta = window
    return LOWER if score >= beta else UPPER if score <= alpha else EXACT
