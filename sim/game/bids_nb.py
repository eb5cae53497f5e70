"""Legal bids and final contracts: the one place that says which are allowed (RULES.md §2 steps 2
and 5, §4.3; docs/RULES.md "Choices where RULES.md is silent" and "The forced bid, all passing, the
ceiling and step before the talon"). The engine checks every answer with it, the players choose
among its values, and the analyses (the bid advisor's lines and contract levels, the bid tables)
list them with it.

- The seat holding the forced bid (``forced_first_bid``: first hand, or the dealer under
  ``forced_bid_seat = dealer``) opens with its forced bid: ``min_bid``, or ``barrel_min_contract``
  for a sitter under ``barrel_min_bid_enforced``; the same seat may go dark. Under ``all_pass =
  dealer_plays`` the dealer, when every other seat passed without a bid, is declarer at his forced
  bid.
- A bid of the auction raises the current one by ``bid_step`` or more (exactly one step under
  ``no_jump_bids``) up to the bidding cap: 120 + the marriages held (``no_bid_cap``: none), at most
  ``max_contract`` and at most ``bid_ceiling_before_talon``. A sitter under
  ``barrel_min_bid_enforced`` bids at least ``barrel_min_contract`` (the least value of the step's
  grid that reaches it).
- The final contract is the winning bid, or a raise to any multiple of 5 up to the cap of the
  declarer's hand after the talon (the ceiling before the talon does not apply); under
  ``no_raise_after_talon`` the winning bid only (``contract_cap`` is then the bid).
- Under ``bid_step_10_from = F`` a bid or a raised final contract at or above F is a multiple of 10
  (a rule on the value: 195 -> 200 is a raise, 205 is no bid).

Values below are multiples of 5 (``bid_step_10_from`` is refused with ``bid_step = 10``).
"""

from sim.game import rules_layout as R
from sim.game.amounts import ACCUMULATE_BID_CAP, UNDARK_BID
from sim.game.play_nb import bid_cap, marriage_total
from sim.game.state_layout import G_ON_BARREL
from sim.numba_config import jit_hot

__all__ = [
    "forced_seat", "forced_bid", "allowed_value", "value_up", "value_down", "auction_cap", "raise_reaching",
    "sitter_floor", "bid_range", "legal_bid", "bid_at_most", "count_raises", "nth_raise", "next_raise",
    "contract_cap", "legal_contract", "contract_at_most", "contract_at_least", "bid_values",
]


@jit_hot
def forced_seat(dealer, n, rules):
    """The seat of ``n`` holding the forced opening bid (forced_first_bid) and the dark game: first
    hand (left of the dealer), or the dealer under forced_bid_seat = dealer."""
    if rules[R.FORCED_FIRST_BID] and rules[R.FORCED_BID_SEAT]:
        return dealer
    return (dealer + 1) % n


@jit_hot
def forced_bid(gs, rules, seat):
    """The bid ``seat`` is forced to (forced_first_bid's opening, the dealer's contract under
    all_pass = dealer_plays): min_bid, or for a sitter under barrel_min_bid_enforced the least bid
    of the step's grid from min_bid that reaches barrel_min_contract."""
    if rules[R.BARREL_MIN_BID_ENFORCED] and gs[G_ON_BARREL + seat]:
        return sitter_floor(rules[R.MIN_BID], rules)
    return rules[R.MIN_BID]


@jit_hot
def allowed_value(value, rules):
    """Whether ``value`` (a bid or a raised contract, a multiple of 5) passes bid_step_10_from: a
    multiple of 10 at or above it."""
    above = rules[R.BID_STEP_10_FROM]
    return above == 0 or value < above or value % 10 == 0


@jit_hot
def value_up(value, rules):
    """The least value >= ``value`` (a multiple of 5) that ``allowed_value`` allows."""
    return value if allowed_value(value, rules) else value + 5


@jit_hot
def value_down(value, rules):
    """The greatest value <= ``value`` (a multiple of 5) that ``allowed_value`` allows."""
    return value if allowed_value(value, rules) else value - 5


@jit_hot
def auction_cap(hand, rules):
    """The highest bid ``hand`` allows in the auction: its bidding cap (``bid_cap``) and at most
    bid_ceiling_before_talon."""
    cap = bid_cap(hand, rules)
    ceiling = rules[R.BID_CEILING_BEFORE_TALON]
    if ceiling and ceiling < cap:
        return ceiling
    return cap


@jit_hot
def raise_reaching(least, need, rules):
    """The least raise from ``least`` on the bid_step grid that reaches ``need`` (``least`` itself
    when it does), lifted onto a value bid_step_10_from allows."""
    if least < need:
        step = rules[R.BID_STEP]
        least += (need - least + step - 1) // step * step
    return value_up(least, rules)


@jit_hot
def sitter_floor(least, rules):
    """The least raise from ``least`` that reaches barrel_min_contract (``raise_reaching``)."""
    return raise_reaching(least, rules[R.BARREL_MIN_CONTRACT], rules)


