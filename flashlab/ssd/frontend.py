"""The front of a drive's data path: the host interface (the link and its protocol) and the
controller that processes every command before the NAND sees it.

A host command of a drive with a :class:`HostInterface` or a :class:`Controller` (set in
:class:`flashlab.ssd.SsdConfig`) takes this path (the engine's ``Front`` record,
:mod:`flashlab.ssd._kernels`):

1. it waits in the host until the device has room: at most ``max_qd`` commands are inside the
   device (fetched and not yet completed); the rest wait in the host's submission queue, and
   their latency counts from their arrival there;
2. it crosses the link towards the drive: ``command_overhead_us`` for the command's protocol
   exchange, plus a write's data at ``link_mb_s``, one command after another (the link is a
   single FIFO server per direction);
3. a controller core processes it in ``command_us`` (``cores`` identical cores, each command
   to the first core free, in arrival order);
4. it enters the NAND back end (write cache, FTL, planes and channels) as before;
5. a read's data, once its last NAND page has crossed its channel, is decoded (``ecc_decode_us``,
   a latency: decoding is pipelined, one decoder per read) and crosses the link back to the
   host, in the order the data is ready. A read served by the write cache or of unmapped pages
   skips the decode but still crosses the link. A write is complete when the back end says so
   (its acknowledgement crosses the link in no time).

On an idle drive a 4 KiB read at queue depth 1 therefore takes exactly
``command_overhead_us + command_us + tR + page_size / channel_mb_s + ecc_decode_us + 4096 /
link_mb_s``, and with enough queued reads the drive's random-read rate is the smallest of
``cores / command_us``, ``link_mb_s / read_size``, ``1 / command_overhead_us`` and what the
planes and channels deliver. Times in microseconds, rates in MB/s (= bytes per microsecond).
"""

from __future__ import annotations

from dataclasses import dataclass

from flashlab._validate import check_bool, check_int, check_real, check_text

#: Most controller cores a drive may have (the engine keeps one "free at" time per core).
MAX_CORES = 64

# PCIe raw rate per lane, GT/s, by generation (PCI-SIG base specifications 1.0 to 5.0), and the
# line-code efficiency: 8b/10b for generations 1-2, 128b/130b from generation 3.
_PCIE_GT_S = {1: 2.5, 2: 5.0, 3: 8.0, 4: 16.0, 5: 32.0}


@dataclass(frozen=True, kw_only=True)
class HostInterface:
    """The link between host and drive.

    Parameters
    ----------
    link_mb_s : float in (0, 1e6], MB/s (bytes per microsecond)
        Usable payload bandwidth per direction: line rate after line coding and protocol
        overhead.
    command_overhead_us : float in [0, 1e4], us
        Link time of one command's protocol exchange (command, status, and for SATA the FIS
        handshakes), on the link towards the drive, before a write's data.
    max_qd : int in [1, 65536]
        Most commands inside the device at once (NCQ's 32 on SATA; an NVMe drive's queue
        entries); commands beyond it wait in the host.
    duplex : bool
        True (PCIe): each direction is its own link. False (SATA, half duplex): commands, write
        data and read data share one link.
    name : str, a label
    """

    link_mb_s: float
    command_overhead_us: float = 0.0
    max_qd: int = 32
    duplex: bool = True
    name: str = "custom"

    def __post_init__(self):
        check_real("link_mb_s", self.link_mb_s, 0.0, 1e6, lo_open=True)
        check_real("command_overhead_us", self.command_overhead_us, 0.0, 1e4)
        check_int("max_qd", self.max_qd, 1, 65536)
        check_bool("duplex", self.duplex)
        check_text("name", self.name, 1, 200)

    @classmethod
    def sata(cls, gbps: float = 6.0, *, efficiency: float = 0.92, command_overhead_us: float = 1.0,
             max_qd: int = 32) -> "HostInterface":
        """A SATA link of ``gbps`` Gb/s line rate (1.5, 3 or 6): 8b/10b line coding (8 data bits
        in 10 line bits), then ``efficiency`` for framing and FIS headers; one half-duplex link
        and NCQ's 32 commands. The default ``efficiency`` (0.92, 552 of 600 MB/s at 6 Gb/s) and
        ``command_overhead_us`` (1 us: the command, DMA-setup and status FISes with their
        handshakes) are assumptions, not cited figures; a preset sets them from its datasheet."""
        check_real("gbps", gbps, 0.0, 100.0, lo_open=True)
        check_real("efficiency", efficiency, 0.0, 1.0, lo_open=True)
        return cls(link_mb_s=gbps * 1e3 * 0.8 / 8 * efficiency, command_overhead_us=command_overhead_us,
                   max_qd=max_qd, duplex=False, name=f"SATA {gbps:g} Gb/s")

    @classmethod
    def pcie(cls, gen: int = 4, lanes: int = 4, *, efficiency: float = 0.86, command_overhead_us: float = 0.1,
             max_qd: int = 1024) -> "HostInterface":
        """A PCIe link of generation ``gen`` (1 to 5) with ``lanes`` lanes (1 to 16): 2.5, 5, 8,
        16 or 32 GT/s per lane, 8b/10b line coding for generations 1-2 and 128b/130b from 3, then
        ``efficiency`` for transaction-layer packet headers, framing, CRC and flow-control
        packets. The default 0.86 is an assumption (a 256-byte TLP payload carries about 26
        bytes of header, framing and CRC, 0.91, and acknowledgement and flow-control packets
        take a few percent more), as are ``command_overhead_us`` (0.1 us: fetching a 64-byte
        NVMe command and posting a 16-byte completion and an interrupt) and ``max_qd``; a
        preset sets them from its datasheet. Gen 4 x4: 7,877 MB/s after coding, 6,774 MB/s at
        the default efficiency."""
        check_int("gen", gen, 1, 5)
        check_int("lanes", lanes, 1, 16)
        check_real("efficiency", efficiency, 0.0, 1.0, lo_open=True)
        coding = 0.8 if gen <= 2 else 128 / 130
        return cls(link_mb_s=_PCIE_GT_S[gen] * 1e3 / 8 * coding * lanes * efficiency,
                   command_overhead_us=command_overhead_us, max_qd=max_qd, duplex=True,
                   name=f"PCIe Gen{gen} x{lanes}")


@dataclass(frozen=True, kw_only=True)
class Controller:
    """The drive's controller: firmware cores that process every command, and the ECC decoder.

    Parameters
    ----------
    cores : int in [1, MAX_CORES]
        Firmware cores processing commands side by side.
    command_us : float in [0, 1e5], us
        Firmware time of one command on one core (whatever its size): the controller
        completes at most ``cores / command_us`` commands per microsecond, which caps a modern
        drive's random-read IOPS. Rarely published: a preset sets it once from one datasheet
        figure and says which.
    ecc_decode_us : float in [0, 1e5], us
        Added to every read served from NAND before its data leaves the drive (LDPC or BCH
        decoding of the sensed codewords; pipelined: a latency, not a shared server).
    """

    cores: int = 1
    command_us: float = 0.0
    ecc_decode_us: float = 0.0

    def __post_init__(self):
        check_int("cores", self.cores, 1, MAX_CORES)
        check_real("command_us", self.command_us, 0.0, 1e5)
        check_real("ecc_decode_us", self.ecc_decode_us, 0.0, 1e5)

    @property
    def max_iops(self) -> float:
        """Commands per second the cores can process: ``cores / command_us`` (inf at 0 us)."""
        return float("inf") if self.command_us == 0 else self.cores / self.command_us * 1e6
