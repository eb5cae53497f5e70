"""Double-dummy solver: the Python API over the compiled kernels. ``core_nb`` holds what both searches
share (state, table, move ordering), ``search3_nb`` and ``search2_nb`` the node searches of three
and two players, ``drivers_nb`` the questions asked of either (each written once), ``discard_nb``
the declarer's discard. It imports only ``sim.game``; the players built on it (dd, pimc) live in
``sim.players``.

A position is a trick start: three hands of equal size 1..8 (seat 0 the declarer, seat 1 plays
after him, seat 2 after seat 1), the seat on lead, the trump (-1 or None for none, 0..3 or S C D H),
the seat that declared it (``trump_owner``, for no_lead_foreign_trump), the seats that have already
won a trick, and the declarer's ``unsecured`` marriage points (declared before his first trick under
marriage_burns_without_trick). Its value is the declarer's points still to come. docs/solver.md has
the exact semantics of every play option.

Two hands make a position of the two-player game (RULES.md §4.1): the declarer (seat 0) and the
defender (seat 1) hold 1..10 cards each, and ``last_bonus`` points (the unused talon's) go to the
winner of the last trick, so they count in the value when the declarer wins it.

Batches run on a thread pool over fixed chunks; each position is solved from a fresh table
generation, so answers and node counts never depend on the number of threads.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from sim import InputError
from sim.game.cards import CardError, format_card, parse_hand, suit_index
from sim.game.play_nb import givable_cards, mask_points
from sim.game.rules import HouseRules, RulesError, load_rules
from sim.parallel import run_chunks, run_tasks, thread_buffers
from sim.solver import core_nb, discard_nb, drivers_nb, search2_nb, search3_nb

__all__ = [
    "TABLE_LOG2_ROWS", "PIMC_TABLE_LOG2_ROWS", "CHUNK", "PLAY_OPTIONS", "SolverInputError", "search_buffers",
    "Positions", "MAX_CARDS", "positions", "dd_values", "dd_at_least", "lead_values", "Play", "principal_variation",
    "best_discard", "best_discard2", "SolvedLayout", "solve_layout", "solve_layouts", "RulesLike",
]

# Rules as every function here takes them: a HouseRules, a preset name or TOML file, or None (classic).
RulesLike = HouseRules | str | None

TABLE_LOG2_ROWS = 18  # 2^18 rows of 24 bytes per thread: far more than an 8-card solve fills
# PIMC solves many small positions, each from a fresh table generation: a table of 2^14 rows
# (384 KiB) stays in the core's cache and plays whole PIMC deals about 15-20% faster than 2^18
# (benchmarks/bench_pimc.py). Its choices come from exact values, so the table's size never
# changes them; the dd player's does (among equal moves it takes the table's best first), which
# keeps TABLE_LOG2_ROWS.
PIMC_TABLE_LOG2_ROWS = 14
CHUNK = 32
PLAY_OPTIONS = ("must_head", "marriage_first_lead", "marriage_burns_without_trick", "marriage_optional",
                "ace_marriage", "half_marriage", "no_lead_foreign_trump", "must_lead_trump", "marriage_values",
                "marriage_min_cards", "marriage_trump_from")


class SolverInputError(InputError):
    """A position the solver cannot take; the message says what is wrong."""


# ---- buffers, one set per thread --------------------------------------------------------------
def search_buffers(table_log2: int = TABLE_LOG2_ROWS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """New buffers of one search: (state, move rows, transposition table of 2**table_log2 rows)."""
    st, work = core_nb.new_work()
    return st, work, core_nb.new_table(table_log2)


def _buffers():
    return thread_buffers("solver", search_buffers)


# ---- input checks -----------------------------------------------------------------------------
def _rules_array(rules: RulesLike) -> np.ndarray:
    if isinstance(rules, HouseRules):
        return rules.to_array()
    return load_rules(rules).to_array()


def _rules_record(rules: RulesLike) -> HouseRules:
    return rules if isinstance(rules, HouseRules) else load_rules(rules)


def _trump_index(trump) -> int:
    if trump is None:
        return -1
    if isinstance(trump, str):
        if trump.strip().upper() in ("", "NONE", "-", "NT"):
            return -1
        suit = suit_index(trump)
        if suit is None:
            raise SolverInputError(f"trump {trump!r}: write S, C, D, H or none")
        return suit
    t = int(trump)
    if not -1 <= t <= 3:
        raise SolverInputError(f"trump {trump!r}: must be -1 (none) or 0..3 (S C D H)")
    return t


def _seat_names(seats: int) -> str:
    return "0 or 1" if seats == 2 else "0, 1 or 2"


def _won_mask(won, seats: int = 3) -> int:
    if isinstance(won, str):
        won = [w for w in won.replace(" ", "").split(",") if w]
    mask = 0
    for w in won:
        try:
            s = int(w)
        except (TypeError, ValueError):
            raise SolverInputError(f"won-trick seat {w!r}: must be {_seat_names(seats)}") from None
        if not 0 <= s < seats:
            raise SolverInputError(f"won-trick seat {s}: must be {_seat_names(seats)}")
        mask |= 1 << s
    return mask


def _column(value, n: int, name: str, convert) -> np.ndarray:
    """A per-position option: one value for all rows, or an array of n values."""
    if isinstance(value, np.ndarray) and value.ndim == 1:
        if value.shape[0] != n:
            raise SolverInputError(f"{name}: {value.shape[0]} values for {n} positions")
        return np.array([convert(v) for v in value.tolist()], dtype=np.int64)
    return np.full(n, convert(value), dtype=np.int64)


@dataclass(frozen=True)
class Positions:
    """Checked positions in the kernels' columns (``hands`` has 2 columns in the two-player game)."""

    hands: np.ndarray
    leaders: np.ndarray
    trumps: np.ndarray
    owners: np.ndarray
    won: np.ndarray
    unsecured: np.ndarray
    last_bonus: np.ndarray
    rules: np.ndarray

    @property
    def seats(self) -> int:
        return self.hands.shape[1]


