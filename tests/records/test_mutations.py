"""Bad input gets one clear line: self-play records of three rule sets (classic, strict,
tysyacha_1000: the talon shown, never seen by a defender, gifts face down), each altered by one
token (a card or a number put in, taken out or replaced), are either still legal (an altered label
or spacing) or refused in one line naming a line of the record, never with another exception, and
never legal with a result the deal does not reach. In full and in every seat's view at every
point."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from sim import InputError
from sim.records import check_record, parse_record_text, read_records
from sim.records.record import RecordError, format_text

RECORDS = Path(__file__).resolve().parent.parent / "inference"
FILES = ("self_play.jsonl", "self_play_strict.jsonl", "self_play_tysyacha.jsonl")
CARDS = [rank + suit for suit in "HDCS" for rank in ("A", "T", "K", "Q", "J", "9")]
NUMBERS = ("95", "101", "103", "112", "125", "305", "1000", "-5", "x")
PER_TEXT = 60  # alterations of each record's text


def _texts() -> list[str]:
    texts = []
    for name in FILES:
        for rec in read_records(path=RECORDS / name):
            texts.append(format_text(rec))
            texts.extend(format_text(rec.cut(at, seat=seat).seen_by(seat))
                         for seat in range(3) for at in ("auction", "talon", "trick:3") if rec.tricks)
    return texts


def _altered(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    i = rng.randrange(1, len(lines))  # the header stays: a wrong one has its own test
    tokens = lines[i].split()
    j = rng.randrange(len(tokens) + 1)
    kind = rng.randrange(4)
    if kind == 0 and j < len(tokens):
        tokens[j] = rng.choice(CARDS)
    elif kind == 1 and j < len(tokens):
        tokens[j] = rng.choice(NUMBERS)
    elif kind == 2 and j < len(tokens):
        del tokens[j]
    else:
        tokens.insert(j, rng.choice(CARDS))
    lines[i] = " ".join(tokens)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("index", range(len(_texts())))
def test_a_record_altered_by_one_token_is_refused_in_one_line_or_still_holds(index):
    text = _texts()[index]
    rng = random.Random(index)
    refused = 0
    for _ in range(PER_TEXT):
        altered = _altered(text, rng)
        try:
            verdict = check_record(record=parse_record_text(text=altered))
        except (RecordError, InputError) as exc:
            message = str(exc)
            assert "\n" not in message and message.startswith("line "), (altered, message)
            refused += 1
            continue
        rec = parse_record_text(text=altered)
        # Legal as far as it goes only without a result: a result ends a whole deal.
        assert not (verdict.line.startswith("legal as far as it goes") and rec.result is not None), altered
    assert refused > PER_TEXT // 3  # most alterations break something
