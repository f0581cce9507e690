"""Linked games under faults: every game ends with the same actions and the
same result on both boards, none stuck, none divergent.

The campaign (tests/app/linkcampaign.py, also tools/bench_link.py) plays
two whole Apps on a simulated wire from recorded seeds, with faults at
random instants: cable pulls of any length, noise, power cuts tearing
writes, resets, the last turn played with the cable out and the result left
at once (then the winner's board reset or cut off), equal offers from equal
seeds in the same millisecond, matches with a board's flash lost whole.
The default run plays two games of each kind; the volume run (`full`) 30
of each, 270 games.
"""

import pytest

from tests.app.linkcampaign import KINDS, campaign


def _no_failures(per_kind, first_seed):
    out = campaign(KINDS, per_kind, first_seed)
    failed = [note for kind in KINDS for note in out[kind][2]]
    assert sum(out[kind][0] for kind in KINDS) == per_kind * len(KINDS)
    assert not failed, "\n".join(failed)


def test_two_linked_games_of_each_fault_kind_end_alike_on_both_boards():
    _no_failures(2, 500)


@pytest.mark.full
def test_270_linked_games_under_faults_end_alike_on_both_boards():
    _no_failures(30, 1)
