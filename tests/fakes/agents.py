"""The base of the planner and prover stand-ins the search tests hand the engine directly."""

from __future__ import annotations


class AgentStandIn:
    """What the search asks of every planner and prover beside its requests (search/interfaces.py
    `PlannerLike` / `ProverLike`): a stand-in's model never has room for work ahead of need (a
    test that wants speculation says `has_room`), and a prover may be asked to correct."""

    corrects = True

    def has_room(self) -> bool:
        return False
