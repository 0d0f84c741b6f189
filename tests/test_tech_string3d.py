"""The 3D string and its block: closed forms worked by hand, and Kioxia's published block sizes
(4 strings per block set from the 128-layer die's 24 MB, the 96-layer die's 18 MB predicted)."""

from __future__ import annotations

import pytest

from flashlab.drives.nand import INTEL_QLC_64L, SAMSUNG_V6_TLC
from flashlab.tech import GENERATIONS_3D, Stack3D, VerticalString


def test_string_current_and_sense_time_by_hand():
    s = VerticalString(Stack3D(128))  # one deck: 128 + 8 gates
    r = 5000e3 + 136 * 200e3  # ohm
    assert s.resistance_kohm * 1e3 == pytest.approx(r)
    assert s.current_na == pytest.approx(0.5 / r * 1e9)
    assert s.t_sense_us == pytest.approx(1e-12 * 0.2 / (0.5 / r) * 1e6)
    # more layers, more gates in series: less current, a slower sense
    currents = [VerticalString(st).current_na for st in GENERATIONS_3D.values()]
    gates = [st.gates for st in GENERATIONS_3D.values()]
    order = sorted(range(len(gates)), key=gates.__getitem__)
    assert [currents[i] for i in order] == sorted(currents, reverse=True)


def test_block_size_predicts_kioxias_published_blocks():
    # Kioxia (tallis2021isscc): 24 MB at 128 layers sets 4 strings of 16 KiB pages; 18 MB at 96 is predicted
    set_from = VerticalString(Stack3D(128), strings_per_block=4)
    assert set_from.block_bytes == 24 * 2**20
    predicted = VerticalString(Stack3D(96), strings_per_block=4).block_bytes
    assert predicted / 2**20 == pytest.approx(18.0, rel=0.02)


def test_the_parts_blocks_come_from_their_strings():
    # word lines x strings x bits, worked by hand: the drive presets' 3D parts take these
    assert SAMSUNG_V6_TLC.pages_per_block == 128 * 4 * 3
    assert SAMSUNG_V6_TLC.pages_per_block * SAMSUNG_V6_TLC.page_bytes == 24 * 2**20
    assert INTEL_QLC_64L.pages_per_block == 64 * 4 * 4
    # the parts state them as numbers, so that importing the drives layer imports no technology model
    assert SAMSUNG_V6_TLC.pages_per_block == VerticalString(Stack3D(128, bits=3), strings_per_block=4).pages_per_block
    assert INTEL_QLC_64L.pages_per_block == VerticalString(Stack3D(64, 2, bits=4), strings_per_block=4).pages_per_block


def test_sub_blocks_divide_the_erase_unit():
    whole = VerticalString(Stack3D(232, 2))
    quarter = VerticalString(Stack3D(232, 2), sub_blocks=4)
    assert whole.erase_unit_bytes == whole.block_bytes == 232 * 4 * 3 * 16384
    assert quarter.erase_unit_bytes * 4 == whole.block_bytes
    third = VerticalString(Stack3D(232, 2), sub_blocks=3)  # 78 + 77 + 77 word lines
    assert third.erase_unit_bytes == 78 * 4 * 3 * 16384
    with pytest.raises(ValueError, match="sub_blocks"):
        VerticalString(Stack3D(8), sub_blocks=9)
    with pytest.raises(ValueError, match="stack"):
        VerticalString(232)
