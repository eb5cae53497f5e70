"""Marriages in play: what became of the marriages held in a stored deals run.

For each seat's role (declarer, left and right defender) and suit, the marriages held in the cards
it played with and what became of them (declared, declared and burnt, no trick won, cards played
first; the declarer's given away in the discard), each share with its 95% interval, and the
marriage points each role scored (``marriages_in_play`` → ``MarriagePlay``). The run is read shard
by shard from its verified files (``sim.runs.verify_run``), so memory stays flat. docs/analyses.md
defines every fate.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from analysis.marriages.exact import KQ
from analysis.stats import Estimate, estimate_field, stored_row
from sim.game.cards import SUIT_SYMBOLS
from sim.game.rules import HouseRules
from sim.runs import read_run_metadata, verify_run

__all__ = [
    "FATES", "ROLES", "PLAY_KEYS", "seat_roles", "marriage_fates", "declared_points", "RolePoints", "FateRow",
    "MarriagePlay", "play_frame", "marriages_in_play",
]

# The keys of a play run's spec that the marriage table records of it (learned_weights: the
# learned player's only).
PLAY_KEYS = ("mode", "sample_size", "seed", "players", "learned_weights", "rules")
# What became of a marriage a seat held in the cards it played with (the declarer's 8 after the
# discard, a defender's 7 and his gift; with two players the declarer's 10 after the burial).
FATES = ("declared", "declared, burnt", "no trick won", "cards played first")
# The defender after the declarer in the order of play, and the one after him (with two players the
# only defender is the left one).
ROLES = ("declarer", "left defender", "right defender")


def seat_roles(declarer: np.ndarray, dealer: np.ndarray, n_seats: int, p: int) -> np.ndarray:
    """Per deal, the role of seat ``p`` (an index into ROLES; -1 when it sits out a 4-player deal)."""
    if n_seats == 2:
        return np.where(declarer == p, 0, 1)
    if n_seats == 4:  # play goes round the three seats other than the dealer
        step1 = (declarer + 1) % 4
        left = np.where(step1 == dealer, (declarer + 2) % 4, step1)
        return np.where(dealer == p, -1, np.where(declarer == p, 0, np.where(left == p, 1, 2)))
    return np.where(declarer == p, 0, np.where((declarer + 1) % 3 == p, 1, 2))


def marriage_fates(deals: pl.DataFrame, rules: HouseRules) -> dict[tuple[str, int, str], int]:
    """Counts of (role, suit, fate) over the played deals of a stored deals frame, and of
    (\"declarer\", suit, \"given away\") for marriages the declarer held among his cards before the
    discard but not after it. Fates:

    - ``declared``: declared and kept;
    - ``declared, burnt``: declared, then burnt (``marriage_burns_without_trick``, no trick won);
    - ``no trick won``: not declared, and the seat won no trick (without ``marriage_first_lead`` a
      marriage is declared only after a trick);
    - ``cards played first``: not declared although the seat won a trick: a half was played before
      the seat was on lead after a trick (forced out by following, or led without declaring, or
      under ``marriage_min_cards`` led with too few cards).

    Thrown-in and conceded deals are left out (nothing is played)."""
    n_seats = rules.players
    cols = {c: deals[c].to_numpy() for c in deals.columns if c != "plays"}
    played = (cols["redeal"] == 0) & (cols["declarer"] >= 0) & ~cols["conceded"].astype(bool)
    out: dict[tuple[str, int, str], int] = {}
    declarer = cols["declarer"]
    talon = cols["talon"].astype(np.int64)
    for p in range(n_seats):
        hand = cols[f"hand{p}"].astype(np.int64)
        is_decl = declarer == p
        if n_seats == 2:
            buried = cols["buried"].astype(np.int64)
            card = cols["talon_card"].astype(np.int64)
            given = np.where(card >= 0, np.left_shift(1, np.maximum(card, 0)), 0)
            ten = hand | talon
            final = np.where(is_decl, ten & ~buried & ~given, hand)
        else:
            gift = cols[f"gift{p}"].astype(np.int64)
            received = np.where(gift >= 0, np.left_shift(1, np.maximum(gift, 0)), 0)
            gifts_out = np.zeros_like(hand)
            for q in range(n_seats):
                if q != p:
                    g = cols[f"gift{q}"].astype(np.int64)
                    gifts_out |= np.where(g >= 0, np.left_shift(1, np.maximum(g, 0)), 0)
            ten = hand | talon
            final = np.where(is_decl, ten & ~gifts_out, hand | received)
        active = played & (hand != 0)  # a 4-player dealer sits out with no hand
        bits = cols[f"marriages{p}"].astype(np.int64)
        role_of = seat_roles(declarer, cols["dealer"], n_seats, p)
        tricks = cols[f"tricks{p}"]
        for s in range(4):
            kq = KQ[s][0] | KQ[s][1]
            held = active & ((final & kq) == kq)
            declared = (bits >> s) & 1 == 1
            burnt = declared & (tricks == 0) & rules.marriage_burns_without_trick
            fate = {
                "declared": held & declared & ~burnt,
                "declared, burnt": held & burnt,
                "no trick won": held & ~declared & (tricks == 0),
                "cards played first": held & ~declared & (tricks > 0),
            }
            gave = active & is_decl & ((ten & kq) == kq) & ((final & kq) != kq)
            for r, role in enumerate(ROLES):
                mask = role_of == r
                for name, hit in fate.items():
                    out[(role, s, name)] = out.get((role, s, name), 0) + int((hit & mask).sum())
            out[("declarer", s, "given away")] = out.get(("declarer", s, "given away"), 0) + int(gave.sum())
    return out


def declared_points(deals: pl.DataFrame, rules: HouseRules) -> dict[str, list[float]]:
    """{role: [seat-deals, sum, sum of squares]} of the marriage points each seat scored in the
    played deals (a marriage declared and not burnt; half marriages and the four aces count), and
    {"role|points": seat-deals} for their distribution."""
    cols = {c: deals[c].to_numpy() for c in deals.columns if c != "plays"}
    played = (cols["redeal"] == 0) & (cols["declarer"] >= 0) & ~cols["conceded"].astype(bool)
    out = {role: [0.0, 0.0, 0.0] for role in ROLES}
    for p in range(rules.players):
        active = played & (cols[f"hand{p}"] != 0)
        pts = cols[f"marriage_points{p}"].astype(np.float64)
        role_of = seat_roles(cols["declarer"], cols["dealer"], rules.players, p)
        for r, role in enumerate(ROLES):
            x = pts[active & (role_of == r)]
            out[role][0] += len(x)
            out[role][1] += float(x.sum())
            out[role][2] += float((x ** 2).sum())
            values, counts = np.unique(x.astype(np.int64), return_counts=True)
            for v, k in zip(values.tolist(), counts.tolist(), strict=True):
                out[f"{role}|{v}"] = out.get(f"{role}|{v}", 0) + k
    return out


@dataclass(frozen=True)
class RolePoints:
    """The marriage points a seat of one role scored per played deal (a marriage declared and not
    burnt; half marriages and the four aces count).

    - ``role``: one of ROLES;
    - ``mean``: the mean over its ``mean.n`` seat-deals with its normal 95% interval (an
      ``Estimate``; NaN when there is none);
    - ``distribution``: (points, share of the seat-deals) for every score, lowest first.

    ``to_dict()``: as the table's metadata records it, ``{"mean", "n", "ci": [low, high],
    "distribution"}``.
    """

    role: str
    mean: Estimate
    distribution: tuple[tuple[int, float], ...]

    def to_dict(self) -> dict:
        return {"mean": self.mean.value, "n": self.mean.n, "ci": list(self.mean.interval),
                "distribution": dict(self.distribution)}


def _fate_field(name: str, **kwargs: Any) -> Any:
    """A fate's share, stored as the columns NAME, NAME_ci_low, NAME_ci_high (NAME as in FATES)."""
    return estimate_field(name, f"{name}_ci_low", f"{name}_ci_high", **kwargs)


