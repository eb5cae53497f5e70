"""Double-dummy solver: the Python API over the compiled kernels of ``sim.solver_nb``.

A position is a trick start: three hands of equal size 1..8 (seat 0 the declarer, seat 1 plays
after him, seat 2 after seat 1), the seat on lead, the trump (-1 or None for none, 0..3 or S C D H),
the seat that declared it (``trump_owner``, for no_lead_foreign_trump), the seats that have already
won a trick, and the declarer's ``unsecured`` marriage points (declared before his first trick under
marriage_burns_without_trick). Its value is the declarer's points still to come. docs/solver.md has
the exact semantics of every play option.

Batches run on a thread pool over fixed chunks; each position is solved from a fresh table
generation, so answers and node counts never depend on the number of threads.
"""

from __future__ import annotations

import json
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim import solver_nb as K
from sim.cards import SUITS, CardError, format_card, parse_hand
from sim.rules import HouseRules, RulesError, load_rules

TABLE_LOG2_ROWS = 18  # 2^18 rows of 24 bytes per thread: far more than an 8-card solve fills
CHUNK = 32
PLAY_OPTIONS = ("must_head", "marriage_first_lead", "marriage_burns_without_trick", "marriage_optional",
                "ace_marriage", "half_marriage", "no_lead_foreign_trump", "must_lead_trump", "marriage_values")


class SolverInputError(ValueError):
    """A position the solver cannot take; the message says what is wrong."""


# ---- buffers, one set per thread --------------------------------------------------------------
_local = threading.local()


def _buffers():
    if not hasattr(_local, "buffers"):
        st, work = K.new_work()
        _local.buffers = (st, work, K.new_table(TABLE_LOG2_ROWS))
    return _local.buffers


# ---- input checks -----------------------------------------------------------------------------
def _rules_array(rules) -> np.ndarray:
    if isinstance(rules, HouseRules):
        return rules.to_array()
    return load_rules(rules).to_array()


def _rules_record(rules) -> HouseRules:
    return rules if isinstance(rules, HouseRules) else load_rules(rules)


def _trump_index(trump) -> int:
    if trump is None:
        return -1
    if isinstance(trump, str):
        t = trump.strip().upper()
        if t in ("", "NONE", "-", "NT"):
            return -1
        t = {"♠": "S", "♣": "C", "♦": "D", "♥": "H"}.get(t, t)
        if t not in SUITS:
            raise SolverInputError(f"trump {trump!r}: write S, C, D, H or none")
        return SUITS.index(t)
    t = int(trump)
    if not -1 <= t <= 3:
        raise SolverInputError(f"trump {trump!r}: must be -1 (none) or 0..3 (S C D H)")
    return t


def _won_mask(won) -> int:
    if isinstance(won, str):
        won = [w for w in won.replace(" ", "").split(",") if w]
    mask = 0
    for w in won:
        try:
            s = int(w)
        except (TypeError, ValueError):
            raise SolverInputError(f"won-trick seat {w!r}: must be 0, 1 or 2") from None
        if not 0 <= s <= 2:
            raise SolverInputError(f"won-trick seat {s}: must be 0, 1 or 2")
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
    """Checked positions in the kernels' columns."""

    hands: np.ndarray
    leaders: np.ndarray
    trumps: np.ndarray
    owners: np.ndarray
    won: np.ndarray
    unsecured: np.ndarray
    rules: np.ndarray


