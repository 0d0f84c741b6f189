"""From write amplification to an endurance rating: the JESD219 enterprise workload, TBW and DWPD
against the datasheets.

Tolerances: the one figure set from a rating (the V6 TLC's P/E cycles, from the PM9A3's 1.3
DWPD) must give it back within 3 %. Every other rating is a prediction, and the model's TBW is an
upper bound on it: it counts only the flash's cycles, while a rating also keeps the data
retention JESD218 requires at the end of life, spare for blocks that fail, and the vendor's
margin; and for client drives it uses the enterprise workload, whose WA is above a client
trace's. The test asks for the model between 1 and 5 times the rating; the book prints each.
"""

import numpy as np
import pytest

from flashlab.drives import DRIVES, PM9A3, RATINGS, dwpd, endurance, tbw
from flashlab.drives.endurance import CALIBRATED_FROM
from flashlab.workload import OP_WRITE, EnterpriseEndurance
from flashlab.workload.jedec import SIZES, SIZE_SHARES


def test_tbw_and_dwpd_by_hand():
    # 1 TB of user space at op 0.1: 1.1 TB of flash, 1,000 cycles, WA 2 -> 550 TB written
    assert tbw(1.1e12, 1000, 2.0) == pytest.approx(550.0)
    # 550 TB over 5 years on a 1 TB drive: 550 / 1825 drive writes per day
    assert dwpd(550.0, 1e12, 5.0) == pytest.approx(550.0 / 1825.0)


def test_enterprise_mix_is_the_standards():
    wl = EnterpriseEndurance()
    # the table of JESD219 (fio's bssplit), by hand: bytes and whole 4 KiB pages per request
    assert SIZE_SHARES.sum() == pytest.approx(1.0)
    assert wl.mean_request_bytes == pytest.approx(7818.24)
    assert wl.mean_request_pages == pytest.approx(1.97)
    assert wl.page_overhead == pytest.approx(1.97 * 4096 / 7818.24)
    user = 100_000
    ops, lbas = next(wl.chunks(user, seed=1, chunk_size=200_000))
    assert np.all(ops == OP_WRITE)
    assert lbas.size / 200_000 == pytest.approx(1.97, abs=0.02)
    # pages by zone: 50 % in the first 5 % of the LBAs, 30 % in the next 15 %, 20 % in the rest
    # (a request that starts near a zone's end spills a few pages into the next)
    zone = np.searchsorted([5_000, 20_000], lbas, side="right")
    assert np.bincount(zone, minlength=3) / lbas.size == pytest.approx([0.5, 0.3, 0.2], abs=0.01)
    assert SIZES[SIZE_SHARES.argmax()] == 4096


def test_enterprise_stream_is_seeded():
    a = next(EnterpriseEndurance().chunks(1000, seed=3, chunk_size=500))[1]
    b = next(EnterpriseEndurance().chunks(1000, seed=3, chunk_size=500))[1]
    c = next(EnterpriseEndurance().chunks(1000, seed=4, chunk_size=500))[1]
    assert np.array_equal(a, b) and not np.array_equal(a, c)


def test_calibrated_pe_rating_gives_back_its_rating():
    assert CALIBRATED_FROM == "pm9a3"
    e = endurance(PM9A3, "enterprise")
    assert e.dwpd == pytest.approx(1.3, rel=0.03)


@pytest.mark.parametrize("key", [k for k in RATINGS if k != CALIBRATED_FROM])
def test_model_tbw_bounds_each_rating_from_above(key):
    rating = RATINGS[key]
    workload = "random_4k" if rating.workload == "random_4k" else "enterprise"
    e = endurance(DRIVES[key], workload)
    assert e.wa == pytest.approx(e.wa_pages * e.page_overhead)
    assert e.tbw == pytest.approx(e.raw_bytes * e.pe_cycles / e.wa / 1e12)
    assert 1.0 <= e.tbw / rating.tbw <= 5.0, (key, e.tbw, rating.tbw)


@pytest.mark.parametrize("kwargs, name", [
    ({"drive": "pm9a3"}, "drive"),
    ({"workload": "client"}, "workload"),
    ({"blocks": 10}, "blocks"),
    ({"fills": 1.0}, "fills"),
    ({"years": 0.0}, "years"),
])
def test_endurance_refuses_bad_input(kwargs, name):
    with pytest.raises(ValueError, match=name):
        endurance(**{"drive": PM9A3, **kwargs})


@pytest.mark.parametrize("call, name", [
    (lambda: tbw(1e12, 1000, 0.0), "wa"), (lambda: tbw(-1.0, 1000, 2.0), "raw_bytes"),
    (lambda: dwpd(100.0, 1e12, -5.0), "years"),
])
def test_rating_arithmetic_refuses_bad_input(call, name):
    with pytest.raises(ValueError, match=name):
        call()