MAX_CARDS = {3: 8, 2: 10}  # cards per hand at the start of the play


def positions(hands: ArrayLike, *, leader: int | ArrayLike = 0, trump: int | ArrayLike | None = None,
              won: Iterable[int] | np.ndarray = (), trump_owner: int | ArrayLike | None = None,
              unsecured: int | ArrayLike = 0, last_bonus: int | ArrayLike = 0, rules: RulesLike = None) -> Positions:
    """Check positions and bring them to the kernels' columns. ``hands``: integer array (n, 3), or
    (n, 2) for the two-player game. Options are one value for all positions or (numpy arrays) one
    per position; ``won`` is a collection of seats, or a numpy array of per-position bitmasks (bit
    s = seat s); ``last_bonus`` (two players only) the points the last trick's winner also takes."""
    h = np.asarray(hands)
    if h.ndim != 2 or h.shape[1] not in (2, 3) or not np.issubdtype(h.dtype, np.integer):
        raise SolverInputError(f"hands must be an integer array of shape (n, 3), or (n, 2) for two players, "
                               f"got {h.dtype} {h.shape}")
    h = h.astype(np.int64)
    n, seats = h.shape
    rec = _rules_record(rules)
    arr = rec.to_array()
    leaders = _column(leader, n, "leader", int)
    trumps = _column(trump, n, "trump", _trump_index)
    owners = _column(-1 if trump_owner is None else trump_owner, n, "trump_owner", int)
    if isinstance(won, np.ndarray):
        won_masks = _column(won, n, "won", int)
    else:
        won_masks = np.full(n, _won_mask(won, seats), dtype=np.int64)
    unsec = _column(unsecured, n, "unsecured", int)
    bonus = _column(last_bonus, n, "last_bonus", int)
    for i in range(n):
        where = f"position {i}: " if n > 1 else ""
        row = [int(x) for x in h[i]]
        if any(x < 0 or x >> 24 for x in row):
            raise SolverInputError(f"{where}hand masks must be 24-bit card masks")
        sizes = [bin(x).count("1") for x in row]
        if len(set(sizes)) != 1:
            raise SolverInputError(f"{where}hands must have equal sizes, got {', '.join(map(str, sizes))} cards")
        if not 1 <= sizes[0] <= MAX_CARDS[seats]:
            raise SolverInputError(f"{where}hands must hold 1..{MAX_CARDS[seats]} cards each, got {sizes[0]}")
        dup = 0
        for a in range(seats):
            for b in range(a + 1, seats):
                dup |= row[a] & row[b]
        if dup:
            raise SolverInputError(f"{where}card {format_card((dup & -dup).bit_length() - 1)} is in two hands")
        if not 0 <= leaders[i] < seats:
            raise SolverInputError(f"{where}leader {leaders[i]}: must be {_seat_names(seats)}")
        if not 0 <= won_masks[i] < 1 << seats:
            raise SolverInputError(f"{where}won bitmask {won_masks[i]}: must be 0..{(1 << seats) - 1}")
        if not -1 <= owners[i] < seats:
            raise SolverInputError(f"{where}trump_owner {owners[i]}: must be a seat 0..{seats - 1} or none")
        if bonus[i] and seats == 3:
            raise SolverInputError(f"{where}last_bonus is for the two-player game (two hands)")
        if bonus[i] < 0:
            raise SolverInputError(f"{where}last_bonus must be >= 0")
        if mask_points(row[0] | row[1] | (row[2] if seats == 3 else 0)) + bonus[i] > 120:
            raise SolverInputError(f"{where}last_bonus {bonus[i]}: more than the 120 card points of the deck")
        if owners[i] >= 0 and trumps[i] < 0:
            raise SolverInputError(f"{where}trump_owner given without a trump")
        if unsec[i] < 0:
            raise SolverInputError(f"{where}unsecured marriage points must be >= 0")
        if unsec[i] and not rec.marriage_burns_without_trick:
            raise SolverInputError(f"{where}unsecured marriage points need marriage_burns_without_trick")
        if unsec[i] and won_masks[i] & 1:
            raise SolverInputError(f"{where}unsecured marriage points: the declarer has already won a trick")
    return Positions(h, leaders, trumps, owners, won_masks, unsec, bonus, arr)