def positions(hands, *, leader=0, trump=None, won=(), trump_owner=None, unsecured=0, rules=None) -> Positions:
    """Check positions and bring them to the kernels' columns. ``hands``: integer array (n, 3).
    Options are one value for all positions or (numpy arrays) one per position; ``won`` is a
    collection of seats, or a numpy array of per-position bitmasks (bit s = seat s)."""
    h = np.asarray(hands)
    if h.ndim != 2 or h.shape[1] != 3 or not np.issubdtype(h.dtype, np.integer):
        raise SolverInputError(f"hands must be an integer array of shape (n, 3), got {h.dtype} {h.shape}")
    h = h.astype(np.int64)
    n = h.shape[0]
    rec = _rules_record(rules)
    arr = rec.to_array()
    leaders = _column(leader, n, "leader", int)
    trumps = _column(trump, n, "trump", _trump_index)
    owners = _column(-1 if trump_owner is None else trump_owner, n, "trump_owner", int)
    if isinstance(won, np.ndarray):
        won_masks = _column(won, n, "won", int)
    else:
        won_masks = np.full(n, _won_mask(won), dtype=np.int64)
    unsec = _column(unsecured, n, "unsecured", int)
    for i in range(n):
        where = f"position {i}: " if n > 1 else ""
        row = [int(x) for x in h[i]]
        if any(x < 0 or x >> 24 for x in row):
            raise SolverInputError(f"{where}hand masks must be 24-bit card masks")
        sizes = [bin(x).count("1") for x in row]
        if len(set(sizes)) != 1:
            raise SolverInputError(f"{where}hands must have equal sizes, got {sizes[0]}, {sizes[1]}, {sizes[2]} cards")
        if not 1 <= sizes[0] <= 8:
            raise SolverInputError(f"{where}hands must hold 1..8 cards each, got {sizes[0]}")
        if row[0] & row[1] or row[0] & row[2] or row[1] & row[2]:
            dup = (row[0] & row[1]) | (row[0] & row[2]) | (row[1] & row[2])
            raise SolverInputError(f"{where}card {format_card((dup & -dup).bit_length() - 1)} is in two hands")
        if not 0 <= leaders[i] <= 2:
            raise SolverInputError(f"{where}leader {leaders[i]}: must be 0, 1 or 2")
        if not 0 <= won_masks[i] <= 7:
            raise SolverInputError(f"{where}won bitmask {won_masks[i]}: must be 0..7")
        if not -1 <= owners[i] <= 2:
            raise SolverInputError(f"{where}trump_owner {owners[i]}: must be a seat 0..2 or none")
        if owners[i] >= 0 and trumps[i] < 0:
            raise SolverInputError(f"{where}trump_owner given without a trump")
        if unsec[i] < 0:
            raise SolverInputError(f"{where}unsecured marriage points must be >= 0")
        if unsec[i] and not rec.marriage_burns_without_trick:
            raise SolverInputError(f"{where}unsecured marriage points need marriage_burns_without_trick")
        if unsec[i] and won_masks[i] & 1:
            raise SolverInputError(f"{where}unsecured marriage points: the declarer has already won a trick")
    return Positions(h, leaders, trumps, owners, won_masks, unsec, arr)


# ---- batches ----------------------------------------------------------------------------------
def _run(pos: Positions, targets: np.ndarray, mode: int, threads: int | None):
    n = pos.hands.shape[0]
    out = np.zeros(n, dtype=np.int64)
    nodes = np.zeros(n, dtype=np.int64)

    def chunk(lo: int) -> None:
        hi = min(n, lo + CHUNK)
        st, work, tt = _buffers()
        K.solve_positions(pos.hands[lo:hi], pos.leaders[lo:hi], pos.trumps[lo:hi], pos.owners[lo:hi],
                          pos.won[lo:hi], pos.unsecured[lo:hi], targets[lo:hi], pos.rules, mode,
                          out[lo:hi], nodes[lo:hi], st, work, tt)

    starts = range(0, n, CHUNK)
    workers = threads or os.cpu_count() or 1
    if workers <= 1 or n <= CHUNK:
        for lo in starts:
            chunk(lo)
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            list(pool.map(chunk, starts))
    return out, nodes


def dd_values(hands, *, leader=0, trump=None, won=(), trump_owner=None, unsecured=0, rules=None,
              threads: int | None = None, return_nodes: bool = False):
    """Exact double-dummy values (declarer's points to come) of n positions: int64 array (n,).
    With ``return_nodes`` also the nodes each search visited."""
    pos = positions(hands, leader=leader, trump=trump, won=won, trump_owner=trump_owner, unsecured=unsecured,
                    rules=rules)
    values, nodes = _run(pos, np.zeros(len(pos.hands), dtype=np.int64), K.EXACT, threads)
    return (values, nodes) if return_nodes else values


