"""Quiz mode: fresh exercise instances whose worked answers the engine computes.

In the spirit of OSTEP's homework simulators: every topic draws a small problem from a seed (the
same seed gives the same problem), states it in words, and solves it by running the engine
layer the problem is about, so the answer is the model's, never a hand-written key.

>>> from flashlab import quiz
>>> p = quiz.make("ftl", seed=3)
>>> print(p.text)            # the problem
>>> print(p.solution())      # the worked answer, computed by flashlab.ftl

Topics (:data:`TOPICS`): ``ispp`` (a cell's pulses to verify, its program time and the electrons
moved), ``shrink`` (electrons per state and neighbour coupling of a planar cell before and after a
shrink), ``wrap`` (where the control gate stops fitting round the floating gate, and the coupling
ratio and electrons per state of the wrapped, flat and flat high-k cells), ``bake`` (the retention at a use temperature that a bake stands for, by Arrhenius), ``boost``
(the self-boosted channel of an inhibited string and what a cut precharge costs),
``nand3d`` (deck height, channel hole, density and cost per bit of a 3D stack for two
deck counts), ``string`` (the read current and sense time of a 3D string, its erase block and
sub-block erase unit), ``tprog`` (a 3D word line's program time from its ISPP loops and string
verifies, one shot against page by page), ``ftl`` (which pages are valid or stale after a write sequence, and the
write amplification), ``gc`` (the victim each policy picks and the copies it costs),
``readpoints`` (Gray-code bits of a cell, and the page that sees an error when a read point
moves), ``ecc`` (can a BCH code meet a UBER target at a raw bit error rate), ``softread`` (a hard
read's capacity limit for a code's rate, and the mean latency of hard-first, soft-on-failure
reads), ``cliff`` (Little's
law on a simulated drive), ``pacing`` (what a write waits for when the collector stops the host,
and when it paces it), ``sweep`` (a grid's size and run time, and its WA against Agarwal &
Marrow's model, run with :mod:`flashlab.sweep`; needs the ``sweep`` extra), ``capacity`` (raw,
usable and effective capacity of an array), ``reduction`` (what remains of an array's usable
capacity under always-on data reduction, and what its effective figure promises), ``rebuild``
(how long a rebuild takes, and the chance of a second failure or an unreadable sector during it
for RAID-5 and RAID-6), ``flush`` (the
flash-write factor of flushed 4 KiB writes for a NAND page size, a flush cadence and power-loss
protection), ``logsync`` (the mean log file sync of committing sessions by Little's law, beside
the log writer's log file parallel write), ``commit`` (what a PostgreSQL or InnoDB setting sends
a real drive at commit, what a commit waits for with and without power-loss protection, and
what a power cut can lose), ``mix`` (the read and write IOPS fio reports for
``rwmixread`` at an iodepth, by Little's law), ``placement`` (a database's cost all on disk, all
on flash and on disks behind a flash cache for its zipf reads, and the access density where flash
wins), ``trim`` (a drive's over-provisioning with and
without TRIM under file-system churn, and its write amplification), ``zns`` (where a zoned
drive's cleaning cost goes: the host's greedy cleaner over zones, its write amplification and
bus traffic), ``act`` (the load an ACT
multiple asks of a device, and ACT's verdict on a second's slow reads). The command line
equivalent is
``flashlab quiz TOPIC --seed N [--solve]``.
"""

from flashlab.quiz.problems import TOPICS, Problem, make

__all__ = ["TOPICS", "Problem", "make"]