# ---- batches ----------------------------------------------------------------------------------
def _run(pos: Positions, targets: np.ndarray, mode: int, threads: int | None):
    n = pos.hands.shape[0]
    out = np.zeros(n, dtype=np.int64)
    nodes = np.zeros(n, dtype=np.int64)

    def chunk(_i: int, lo: int, hi: int) -> None:
        st, work, tt = _buffers()
        solve = drivers_nb.solve_positions2 if pos.seats == 2 else drivers_nb.solve_positions
        solve(pos.hands[lo:hi], pos.leaders[lo:hi], pos.trumps[lo:hi], pos.owners[lo:hi], pos.won[lo:hi],
              pos.unsecured[lo:hi], pos.last_bonus[lo:hi], targets[lo:hi], pos.rules, mode, out[lo:hi], nodes[lo:hi],
              st, work, tt)

    run_chunks(n, chunk, size=CHUNK, threads=threads)
    return out, nodes


def dd_values(hands: ArrayLike, *, leader: int | ArrayLike = 0, trump: int | ArrayLike | None = None,
              won: Iterable[int] | np.ndarray = (), trump_owner: int | ArrayLike | None = None,
              unsecured: int | ArrayLike = 0, last_bonus: int | ArrayLike = 0, rules: RulesLike = None,
              threads: int | None = None, return_nodes: bool = False) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """Exact double-dummy values (declarer's points to come) of n positions: int64 array (n,).
    ``hands`` (n, 3), or (n, 2) with ``last_bonus`` for the two-player game. With ``return_nodes``
    also the nodes each search visited."""
    pos = positions(hands, leader=leader, trump=trump, won=won, trump_owner=trump_owner, unsecured=unsecured,
                    last_bonus=last_bonus, rules=rules)
    values, nodes = _run(pos, np.zeros(len(pos.hands), dtype=np.int64), core_nb.EXACT, threads)
    return (values, nodes) if return_nodes else values


def dd_at_least(hands: ArrayLike, targets: int | ArrayLike, *, leader: int | ArrayLike = 0,
                trump: int | ArrayLike | None = None, won: Iterable[int] | np.ndarray = (),
                trump_owner: int | ArrayLike | None = None, unsecured: int | ArrayLike = 0,
                last_bonus: int | ArrayLike = 0, rules: RulesLike = None, threads: int | None = None,
                return_nodes: bool = False) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """Threshold tests: can the declarer be sure of at least ``targets[i]`` points to come? bool (n,)."""
    pos = positions(hands, leader=leader, trump=trump, won=won, trump_owner=trump_owner, unsecured=unsecured,
                    last_bonus=last_bonus, rules=rules)
    t = np.asarray(targets)
    if t.ndim == 0:
        t = np.full(len(pos.hands), int(t))
    if t.shape != (len(pos.hands),) or not np.issubdtype(t.dtype, np.integer):
        raise SolverInputError(f"targets must be integers, one per position ({len(pos.hands)}), got shape {t.shape}")
    found, nodes = _run(pos, t.astype(np.int64), core_nb.THRESHOLD, threads)
    return (found.astype(bool), nodes) if return_nodes else found.astype(bool)