def dd_at_least(hands, targets, *, leader=0, trump=None, won=(), trump_owner=None, unsecured=0, rules=None,
                threads: int | None = None, return_nodes: bool = False):
    """Threshold tests: can the declarer be sure of at least ``targets[i]`` points to come? bool (n,)."""
    pos = positions(hands, leader=leader, trump=trump, won=won, trump_owner=trump_owner, unsecured=unsecured,
                    rules=rules)
    t = np.asarray(targets)
    if t.ndim == 0:
        t = np.full(len(pos.hands), int(t))
    if t.shape != (len(pos.hands),) or not np.issubdtype(t.dtype, np.integer):
        raise SolverInputError(f"targets must be integers, one per position ({len(pos.hands)}), got shape {t.shape}")
    found, nodes = _run(pos, t.astype(np.int64), K.THRESHOLD, threads)
    return (found.astype(bool), nodes) if return_nodes else found.astype(bool)


# ---- one position: per-card values and the principal variation ---------------------------------
def _one(pos: Positions):
    st, work, tt = _buffers()
    K.next_stamp(st, tt)
    K.set_position(st, int(pos.hands[0, 0]), int(pos.hands[0, 1]), int(pos.hands[0, 2]), int(pos.leaders[0]),
                   int(pos.trumps[0]), int(pos.owners[0]), int(pos.won[0]), int(pos.unsecured[0]))
    return st, work, tt


def _single(hands, kw) -> Positions:
    h = np.asarray(hands)
    return positions(h.reshape(1, 3) if h.shape == (3,) else h, **kw)


def lead_values(hands, **kw) -> dict[int, int]:
    """{card: value if the seat on lead leads it} for one position (``hands``: 3 masks), over the
    cards he may lead; with marriage_optional each card takes the declaration choice best for him."""
    pos = _single(hands, kw)
    st, work, tt = _one(pos)
    out = np.zeros(24, dtype=np.int64)
    K.lead_values(st, pos.rules, tt, work, out)
    return {c: int(v) for c, v in enumerate(out) if v >= 0}


@dataclass(frozen=True)
class Play:
    seat: int
    card: int
    declared: bool  # the lead declared its marriage (or half marriage, or four aces)


def principal_variation(hands, **kw) -> tuple[int, list[Play]]:
    """(value, plays) for one position: the cards played to the end when every seat plays a best
    move (ties: the first in search order)."""
    pos = _single(hands, kw)
    st, work, tt = _one(pos)
    value = int(K.exact_value(st, pos.rules, tt, work, 0, 0))
    out = np.zeros(48, dtype=np.int64)
    n = K.principal_variation(st, pos.rules, tt, work, out)
    return value, [Play(int(out[24 + i]), int(out[i]) & 31, bool(out[i] & K.DECLARE_FLAG)) for i in range(n)]


def best_discard(hand10: int, opp1: int, opp2: int, *, rules=None) -> tuple[int, int, int]:
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
    a, b, v = K.best_discard(masks[0], masks[1], masks[2], _rules_array(rules), st, work, tt)
    return int(a), int(b), int(v)


# ---- the CLI's layouts ------------------------------------------------------------------------
_POSITION_KEYS = ("leader", "trump", "won", "trump_owner", "unsecured")


def _parse_layout(line: str, where: str, defaults: dict, base_rules: HouseRules):
    parts = [p.strip() for p in line.split(";")]
    hand_texts = [t.strip() for t in parts[0].split("|")]
    if len(hand_texts) != 3:
        raise SolverInputError(f"{where}write three hands separated by '|', e.g. 'AS TS | KH QH | 9C JC'")
    hands = [parse_hand(t, what=f"hand {s}") for s, t in enumerate(hand_texts)]
    opts = dict(defaults)
    changes = {}
    for setting in parts[1:]:
        if not setting:
            continue
        if "=" not in setting:
            raise SolverInputError(f"{where}setting {setting!r}: write name=value")
        name, value = (x.strip() for x in setting.split("=", 1))
        if name in _POSITION_KEYS:
            opts[name] = value
        else:
            changes[name] = value
    rules = HouseRules.from_dict(changes, base=base_rules, source=where.rstrip(": ") or "layout")
    return hands, opts, rules


