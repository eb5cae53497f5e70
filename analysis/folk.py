"""The folk advice tested: the rules of thumb of the seed texts (``/work/shared/seeds``, cited as
``NNN:L``, file and line; docs/seed-notes.md says which text is which), each quoted in the
original with an English translation, beside what the tool measures and a verdict by one written rule.

Each item is a ``FolkItem``. A **tested** item carries one effect (``effect``, an ``Estimate``
with its 95% interval) signed so that a positive value is what the advice says, its two-sided
p-value and Holm's over the section's tested items (``p_holm``), and the verdict of ``verdict``:

- **supported**: Holm p < ``ALPHA`` and the effect above 0;
- **contradicted**: Holm p < ``ALPHA`` and the effect below 0;
- **not told apart**: otherwise (the interval may still lean one way; the Holm test does not
  tell the advice from its opposite);
- **too few**: no interval could be had.

An item the seeds do not give as advice (they only describe it) or do not hold at all is
**not tested** (``verdict`` ``NO_ADVICE`` or ``NOT_IN_SEEDS``) and carries the tool's figure as
information only. ``reflects`` says what a verdict is about: the game played by the learned
player, double-dummy play (every card seen: the game's ceiling, not real play), or the learned
player's own habit.

This module holds the quotes, the verdict rule and the two double-dummy experiments, which take
plain arrays (``Declarers``: the declarers' deals of played games); the report
(``analysis.report.folk``) gathers the other figures from the studies' results and stores the
result."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import polars as pl

from analysis.stats import Z95, Estimate, RatioOfSums, holm, two_sided_p
from sim import solver
from sim.game.cards import ACE, CARD_POINTS, MARRIAGE_MASK, N_CARDS, TEN
from sim.game.rules import HouseRules

__all__ = [
    "ALPHA", "SUPPORTED", "CONTRADICTED", "NOT_TOLD_APART", "TOO_FEW", "NO_ADVICE", "NOT_IN_SEEDS", "VERDICTS",
    "REFLECTS", "Quote", "QUOTES", "FolkItem", "FolkAdvice", "verdict", "clustered_effect", "effect_from_interval",
    "Declarers", "small_gifts", "gift_values", "lead_values", "gives_ace_or_ten", "with_verdicts",
]

ALPHA = 0.05
SUPPORTED, CONTRADICTED, NOT_TOLD_APART, TOO_FEW = "supported", "contradicted", "not told apart", "too few"
NO_ADVICE, NOT_IN_SEEDS = "no advice to test", "not in the seeds"
VERDICTS = (SUPPORTED, CONTRADICTED, NOT_TOLD_APART, TOO_FEW, NO_ADVICE, NOT_IN_SEEDS)
REFLECTS = {"game": "the game as the computer player plays it", "dd": "double-dummy play (every card seen)",
            "player": "the computer player's habit, not the game"}


@dataclasses.dataclass(frozen=True)
class Quote:
    """One piece of folk advice: ``key``; ``advice`` (the issue's words); ``original`` (the seed
    text's words, or "" when the seeds do not hold it); ``english`` (a faithful translation);
    ``cite`` (``NNN:L``); ``note`` (where the seeds repeat it, or what stands nearest)."""

    key: str
    advice: str
    original: str
    english: str
    cite: str
    note: str = ""


QUOTES = (
    Quote("no_marriage_high", "Don't bid high without a marriage",
          "Не заказывайте много без марьяжа.", "Don't bid much without a marriage.", "001:102",
          "Text D's plan for a first game; the rules texts make it a rule: no bid above 120 without a marriage "
          "(000:37, 003:25), which the classic preset's bidding cap enforces."),
    Quote("aces_tens_safe", "100–110 with aces and tens is safe",
          "Сто или сто десять с тузами и десятками на руках обычно безопасно.",
          "A hundred or a hundred and ten with aces and tens in hand is usually safe.", "001:102"),
    Quote("small_gifts", "Give away small cards, keep aces and tens",
          "Какие карты отдавать, решает заказчик: обычно сбрасывают мелочь. Тузы и десятки лучше оставить себе",
          "Which cards to give is the declarer's choice: usually the small ones go. Aces and tens are better kept.",
          "001:38", "Text A says the same more loosely: «отдает две любые обычно самые ненужные» (002:34)."),
    Quote("raise_rich_talon", "Raise after a good talon",
          "Он может поднять заказ, если прикуп оказался богатым",
          "He may raise the contract if the talon turned out rich.", "001:36",
          "Said as a permission with its occasion, not as an instruction."),
    Quote("lead_ace", "Lead an ace",
          "Оголосити мар'яж (козир) можна лише після того, як гравцем буде взято перший хабар. Тому перший хід "
          "зазвичай роблять із туза.",
          "A marriage (trump) can be declared only after the player has taken his first trick. That is why the "
          "first lead is usually made from an ace.", "000:42", "The Russian copy: 002:34 and 002:65."),
    Quote("concede", "Concede a hopeless contract",
          "Если игрок видит, что он заведомо не может набрать заказанную при торговле ставку, он может расписать "
          "игру.", "If a player sees that he surely cannot make the contract he bid, he may write the game off "
          "(concede).", "003:201", "Also 003:45 (text E: «единственное что он может сделать») and 000:335."),
    Quote("barrel_lottery", "The barrel is a lottery", "", "", "",
          "No seed text calls the barrel a lottery. Nearest: «Не засиживайтесь на 880: бочка быстро учит "
          "осторожности» (\"Don't linger at 880: the barrel soon teaches caution\", 001:104)."),
    Quote("dark", "Going dark",
          "Іноді гравці загострюють ситуацію за допомогою темних. … Деякі гравці люблять гратися, аж до того, "
          "що темнять дуже часто. А ось деякі гравці взагалі раз на кілька партій вирішуються.",
          "Sometimes players sharpen the game by going dark. … Some players like the game so much that they go "
          "dark very often; others bring themselves to it once in several games.", "000:400",
          "Also 002:83: «Некоторые игроки любят использовать прием темной игры». The seeds describe the habit and "
          "give no advice on it."),
)


@dataclasses.dataclass(frozen=True)
class FolkItem:
    """One item's measurement: ``key`` (of ``QUOTES``); ``measure`` (what the effect is, in
    words, and its unit); ``effect`` (the tested effect, positive = as the advice says; for an
    untested item the figure shown as information); ``p`` and ``p_holm`` (NaN when not tested);
    ``verdict`` (of ``VERDICTS``); ``reflects`` (a key of ``REFLECTS``); ``info`` and
    ``info_value`` (a second figure beside it, in words, and its Estimate; "" and None when none)."""

    key: str
    measure: str
    effect: Estimate
    p: float
    p_holm: float
    verdict: str
    reflects: str
    info: str = ""
    info_value: Estimate | None = None

    @property
    def tested(self) -> bool:
        return self.verdict not in (NO_ADVICE, NOT_IN_SEEDS)


@dataclasses.dataclass(frozen=True)
class FolkAdvice:
    """The folk advice tested: ``items`` in the order of ``QUOTES``; ``provenance``: what made it
    (code fingerprint, rules, seed, sizes, the stored inputs it read with their SHA-256)."""

    items: tuple[FolkItem, ...]
    provenance: dict

    def item(self, key: str) -> FolkItem:
        return next(i for i in self.items if i.key == key)

    def to_polars(self) -> pl.DataFrame:
        """One row an item: key, measure, value, low, high, n, clusters, p, p_holm, verdict, reflects,
        info and its figure (info_value, info_low, info_high, info_n)."""
        rows = []
        for i in self.items:
            x = i.info_value or Estimate.none()
            rows.append({"key": i.key, "measure": i.measure, "value": i.effect.value, "low": i.effect.low,
                         "high": i.effect.high, "n": i.effect.n, "clusters": i.effect.clusters, "p": i.p,
                         "p_holm": i.p_holm, "verdict": i.verdict, "reflects": i.reflects, "info": i.info,
                         "info_value": x.value, "info_low": x.low, "info_high": x.high, "info_n": x.n})
        return pl.DataFrame(rows, schema=_SCHEMA)

    @classmethod
    def from_polars(cls, frame: pl.DataFrame, provenance: dict) -> FolkAdvice:
        """The result back from its stored table."""
        def num(x):
            return math.nan if x is None else float(x)

        items = []
        for r in frame.iter_rows(named=True):
            info = None if not r["info"] else Estimate(num(r["info_value"]), num(r["info_low"]), num(r["info_high"]),
                                                       n=r["info_n"])
            items.append(FolkItem(key=r["key"], measure=r["measure"],
                                  effect=Estimate(num(r["value"]), num(r["low"]), num(r["high"]), n=r["n"],
                                                  clusters=r["clusters"]),
                                  p=num(r["p"]), p_holm=num(r["p_holm"]), verdict=r["verdict"], reflects=r["reflects"],
                                  info=r["info"], info_value=info))
        return cls(items=tuple(items), provenance=provenance)

    def to_dict(self) -> dict:
        return {**self.provenance, "items": [dataclasses.asdict(i) for i in self.items]}


_SCHEMA = {"key": pl.String, "measure": pl.String, "value": pl.Float64, "low": pl.Float64, "high": pl.Float64,
           "n": pl.Int64, "clusters": pl.Int64, "p": pl.Float64, "p_holm": pl.Float64, "verdict": pl.String,
           "reflects": pl.String, "info": pl.String, "info_value": pl.Float64, "info_low": pl.Float64,
           "info_high": pl.Float64, "info_n": pl.Int64}


# ---- the verdict rule ---------------------------------------------------------------------------------------------
def verdict(effect: Estimate, p_holm: float, alpha: float = ALPHA) -> str:
    """The verdict on one tested item from its effect (positive = as the advice says) and its
    Holm-corrected p-value (module docstring)."""
    if math.isnan(effect.value) or math.isnan(p_holm) or math.isnan(effect.low):
        return TOO_FEW
    if p_holm < alpha:
        return SUPPORTED if effect.value > 0 else CONTRADICTED
    return NOT_TOLD_APART


def _p(effect: Estimate) -> float:
    """The two-sided p-value of an effect read from its normal 95% interval."""
    if math.isnan(effect.low) or math.isnan(effect.high):
        return math.nan
    return two_sided_p(effect.value, (effect.high - effect.low) / (2 * Z95))


def with_verdicts(items: list[FolkItem]) -> tuple[FolkItem, ...]:
    """The items with ``p`` read from each tested effect's interval, Holm's over the tested items
    and each verdict by ``verdict``; untested items keep theirs."""
    tested = [i for i, item in enumerate(items) if item.tested]
    ps = [_p(items[i].effect) for i in tested]
    adjusted = dict(zip(tested, holm(ps), strict=True))
    out = []
    for i, item in enumerate(items):
        if i in adjusted:
            p = _p(item.effect)
            item = dataclasses.replace(item, p=p, p_holm=adjusted[i], verdict=verdict(item.effect, adjusted[i]))
        out.append(item)
    return tuple(out)


def clustered_effect(values: np.ndarray, clusters: np.ndarray) -> Estimate:
    """The mean of per-row ``values`` with its normal 95% interval clustered by ``clusters`` (the
    delta method over the clusters' sums; no interval from fewer than 8 clusters)."""
    values, clusters = np.asarray(values, dtype=np.float64), np.asarray(clusters)
    if len(values) == 0:
        return Estimate.none()
    _, inverse = np.unique(clusters, return_inverse=True)
    r = RatioOfSums()
    r.add(np.bincount(inverse, weights=values), np.bincount(inverse).astype(np.float64))
    x = r.interval()
    return Estimate(x["mean"], x["ci_low"], x["ci_high"], n=len(values), clusters=r.n)


def effect_from_interval(e: Estimate, sign: int = 1) -> Estimate:
    """An estimate turned so that positive is what the advice says (``sign`` -1 flips it)."""
    if sign == 1:
        return e
    return Estimate(-e.value, -e.high, -e.low, n=e.n, clusters=e.clusters)


# ---- the double-dummy experiments -----------------------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Declarers:
    """Declarers' deals from played games (one row a deal): ``game`` (the cluster), the declarer's
    ``ten`` cards (his 7 and the talon), the opponents' 7 cards (``left7``: the seat after him,
    ``right7``), the cards he gave (``gift_left``, ``gift_right``, card indices) and his first lead
    (``first_lead``, a card index)."""

    game: np.ndarray
    ten: np.ndarray
    left7: np.ndarray
    right7: np.ndarray
    gift_left: np.ndarray
    gift_right: np.ndarray
    first_lead: np.ndarray

    @property
    def rows(self) -> int:
        return len(self.game)

    def hands(self, gift_left: np.ndarray, gift_right: np.ndarray) -> np.ndarray:
        """(rows, 3) card masks after the gifts: the declarer's 8, left's 8, right's 8."""
        bl, br = np.int64(1) << gift_left, np.int64(1) << gift_right
        return np.stack([self.ten & ~bl & ~br, self.left7 | bl, self.right7 | br], axis=1)


def small_gifts(ten: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The small-cards rule's gifts from each 10-card mask: the two cards of fewest points outside
    the marriages the 10 cards hold (ties: the lower card index), the smaller to the left (the seat
    after the declarer)."""
    ten = np.asarray(ten, dtype=np.int64)
    married = np.zeros(len(ten), dtype=np.int64)
    for m in MARRIAGE_MASK:
        married |= np.where((ten & int(m)) == int(m), int(m), 0)
    free = ten & ~married
    key = CARD_POINTS * N_CARDS + np.arange(N_CARDS)  # points first, then the card index
    order = np.argsort(key, kind="stable")
    bits = (free[:, None] >> order[None, :]) & 1
    first = np.argmax(bits, axis=1)
    bits[np.arange(len(ten)), first] = 0
    second = np.argmax(bits, axis=1)
    return order[first].astype(np.int64), order[second].astype(np.int64)


def gift_values(d: Declarers, rules: HouseRules, threads: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(the small-cards rule's, the played gifts') double-dummy values of each deal: the
    declarer's points (cards and marriages) with every card seen, he on lead, no trump."""
    a, b = small_gifts(d.ten)
    rule = solver.dd_values(d.hands(a, b), rules=rules, threads=threads)
    played = solver.dd_values(d.hands(d.gift_left, d.gift_right), rules=rules, threads=threads)
    return rule, played


def lead_values(d: Declarers, rules: HouseRules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per deal after the played gifts: the double-dummy value of the best ace lead, of the best
    lead of another card (-1 where he has no ace, or only aces) and of the played first lead."""
    hands = d.hands(d.gift_left, d.gift_right)
    best_ace = np.full(d.rows, -1, dtype=np.int64)
    best_other = np.full(d.rows, -1, dtype=np.int64)
    played = np.full(d.rows, -1, dtype=np.int64)
    for i in range(d.rows):
        values = solver.lead_values(hands[i], rules=rules)
        aces = [v for c, v in values.items() if c % 6 == ACE]
        others = [v for c, v in values.items() if c % 6 != ACE]
        if aces and others:
            best_ace[i], best_other[i] = max(aces), max(others)
        played[i] = values.get(int(d.first_lead[i]), -1)
    return best_ace, best_other, played


def gives_ace_or_ten(cards: np.ndarray) -> np.ndarray:
    """Whether each card index is an ace or a ten."""
    rank = np.asarray(cards) % 6
    return (rank == ACE) | (rank == TEN)