# ---- one position: per-card values and the principal variation ---------------------------------
def _one(pos: Positions):
    st, work, tt = _buffers()
    core_nb.next_stamp(st, tt)
    h = [int(x) for x in pos.hands[0]]
    state = (int(pos.leaders[0]), int(pos.trumps[0]), int(pos.owners[0]), int(pos.won[0]), int(pos.unsecured[0]))
    if pos.seats == 2:
        search2_nb.set_position2(st, h[0], h[1], *state, int(pos.last_bonus[0]))
    else:
        search3_nb.set_position(st, h[0], h[1], h[2], *state)
    return st, work, tt


def _single(hands, kw) -> Positions:
    h = np.asarray(hands)
    return positions(h.reshape(1, -1) if h.ndim == 1 else h, **kw)


def lead_values(hands: ArrayLike, **kw: Any) -> dict[int, int]:
    """{card: value if the seat on lead leads it} for one position (``hands``: 3 masks, or 2 for the
    two-player game), over the cards he may lead; with marriage_optional each card takes the
    declaration choice best for him."""
    pos = _single(hands, kw)
    st, work, tt = _one(pos)
    out = np.zeros(24, dtype=np.int64)
    (drivers_nb.lead_values2 if pos.seats == 2 else drivers_nb.lead_values)(st, pos.rules, tt, work, out)
    return {c: int(v) for c, v in enumerate(out) if v >= 0}


@dataclass(frozen=True)
class Play:
    seat: int
    card: int
    declared: bool  # the lead declared its marriage (or half marriage, or four aces)


def principal_variation(hands: ArrayLike, **kw: Any) -> tuple[int, list[Play]]:
    """(value, plays) for one position: the cards played to the end when every seat plays a best
    move (ties: the first in search order)."""
    pos = _single(hands, kw)
    st, work, tt = _one(pos)
    out = np.zeros(48, dtype=np.int64)
    if pos.seats == 2:
        value = int(drivers_nb.exact_value2(st, pos.rules, tt, work, 0))
        n = drivers_nb.principal_variation2(st, pos.rules, tt, work, out)
    else:
        value = int(drivers_nb.exact_value(st, pos.rules, tt, work, 0))
        n = drivers_nb.principal_variation(st, pos.rules, tt, work, out)
    return value, [Play(int(out[24 + i]), int(out[i]) & 31, bool(out[i] & core_nb.DECLARE_FLAG)) for i in range(n)]


def best_discard(hand10: int, opp1: int, opp2: int, *, rules: RulesLike = None) -> tuple[int, int, int]:
    """(card to seat 1, card to seat 2, value) maximising the declarer's double-dummy points from
    his 10 cards after the talon and the opponents' 7 each (seat 1 plays after the declarer)."""
    masks = [int(hand10), int(opp1), int(opp2)]
    counts = [bin(m).count("1") for m in masks]
    if any(m < 0 or m >> 24 for m in masks):
        raise SolverInputError("hands must be 24-bit card masks")
    if counts != [10, 7, 7]:
        raise SolverInputError(f"best_discard needs 10, 7 and 7 cards, got {counts[0]}, {counts[1]}, {counts[2]}")
    if masks[0] & masks[1] or masks[0] & masks[2] or masks[1] & masks[2]:
        raise SolverInputError("a card is in two hands")
    st, work, tt = _buffers()
    a, b, v = discard_nb.best_discard(masks[0], masks[1], masks[2], _rules_array(rules), st, work, tt)
    return int(a), int(b), int(v)