@jit_hot
def bid_range(hand, seat, high, high_seat, dark, gs, rules):
    """(least, greatest): the bids ``seat`` holding ``hand`` may make now, the current bid being
    ``high`` by ``high_seat`` (-1: nobody bid yet; the least is then min_bid). ``dark``: the
    forced seat went dark and nobody undarked: the least is 125 and only a hand holding a marriage
    may bid. A sitter bids at most 120 under barrel_accumulate, at least barrel_min_contract under
    barrel_min_bid_enforced. Every bid of ``legal_bid`` lies in between; least > greatest: he can
    only pass."""
    least = high + rules[R.BID_STEP] if high_seat >= 0 else rules[R.MIN_BID]
    cap = auction_cap(hand, rules)
    if dark:
        least = max(least, UNDARK_BID)
        if marriage_total(hand, rules) == 0:
            cap = 0  # only a marriage lets a player undark
    if gs[G_ON_BARREL + seat]:
        if rules[R.BARREL_ACCUMULATE]:
            cap = min(cap, ACCUMULATE_BID_CAP)
        if rules[R.BARREL_MIN_BID_ENFORCED]:
            least = sitter_floor(least, rules)
    return value_up(least, rules), cap


@jit_hot
def legal_bid(bid, least, cap, rules):
    """Whether ``bid`` (not 0, a pass) is allowed with ``bid_range`` (``least``, ``cap``): from least
    to cap on the bid_step grid from least, allowed by bid_step_10_from, and under no_jump_bids
    exactly least."""
    if bid < least or bid > cap or (bid - least) % rules[R.BID_STEP] or not allowed_value(bid, rules):
        return False
    return not rules[R.NO_JUMP_BIDS] or bid == least


@jit_hot
def bid_at_most(value, least, rules):
    """The greatest legal bid from ``least`` (a legal bid) up to ``value`` >= least, jumps allowed:
    least plus whole steps, lowered onto a value bid_step_10_from allows."""
    step = rules[R.BID_STEP]
    return value_down(least + (value - least) // step * step, rules)


@jit_hot
def next_raise(value, step, rules):
    """The next value after ``value`` on a grid of ``step`` that bid_step_10_from allows."""
    return value_up(value + step, rules)


@jit_hot
def count_raises(least, top, step, rules):
    """How many values from ``least`` (allowed) to ``top`` lie on its grid of ``step`` and are
    allowed by bid_step_10_from (0 when top < least)."""
    if top < least:
        return 0
    if rules[R.BID_STEP_10_FROM] == 0:
        return (top - least) // step + 1
    n = 0
    v = least
    while v <= top:
        n += 1
        v = next_raise(v, step, rules)
    return n


@jit_hot
def nth_raise(least, k, step, rules):
    """The ``k``-th (0-based) value of ``count_raises``'s list."""
    if rules[R.BID_STEP_10_FROM] == 0:
        return least + k * step
    v = least
    for _ in range(k):
        v = next_raise(v, step, rules)
    return v


@jit_hot
def contract_cap(hand, bid, rules):
    """The highest final contract of a declarer who won with ``bid`` and holds ``hand`` after the
    talon: the bidding cap of his hand (``bid_cap``; the ceiling before the talon does not apply),
    or under no_raise_after_talon the bid itself."""
    if rules[R.NO_RAISE_AFTER_TALON]:
        return bid
    return bid_cap(hand, rules)


@jit_hot
def legal_contract(contract, bid, cap, rules):
    """Whether ``contract`` is an allowed final contract for a declarer who won with ``bid`` and
    whose hand after the talon allows ``cap`` (``contract_cap``): the bid itself, or (not under
    no_raise_after_talon) a raise to a multiple of 5 up to the cap that bid_step_10_from allows."""
    if contract == bid:
        return True
    return (not rules[R.NO_RAISE_AFTER_TALON] and contract > bid and contract % 5 == 0 and contract <= cap
            and allowed_value(contract, rules))


@jit_hot
def contract_at_most(value, bid, rules):
    """The greatest allowed final contract up to ``value`` (a multiple of 5) for the winning ``bid``:
    the bid when value is not above it."""
    if value <= bid:
        return bid
    return value_down(value, rules)


@jit_hot
def contract_at_least(value, rules):
    """The least raised contract >= ``value`` (a multiple of 5) that bid_step_10_from allows."""
    return value_up(value, rules)


def bid_values(least, top, rules) -> list[int]:
    """(Plain Python, for the analyses.) The values from ``least`` (an allowed one) to ``top`` on the
    bid_step grid from ``least`` that bid_step_10_from allows: the bids a raise can stop at, the bid
    advisor's lines and contract levels, the bid tables' levels. ``rules``: a rules array."""
    step = int(rules[R.BID_STEP])
    return [int(nth_raise(least, k, step, rules)) for k in range(int(count_raises(least, top, step, rules)))]
