"""``flashlab rber``: raw bit error rate per page type, UBER and endurance of a cell technology."""

from __future__ import annotations

import json

from flashlab.cell.distributions import vth_distributions
from flashlab.cell.ecc import UBER_CLIENT, EccCode, endurance_pe_cycles, uber
from flashlab.cell.errors import optimal_read_refs, rber_analytic
from flashlab.presets import PRESETS


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "rber",
        help="raw bit error rate per page type, UBER and endurance",
        description="RBER per page type (factory and read-retry references), UBER of the worst page "
        "and the P/E count where UBER reaches the target, for a preset cell technology.",
    )
    p.add_argument("--cell", default="tlc", choices=sorted(PRESETS), help="technology preset (default tlc)")
    p.add_argument("--pe", type=float, default=0.0, help="P/E cycles already done (default 0)")
    p.add_argument("--retention-days", type=float, default=0.0, help="days since programming (default 0)")
    p.add_argument("--reads", type=float, default=0.0, help="reads of the block since programming (default 0)")
    p.add_argument("--ecc-t", type=int, default=None, help="bits corrected per codeword (default: preset)")
    p.add_argument("--codeword-bytes", type=int, default=None, help="data bytes per codeword (default: preset)")
    p.add_argument("--target-uber", type=float, default=UBER_CLIENT, help="UBER target (default 1e-15, JESD218 client)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(func=run)


def run(args) -> str:
    tech = PRESETS[args.cell]
    code = EccCode(
        tech.ecc.t if args.ecc_t is None else args.ecc_t,
        tech.ecc.codeword_bytes if args.codeword_bytes is None else args.codeword_bytes,
    )
    dist = vth_distributions(tech.vth, args.pe, args.retention_days, args.reads)
    default = rber_analytic(dist)
    retry = rber_analytic(dist, optimal_read_refs(dist))
    report = {
        "cell": tech.name,
        "pe_cycles": args.pe,
        "retention_days": args.retention_days,
        "reads": args.reads,
        "ecc": {"t": code.t, "codeword_bytes": code.codeword_bytes, "n_bits": code.n_bits},
        "pages": list(default.page_names),
        "rber_default_refs": default.rber.tolist(),
        "rber_read_retry": retry.rber.tolist(),
        "uber_worst_page": float(uber(retry.rber.max(), code)[0]),
        "target_uber": args.target_uber,
        "endurance_pe": endurance_pe_cycles(
            tech.vth, code, args.retention_days, args.reads, target_uber=args.target_uber
        ),
    }
    if args.json:
        return json.dumps(report)
    lines = [f"{tech.name}: {args.pe:g} P/E, {args.retention_days:g} days retention, {args.reads:g} reads"]
    lines.append(f"{'page':6}{'RBER (default refs)':>22}{'RBER (read-retry)':>20}")
    for name, a, b in zip(default.page_names, default.rber, retry.rber):
        lines.append(f"{name:6}{a:>22.3e}{b:>20.3e}")
    lines.append(
        f"UBER (worst page, read-retry, BCH t={code.t} per {code.codeword_bytes} B): {report['uber_worst_page']:.3e}"
    )
    lines.append(
        f"endurance at UBER {args.target_uber:g} after {args.retention_days:g} days retention: {report['endurance_pe']:.0f} P/E cycles"
    )
    return "\n".join(lines)