def _triple(share: Estimate) -> tuple[float, float, float]:
    """A share as ``--json`` prints it: (share, low, high)."""
    return (share.value, share.low, share.high)


@dataclass(frozen=True)
class FateRow:
    """What became of the marriages one role held in one suit, in the cards it played with.

    - ``role`` (one of ROLES), ``suit`` (its symbol), ``held`` (the marriages held);
    - ``declared``, ``declared_burnt``, ``no_trick_won``, ``cards_played_first``: each fate's share
      of those with its Wilson 95% interval (an ``Estimate``; FATES, ``marriage_fates`` says which
      is which);
    - ``given_away``: the declarer's only, of the marriages among his 10 cards, the share he gave
      away in the discard (None for a defender).

    ``to_dict()``: as ``--json`` prints it, each share a list (share, low, high) under its name in
    FATES ("given away" the declarer's only); ``stored_row(row)``: as ``marriages_in_play.parquet``
    holds it, each share in three columns (share, ``_ci_low``, ``_ci_high``).
    """

    role: str
    suit: str
    held: int
    declared: Estimate = _fate_field("declared")
    declared_burnt: Estimate = _fate_field("declared, burnt")
    no_trick_won: Estimate = _fate_field("no trick won")
    cards_played_first: Estimate = _fate_field("cards played first")
    given_away: Estimate | None = _fate_field("given away", default=None)

    def fate(self, name: str) -> Estimate:
        """The share of a fate by its name in FATES (or "given away")."""
        return getattr(self, name.replace(", ", "_").replace(" ", "_"))

    def to_dict(self) -> dict:
        row: dict = {"role": self.role, "suit": self.suit, "held": self.held}
        row.update({f: _triple(self.fate(f)) for f in FATES})
        if self.given_away is not None:
            row["given away"] = _triple(self.given_away)
        return row