def best_discard2(hand12: int, defender_hand: int, other_talon: int, *,
                  rules: RulesLike = None) -> tuple[int, int, int | None, int]:
    """The two-player declarer's best discard, seeing every card: (b1, b2, t, value). ``hand12``: his
    hand with the talon he took (12 cards); ``defender_hand``: 10 cards and ``other_talon`` 2
    (two_player_talon = 2), or 9 and 3 (two_player_talon = 3: then he also puts one card t into the
    other talon, else t is None). He buries b1 < b2, whose points are his. ``value`` = those points
    + the play's double-dummy value (he leads, no trump, no trick won; the other talon, t included,
    goes to the last trick's winner). Under no_aces_tens_in_discard no card given away is an ace
    or a ten."""
    masks = [int(hand12), int(defender_hand), int(other_talon)]
    if any(m < 0 or m >> 24 for m in masks):
        raise SolverInputError("hands must be 24-bit card masks")
    counts = [bin(m).count("1") for m in masks]
    if counts not in ([12, 10, 2], [12, 9, 3]):
        raise SolverInputError(f"best_discard2 needs 12 cards, then 10 and 2 (or 9 and 3), got "
                               f"{counts[0]}, {counts[1]}, {counts[2]}")
    if masks[0] & masks[1] or masks[0] & masks[2] or masks[1] & masks[2]:
        raise SolverInputError("a card is in two places")
    arr = _rules_array(rules)
    st, work, tt = _buffers()
    b1, b2, t, v = discard_nb.best_discard2(masks[0], masks[1], masks[2], counts[2] == 3,
                                            givable_cards(masks[0], arr), arr, st, work, tt)
    return int(b1), int(b2), (int(t) if t >= 0 else None), int(v)


# ---- the CLI's layouts ------------------------------------------------------------------------
_POSITION_KEYS = ("leader", "trump", "won", "trump_owner", "unsecured", "last_bonus")


def _parse_layout(line: str, where: str, defaults: dict, base_rules: HouseRules):
    parts = [p.strip() for p in line.split(";")]
    hand_texts = [t.strip() for t in parts[0].split("|")]
    if len(hand_texts) not in (2, 3):
        raise SolverInputError(f"{where}write three hands separated by '|', e.g. 'AS TS | KH QH | 9C JC' "
                               "(two for the two-player game)")
    hands = [parse_hand(t, what=f"hand {s}") for s, t in enumerate(hand_texts)]
    opts = dict(defaults)
    changes = {}
    seen: set[str] = set()
    for setting in parts[1:]:
        if not setting:
            continue
        if "=" not in setting:
            raise SolverInputError(f"{where}setting {setting!r}: write name=value")
        name, value = (x.strip() for x in setting.split("=", 1))
        if name in seen:
            raise SolverInputError(f"{where}setting {name!r} given twice")
        seen.add(name)
        if name in _POSITION_KEYS:
            opts[name] = value
        else:
            changes[name] = value
    rules = HouseRules.from_dict(changes, base=base_rules, source=where.rstrip(": ") or "layout")
    return hands, opts, rules


def _position_options(opts: dict) -> dict:
    out = {"leader": 0, "trump": None, "won": (), "trump_owner": None, "unsecured": 0, "last_bonus": 0}
    for name, value in opts.items():
        if value is None:
            continue
        if name in ("leader", "unsecured", "last_bonus"):
            out[name] = _small_int(name, value)
        elif name == "trump_owner":
            out[name] = None if str(value).lower() in ("", "none", "-1") else _small_int(name, value)
        else:
            out[name] = value
    return out


def _small_int(name: str, value) -> int:
    """A layout's integer setting: refused, naming it, when it is not an integer or is far outside
    anything a deal holds (the kernels take 64-bit integers)."""
    try:
        v = int(value)
    except (TypeError, ValueError):
        raise SolverInputError(f"{name} {value!r}: must be an integer") from None
    if not -1000 <= v <= 1000:
        raise SolverInputError(f"{name} {value!r}: out of range (a deal holds 120 card points)")
    return v


def _layout_options(opts: dict, rules: HouseRules) -> dict:
    kw = _position_options(opts)
    kw["rules"] = rules
    return kw


