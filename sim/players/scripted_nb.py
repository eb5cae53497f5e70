"""The scripted player of the known-answer tests: it plays a given list of actions, in the order
the engine asks for them. ``script[0]`` is the cursor; an action the rules refuse makes the engine
report the deal illegal, and the cursor tells which action it was."""

from sim.numba_config import jit_hot

SCRIPT_EXHAUSTED = -999  # an action no decision accepts: the engine reports the deal illegal


@jit_hot
def next_scripted(script):
    """The next action of a scripted seat: ``script[0]`` is the cursor, left one past the end when
    the script ran out."""
    i = script[0]
    if i >= script.shape[0]:
        script[0] = script.shape[0] + 1
        return SCRIPT_EXHAUSTED
    script[0] = i + 1
    return script[i]


@jit_hot
def scripted_discard(givable, script):
    """The next two actions as the declarer's discard (to the next seat, then the one after)."""
    first = next_scripted(script)
    if first < 0 or first > 23 or not (givable >> first) & 1:
        return first, first  # refused before the second is read, so the refusal names this action
    return first, next_scripted(script)


@jit_hot
def scripted_burial(givable, to_talon, script):
    """players = 2: the next actions as the two buried cards and, with ``to_talon``, the card for
    the untaken talon (else -1)."""
    first = next_scripted(script)
    if first < 0 or first > 23 or not (givable >> first) & 1:
        return first, first, -1  # refused before the next is read, so the refusal names this action
    second = next_scripted(script)
    if not to_talon or second < 0 or second > 23 or second == first or not (givable >> second) & 1:
        return first, second, -1
    return first, second, next_scripted(script)