@dataclass(frozen=True)
class MarriagePlay:
    """The marriages in play in one stored deals run (``marriages_in_play``).

    - ``label``: the run's name in the command ("1-classic" ... one a ``--play-rules``, or "stored
      run" for ``--run``); ``run``: its folder;
    - ``deals``, ``seed``, ``players`` (one a seat), ``rules``: how its deals were played;
    - ``points``: the marriage points scored per played deal, one ``RolePoints`` a role (ROLES);
    - ``rows``: one ``FateRow`` a role and suit;
    - ``provenance``: the run's metadata as stored (its spec, version and code fingerprint).

    ``to_dict()``: the run's spec and points as ``--json`` prints them under ``play_runs``, its
    ``label``, ``run`` and ``rows``; ``to_polars()``: its rows as the stored
    ``marriages_in_play.parquet`` holds them.
    """

    label: str
    run: Path
    deals: int
    seed: int
    players: tuple[str, ...]
    rules: HouseRules
    points: tuple[RolePoints, ...]
    rows: tuple[FateRow, ...]
    provenance: dict

    def run_entry(self) -> dict:
        """The run as the table's metadata records it (``play_runs``): its spec (PLAY_KEYS) and the
        marriage points of each role."""
        return {**{k: self.provenance[k] for k in PLAY_KEYS if k in self.provenance},
                **{f"marriage_points_per_deal_{p.role}": p.to_dict() for p in self.points}}

    def row_dicts(self) -> list[dict]:
        """The rows as ``--json`` prints them, each with the run's label as "rules"."""
        return [{"rules": self.label, **r.to_dict()} for r in self.rows]

    def to_dict(self) -> dict:
        return {**self.run_entry(), "label": self.label, "run": str(self.run), "rows": self.row_dicts()}

    def to_polars(self) -> pl.DataFrame:
        return play_frame((self,))


def play_frame(plays: Sequence[MarriagePlay]) -> pl.DataFrame:
    """The rows of marriages in play of every run of ``plays`` as ``marriages_in_play.parquet``
    holds them: the run's label as "rules", then the row's ``stored_row`` (each share in three
    columns: share, ``_ci_low``, ``_ci_high``; a defender's "given away" empty)."""
    return pl.DataFrame([{"rules": p.label, **stored_row(r)} for p in plays for r in p.rows])


def marriages_in_play(run: Path, *, label: str = "stored run", partial: bool = False) -> MarriagePlay:
    """What became of the marriages held in the stored deals run ``run``: per role and suit, the
    marriages held and each fate's share with its 95% interval, and the marriage points each role
    scored; read shard by shard (memory stays flat). ``label`` names the run in the result."""
    run = Path(run)
    meta = read_run_metadata(run)
    rules = HouseRules.from_dict(meta["rules"], source=f"run {run}")
    counts: dict[tuple[str, int, str], int] = {}
    sums = {role: [0.0, 0.0, 0.0] for role in ROLES}
    histogram: dict[str, int] = {}
    for shard in verify_run(run, partial=partial)["deals"]:
        frame = pl.read_parquet(shard)
        for key, k in marriage_fates(frame, rules).items():
            counts[key] = counts.get(key, 0) + k
        for key, value in declared_points(frame, rules).items():
            if key in ROLES:
                sums[key] = [a + b for a, b in zip(sums[key], value, strict=True)]
            else:
                histogram[key] = histogram.get(key, 0) + value
    points = []
    for role, (n, total, sq) in sums.items():
        mean = total / n if n else math.nan
        sd = math.sqrt(max(0.0, (sq - n * mean * mean) / (n - 1))) if n > 1 else math.nan
        dist = {int(k.split("|")[1]): v for k, v in histogram.items() if k.split("|")[0] == role}
        points.append(RolePoints(role=role, mean=Estimate.mean(mean, sd, int(n)),
                                 distribution=tuple((v, dist[v] / n) for v in sorted(dist))))
    rows = []
    for role in ROLES:
        for s in range(4):
            held = sum(counts.get((role, s, f), 0) for f in FATES)
            shares = {}
            for f in FATES:
                k = counts.get((role, s, f), 0)
                shares[f.replace(", ", "_").replace(" ", "_")] = Estimate.share(k, held)
            if role == "declarer":
                k = counts.get((role, s, "given away"), 0)
                before = held + k
                shares["given_away"] = Estimate.share(k, before)
            rows.append(FateRow(role=role, suit=SUIT_SYMBOLS[s], held=held, **shares))
    return MarriagePlay(label=label, run=run, deals=meta["sample_size"], seed=meta["seed"],
                        players=tuple(meta["players"]), rules=rules, points=tuple(points), rows=tuple(rows),
                        provenance=meta)


