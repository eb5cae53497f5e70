"""A record replayed through the engine: walked move by move (``sim.records.walk``, which names
the first wrong move), then played as a scripted deal by the engine's own kernels
(``sim.engine.play_scripted_deal``: the auction, the talon, the gifts, the contract, the tricks and
the settlement with the barrel, bolts and every house rule), whose score changes are compared with
the recorded result.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sim.engine import IllegalAction, play_scripted_deal
from sim.engine.schema import REDEAL_NONE
from sim.game.rules import HouseRules
from sim.records.record import SEAT_NAMES, Record, RecordError
from sim.records.walk import DEALER, game_state, house_rules, walk

__all__ = ["Verdict", "check"]

_REDEAL_WORDS = {2: "a hand under redeal_hand_points_below", 3: "four nines in a hand", 4: "three nines in a hand",
                 5: "four aces in a hand", 6: "a talon under redeal_talon_points_below", 7: "two nines in the talon",
                 8: "three jacks in the talon", 9: "four nines after the talon"}


@dataclass(frozen=True)
class Verdict:
    """What the replay says: ``complete`` (the record runs to the end of the deal), the engine's
    score change for each seat (None when the record stops before the end), whether the record
    gives a result, and the line that says it all."""

    complete: bool
    changes: tuple[int, int, int] | None
    recorded: bool
    line: str

    def to_dict(self) -> dict:
        return {"legal": True, "complete": self.complete, "recorded_result": self.recorded,
                "changes": None if self.changes is None else dict(zip(SEAT_NAMES, self.changes, strict=True)),
                "line": self.line}


def _signed(values) -> str:
    return ", ".join(f"{SEAT_NAMES[p]} {'+' if v > 0 else ''}{v}" for p, v in enumerate(values))


def check(rec: Record, *, rules: HouseRules | None = None, base: Path | None = None) -> Verdict:
    """Replay ``rec``: a Verdict when it is legal (and, complete, scores as recorded); else
    RecordError naming the first wrong thing in one line (its line, the seat, the move). A seat's
    view is walked as far as its known cards allow; the engine replays full records only.
    ``base``: the folder a relative rules file is read from."""
    rules = rules or house_rules(rec, base)
    w = walk(rec, rules)
    if rec.view is not None or not rec.full:
        who = f"{SEAT_NAMES[rec.view]}'s view" if rec.view is not None else "a record with hidden cards"
        return Verdict(False, None, rec.result is not None,
                       f"consistent as far as {who} shows (the hidden cards are not replayed)")
    if w.all_passed:
        complete = True
    else:
        complete = w.contract is not None and (rec.conceded or sum(map(len, rec.tricks)) == 24)
    actions = [a for a, _ in w.actions]
    keys = [k for _, k in w.actions]
    try:
        row, _plays, _state = play_scripted_deal(
            hands=list(rec.hands), talon=rec.talon, dealer=DEALER, actions=actions, rules=rules,
            state=game_state(rec))
    except IllegalAction as exc:
        if exc.step >= len(actions) and not complete:
            if rec.result is not None:  # a result ends a whole deal (a cut record drops it)
                raise RecordError(f"{rec.line('result')}a result is recorded, but the deal stops short: "
                                  + _stop(rec, w)) from None
            return Verdict(False, None, False, "legal as far as it goes: " + _stop(rec, w))
        key = keys[min(exc.step, len(keys) - 1)] if keys else "rules"
        raise RecordError(f"{rec.line(key)}the engine refuses this move ({exc})") from None
    changes = tuple(int(row[f"change{p}"]) for p in range(3))
    if row["redeal"] != REDEAL_NONE and not w.all_passed:
        # A redeal rule threw the deal in (the hands, or the talon the declarer saw): a record of it
        # stops there, and its result, if any, is nothing.
        why = f"the rules throw this deal in: {_REDEAL_WORDS.get(row['redeal'], 'a redeal')} (redeal_policy)"
        if rec.gifts or rec.contract is not None or rec.conceded or rec.tricks:
            key = "gift0" if rec.gifts else "contract" if "contract" in rec.lines else "trick0"
            raise RecordError(f"{rec.line(key)}{why}; nothing is played after it")
        if rec.result is not None and tuple(rec.result) != changes:
            raise RecordError(f"{rec.line('result')}{why}: nobody scores")
        return Verdict(True, changes, rec.result is not None, f"legal; {why}")
    if not complete:
        raise RecordError(f"{rec.line('rules')}the engine finished the deal from fewer moves than the record "
                          "holds: a bug of the walk")  # never expected
    if rec.result is None:
        return Verdict(True, changes, False, f"legal; the engine scores {_signed(changes)} (no result recorded)")
    if tuple(rec.result) != changes:
        if w.all_passed:
            how = "every seat passed: the deal is thrown in"
        elif row["conceded"]:
            how = f"{SEAT_NAMES[w.declarer]} conceded {row['contract']}"
        else:
            points = row[f"card_points{w.declarer}"] + row[f"marriage_points{w.declarer}"]
            verb = "made" if row["made"] else "failed"
            how = f"{SEAT_NAMES[w.declarer]} {verb} {row['contract']} with {points} points"
        raise RecordError(f"{rec.line('result')}the result does not match the play: the engine scores "
                          f"{_signed(changes)} ({how}); the record says {_signed(rec.result)}")
    return Verdict(True, changes, True, f"legal; scores as recorded: {_signed(changes)}")


def _stop(rec: Record, w) -> str:
    if not w.auction_over:
        return f"the auction is not over ({SEAT_NAMES[w.to_bid]} to call)"
    if len(rec.gifts) < 2:
        return "the talon is taken, the gifts not all given"
    if w.contract is None:
        return "the gifts given, no contract yet"
    if not rec.tricks:
        return f"the contract {w.contract} declared, before the first lead"
    n = len(rec.tricks)
    if len(rec.tricks[-1]) < 3:
        return f"in trick {n}, {SEAT_NAMES[(w.seats[-1][0] + len(rec.tricks[-1])) % 3]} to play"
    return f"before trick {n + 1}"
