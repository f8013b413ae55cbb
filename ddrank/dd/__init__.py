"""Double-dummy computation: validation, batched DDS calls, crash isolation.

Pure package code: functions take values and return values; the native solver runs in a child
process (`sandbox`) so a DDS crash never takes a caller down.
"""

from ddrank.dd.boards import board_from_row, has_play, trace_request
from ddrank.dd.sandbox import SolveJob, SolveOutput, SolverCrash, solve_with_bisection
from ddrank.dd.solver import TraceRequest, set_dds_threads, solve_tables, solve_traces
from ddrank.dd.tables import TrickTable
from ddrank.dd.validate import check_play, checked_deal, play_problem

__all__ = [
    "SolveJob",
    "SolveOutput",
    "SolverCrash",
    "TraceRequest",
    "TrickTable",
    "board_from_row",
    "check_play",
    "checked_deal",
    "has_play",
    "play_problem",
    "set_dds_threads",
    "solve_tables",
    "solve_traces",
    "solve_with_bisection",
    "trace_request",
]
