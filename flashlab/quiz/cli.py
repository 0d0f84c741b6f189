"""``flashlab quiz``: a fresh exercise instance, and with ``--solve`` the engine's worked answer.

Example::

    flashlab quiz ftl --seed 3
    flashlab quiz ftl --seed 3 --solve
"""

from __future__ import annotations

import argparse

from flashlab.quiz.problems import TOPICS, make


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "quiz",
        help="a fresh exercise (same seed, same problem); --solve prints the worked answer",
        description="Print a problem drawn from --seed on one topic; with --solve, also the worked "
        "answer that the engine computes.",
    )
    p.add_argument("topic", choices=tuple(TOPICS), help="problem topic")
    p.add_argument("--seed", type=int, default=0, help="problem number: the same seed gives the same problem")
    p.add_argument("--solve", action="store_true", help="print the worked answer after the problem")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> str:
    problem = make(args.topic, args.seed)
    text = f"[{problem.topic} #{problem.seed}]\n{problem.text}"
    if args.solve:
        text += f"\n\nAnswer:\n{problem.solution()}"
    return text