def _position_options(opts: dict) -> dict:
    out = {"leader": 0, "trump": None, "won": (), "trump_owner": None, "unsecured": 0}
    for name, value in opts.items():
        if value is None:
            continue
        if name in ("leader", "unsecured"):
            try:
                out[name] = int(value)
            except (TypeError, ValueError):
                raise SolverInputError(f"{name} {value!r}: must be an integer") from None
        elif name == "trump_owner":
            out[name] = None if str(value).lower() in ("", "none", "-1") else int(value)
        else:
            out[name] = value
    return out


def solve_layout(hands: list[int], opts: dict, rules: HouseRules) -> dict:
    """Value, per-card lead values and principal variation of one layout, as a JSON-ready dict."""
    kw = _position_options(opts)
    kw["rules"] = rules
    row = np.array([hands], dtype=np.int64)
    value, plays = principal_variation(row, **kw)
    leads = lead_values(row, **kw)
    leader = kw["leader"]
    best_first = sorted(leads.items(), key=lambda cv: (-cv[1] if leader == 0 else cv[1], cv[0]))
    return {
        "value": value,
        "leader": leader,
        "lead_values": {format_card(c): v for c, v in best_first},
        "pv": [[p.seat, format_card(p.card), p.declared] for p in plays],
    }


def _format_text(result: dict, title: str | None) -> list[str]:
    lines = [title] if title else []
    lines.append(f"value {result['value']}")
    leads = "  ".join(f"{c} {v}" for c, v in result["lead_values"].items())
    lines.append(f"leads by seat {result['leader']}: {leads}")
    tricks = []
    for i in range(0, len(result["pv"]), 3):
        cards = " ".join(f"{s}:{c}{'*' if d else ''}" for s, c, d in result["pv"][i:i + 3])
        tricks.append(cards)
    lines.append("play: " + " | ".join(tricks) + ("   (* declares)" if any(p[2] for p in result["pv"]) else ""))
    return lines


def solve_layouts(*, text: str | None = None, file: str | Path | None = None, leader: int | None = None,
                  trump: str | None = None, won: str | None = None, rules: str | None = None,
                  as_json: bool = False) -> list[str]:
    """What ``thousand solve`` prints: for a layout ``"H0 | H1 | H2"`` (``text``) or a file of them
    (one per line, optionally followed by ``; name=value`` settings: leader, trump, won,
    trump_owner, unsecured or any house rule), the value, per-card lead values and principal
    variation; with ``as_json`` one JSON object per layout, in input order."""
    if (text is None) == (file is None):
        raise SolverInputError("give either a layout or --file, not both")
    base_rules = load_rules(rules)
    defaults = {"leader": leader, "trump": trump, "won": won}
    if file is not None:
        path = Path(file)
        if not path.exists():
            raise FileNotFoundError(f"{path}: no such file")
        lines = [(f"{path}:{i}: ", ln.strip()) for i, ln in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
                 if ln.strip() and not ln.strip().startswith("#")]
    else:
        lines = [("", text)]
    out: list[str] = []
    for where, line in lines:
        try:
            hands, opts, line_rules = _parse_layout(line, where, defaults, base_rules)
            result = solve_layout(hands, opts, line_rules)
        except (CardError, RulesError, SolverInputError) as exc:
            raise type(exc)(f"{where}{exc}" if where and not str(exc).startswith(where) else str(exc)) from None
        if as_json:
            out.append(json.dumps(result, ensure_ascii=False))
        else:
            out.extend(_format_text(result, line if file is not None else None))
    return out
