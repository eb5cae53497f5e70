"""``import thousand``: the Python face of the tool, for a notebook or a script.

Every analysis is a keyword-only function that returns a frozen result object; ``to_polars()``
gives its tables as polars DataFrames and ``to_dict()`` its JSON form. The same functions are
behind the commands (``thousand compare`` is ``compare`` then ``comparison_lines``), and what they
store in ``out`` is reused by the next call of the same arguments and code::

    import thousand

    result = thousand.compare(rules=["classic", "online"], games=2000, seed=1, out="out/cmp")
    table = result.to_polars()   # one row a metric and rule set: difference, 95% interval, Holm p

The names below come from the packages that hold them (``analysis.*``, ``sim.*``); this module
adds nothing of its own. The presenting wing (text, JSON, plots, one module a study) is
``analysis.present``, the report's pages ``analysis.report``; the engine's Python API is
``sim.engine``, the solver's ``sim.solver``.
"""

from analysis.barrel import BarrelStats, tables_barrel
from analysis.bids.advice import Advice
from analysis.bids.advisor import advise
from analysis.bids.results import BidTable
from analysis.bids.table import tables_bids
from analysis.compare import Comparison, compare
from analysis.marriages.in_play import MarriagePlay
from analysis.marriages.odds import MarriageOdds, tables_marriages
from analysis.marriages.worth import MarriageWorth
from analysis.present.json_text import to_json
from analysis.report.build import build_report
from analysis.summary import RunSummary, summarize_run
from analysis.tournament import TournamentResult, tournament
from sim import InputError, ThousandError, __version__
from sim.game.rules import PRESETS, HouseRules, load_rules
from sim.inference import Inference, infer
from sim.players.registry import PLAYER_NAMES
from sim.progress import Progress
from sim.records import Record, RecordError, Verdict, check_record, check_records, parse_record_text, read_records
from sim.runs.simulate import simulate

__all__ = [
    "__version__",
    # the analyses and their results
    "advise", "Advice", "tables_bids", "BidTable", "tables_marriages", "MarriageOdds", "MarriagePlay",
    "MarriageWorth", "tables_barrel", "BarrelStats", "compare", "Comparison", "tournament", "TournamentResult",
    "simulate", "summarize_run", "RunSummary", "build_report", "to_json", "Progress",
    # deal records (docs/records.md)
    "Record", "RecordError", "Verdict", "read_records", "parse_record_text", "check_record", "check_records",
    # inference of the hidden hands (docs/inference.md)
    "infer", "Inference",
    # the rules and the players
    "HouseRules", "load_rules", "PRESETS", "PLAYER_NAMES",
    # the errors a user can mend
    "ThousandError", "InputError",
]
