"""Deal records (docs/records.md): the format, its text form and JSON twin (``record``), the
rules' walk through a record that names its first wrong move (``walk``), the replay through the
engine's scripted deal that checks the recorded result (``replay``), and this face, the
keyword-only functions behind ``thousand record`` and ``thousand.read_records`` /
``thousand.check_record``.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from sim import InputError
from sim.arguments import path as path_argument
from sim.arguments import refused
from sim.arguments import text as text_argument
from sim.records.record import Record, RecordError, format_json, format_text, parse_records
from sim.records.replay import Verdict, check

__all__ = ["Record", "RecordError", "Verdict", "read_records", "parse_record_text", "check_record",
           "check_records", "show_record"]


def read_records(*, path: str | Path) -> tuple[Record, ...]:
    """The records of a file: one in the text form, or a ``.jsonl`` of one JSON record a line."""
    return _read(path_argument("path", path), "path")


def _read(file: Path, name: str) -> tuple[Record, ...]:
    try:
        text = file.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{name}: no such record file {str(file)!r}") from None
    except IsADirectoryError:
        raise InputError(f"{name}: {str(file)!r} is a folder, not a record file") from None
    except UnicodeDecodeError:
        raise InputError(f"{name}: {str(file)!r} is not UTF-8 text") from None
    except OSError as exc:
        raise InputError(f"{name}: {str(file)!r} cannot be read ({exc.strerror})") from None
    try:
        return tuple(parse_records(text))
    except RecordError as exc:
        raise RecordError(f"{file.name}: {exc}") from None


def parse_record_text(*, text: str) -> Record:
    """One record written as text (the text form, or one JSON object)."""
    records = parse_records(text_argument("text", text))
    if len(records) != 1:
        raise InputError(f"text holds {len(records)} records; give one")
    return records[0]


def check_record(*, record: Record | str | Path, rules: str | None = None) -> Verdict:
    """Replay one record (a Record, or the path of a file holding one): a Verdict ("legal; scores
    as recorded: ..."), or RecordError naming the first wrong thing in one line. ``rules``: a preset
    or rules file to check it under instead of the one it names."""
    base = None
    if isinstance(record, Record):
        rec = record
    elif isinstance(record, str | Path):
        records = _read(Path(record), "record")
        if len(records) != 1:
            raise InputError(f"record: {str(record)!r} holds {len(records)} records; check_records checks them all")
        rec, base = records[0], Path(record).parent
    else:
        raise refused("record", "a Record or the path of a record file", record)
    if rules is not None:
        rec = replace(rec, rules=text_argument("rules", rules))
    if base is None:
        return check(rec)
    return _named(Path(record), lambda: check(rec, base=base))


def check_records(*, path: str | Path) -> tuple[Verdict, ...]:
    """Replay every record of a file; RecordError at the first wrong one, naming its line."""
    file = path_argument("path", path)
    return _named(file, lambda: tuple(check(rec, base=file.parent) for rec in read_records(path=file)))


def _named(file: Path, work):
    """``work()``, a refusal of a record prefixed with its file's name (as a reading error is)."""
    try:
        return work()
    except RecordError as exc:
        text = str(exc)
        raise RecordError(text if text.startswith(f"{file.name}: ") else f"{file.name}: {text}") from None


def show_record(*, path: str | Path, as_json: bool = False) -> str:
    """The records of a file in the text form (records parted by a blank line), or as JSON lines."""
    records = read_records(path=path)
    if as_json:
        return "".join(format_json(r) + "\n" for r in records)
    return "\n".join(format_text(r) for r in records)