@dataclass(frozen=True)
class SolvedLayout:
    """One layout solved (``thousand solve``): ``layout`` as given (its text or file line), from a
    file or not (``from_file``: the text is then shown as a title), ``seats`` (3, or 2), the
    declarer's double-dummy ``value`` of the points to come, the seat on lead (``leader``), the
    value of each card it may lead (``lead_values``: (card, value), best first for the leader, ties
    by card), and a principal variation (``plays``: every seat playing a best card, ``Play`` with a
    declaration flag). ``to_dict()``: what ``--json`` prints for it."""

    layout: str
    from_file: bool
    seats: int
    value: int
    leader: int
    lead_values: tuple[tuple[int, int], ...]
    plays: tuple[Play, ...]

    def to_dict(self) -> dict:
        return {"value": self.value, "leader": self.leader,
                "lead_values": {format_card(c): v for c, v in self.lead_values},
                "pv": [[p.seat, format_card(p.card), p.declared] for p in self.plays]}


def solve_layout(hands: list[int], opts: dict, rules: HouseRules, *, layout: str = "",
                 from_file: bool = False) -> SolvedLayout:
    """Value, per-card lead values and principal variation of one layout (its ``hands`` as card
    masks, ``opts`` the position's settings), as a ``SolvedLayout``."""
    kw = _layout_options(opts, rules)
    row = np.array([hands], dtype=np.int64)
    value, plays = principal_variation(row, **kw)
    leads = lead_values(row, **kw)
    leader = kw["leader"]
    best_first = sorted(leads.items(), key=lambda cv: (-cv[1] if leader == 0 else cv[1], cv[0]))
    return SolvedLayout(layout=layout, from_file=from_file, seats=len(hands), value=value, leader=leader,
                        lead_values=tuple(best_first), plays=tuple(plays))


def solve_layouts(*, text: str | None = None, file: str | Path | None = None, leader: int | None = None,
                  trump: str | None = None, won: str | None = None,
                  rules: str | None = None) -> tuple[SolvedLayout, ...]:
    """What ``thousand solve`` solves: for a layout ``"H0 | H1 | H2"`` (``text``; ``"H0 | H1"`` for
    the two-player game) or a file of them (one per line, optionally followed by ``; name=value``
    settings: leader, trump, won, trump_owner, unsecured, last_bonus or any house rule), the value,
    per-card lead values and principal variation of each (``SolvedLayout``), in input order."""
    if text is None and file is None:
        raise SolverInputError("give a layout or --file")
    if text is not None and file is not None:
        raise SolverInputError("give either a layout or --file, not both")
    base_rules = load_rules(rules)
    defaults = {"leader": leader, "trump": trump, "won": won}
    if file is not None:
        path = Path(file)
        lines = [(f"{path}:{i}: ", ln.strip()) for i, ln in enumerate(_layout_file_lines(path), 1)]
        lines = [(where, ln) for where, ln in lines if ln and not ln.startswith("#")]
        if not lines:
            raise SolverInputError(f"--file {path}: no layouts (it is empty or holds only comments and blank lines)")
    else:
        lines = [("", text)]
    # Every layout is read and checked first, so that the first wrong line (in file order) is the
    # one reported; the searches then run on worker threads while this thread only waits (Ctrl-C
    # stays prompt whatever a search costs, and a long file uses every core).
    layouts = []
    for where, line in lines:
        try:
            hands, opts, line_rules = _parse_layout(line, where, defaults, base_rules)
            _single(np.array([hands], dtype=np.int64), _layout_options(opts, line_rules))
        except (CardError, RulesError, SolverInputError) as exc:
            raise type(exc)(f"{where}{exc}" if where and not str(exc).startswith(where) else str(exc)) from None
        layouts.append((line, hands, opts, line_rules))
    results: list[SolvedLayout | None] = [None] * len(layouts)

    def solve_one(i: int) -> None:
        line, hands, opts, line_rules = layouts[i]
        results[i] = solve_layout(hands, opts, line_rules, layout=line, from_file=file is not None)

    run_tasks(solve_one, ((i,) for i in range(len(layouts))))
    return tuple(r for r in results if r is not None)


def _layout_file_lines(path: Path) -> list[str]:
    """The lines of a layout file. Anything readable that is not a folder will do (a pipe,
    /dev/stdin); errors name the file."""
    if not path.exists():
        raise InputError(f"--file {path}: no such file")
    if path.is_dir():
        raise SolverInputError(f"--file {path}: is a directory, not a file of layouts")
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError:
        raise SolverInputError(f"--file {path}: not UTF-8 text") from None
