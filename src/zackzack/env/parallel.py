"""The PettingZoo Parallel environment: agents at a real table on the virtual clock, in ticks.

Time runs in ticks of ``tick_ms`` (100 ms). Each step every live agent names one action
index (its observation's ``action_mask`` tells which the table would accept; 0 waits) and
the table time moves on one tick. The actions reach the real :class:`~zackzack.engine.table.Table`,
the same code as live play, so arbitration, cards too late, wrong-card freezes, countdowns
and automatic steps (Nichts geht mehr, a stalemate flip) are the real ones; an unmasked or
illegal action never raises, the table's verdict applies (a wrong card freezes, as for a
person). Seats past the agents are :class:`~zackzack.bots.Bot`\\s.

Order within a tick: each action lands at its own millisecond of the tick, drawn without
replacement from the tick's ``tick_ms`` milliseconds by the env's seeded generator (so
every order of the agents is equally likely, none wins a tie by its name, and bots, whose
timers run between them, meet each agent's card at a fair random moment of the tick).
With ``reaction`` (a bot level, e.g. ``"normal"``) an agent is timed as a bot of that level
(``zackzack.bots.reaction.REACTIONS``): it commits to its choice perception + think after
the last change of the piles its observation shows (longer with more cards to compare), and
the action lands a motor delay later; a change of the piles before it commits voids the
choice, as it voids a bot's, and the agent chooses again on the new observation; and as
often as a bot of the level slaps down a wrong card (its ``mistakes``), the agent's card is
a wrong one from its hand instead. While as
many of its actions are on their way as a bot of the game has hands (one in Unter Spannung,
two in Schnelllauf, one with the one-hand handicap), the agent's mask is the no-op alone
and other choices are ignored. A learner then competes on
strategy, not on speed.

Rewards come when a round is scored: +1 for its winner, minus ``points_scale`` (0.01) times
the seat's score of that round as the game counts it (Unter Spannung: minus points in the
hand; Schnelllauf: cards the seat holds after it). An episode ends (``terminations``) with
the first round (``episode="round"``) or the match (``"match"``); it is truncated after
``max_ticks`` ticks (3000: five minutes of table time at 100 ms).

>>> env = ZackzackEnv("unter-spannung", players=2, opponents=["normal"])
>>> observations, infos = env.reset(seed=1)
>>> env.agents, observations["seat_0"]["observation"].shape
(['seat_0'], (102,))
>>> env.observation_space("seat_0") is env.observation_space("seat_0")
True
>>> _ = env.step({"seat_0": 1})  # draw
>>> env.table.log[0].action
Draw()
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import partial
from typing import Any, Final, Literal

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import ParallelEnv  # type: ignore[import-untyped,import-not-found,unused-ignore]

from zackzack.bots import REACTIONS, Bot, BotSpec, parse_bot
from zackzack.bots.bot import brain_class
from zackzack.engine.clock import VirtualClock
from zackzack.engine.table import ONE_HAND_PAUSE_MS, Phase, Resumed, RoundStarted, Settings, Table
from zackzack.env.codec import Codec, codec
from zackzack.games import entry
from zackzack.games.base import Action, Event
from zackzack.games.declarations import Brain
from zackzack.games.errors import IllegalAction

TICK_MS: Final = 100
"""Default tick: table milliseconds per step."""
MAX_TICKS: Final = 3000
"""Default truncation: ticks per episode."""
POINTS_SCALE: Final = 0.01
"""Default weight of one point of a round's score in the reward."""

Episode = Literal["round", "match"]
Observation = dict[str, npt.NDArray[Any]]


class ZackzackEnv(ParallelEnv):  # type: ignore[misc,unused-ignore]
    """A PettingZoo ``ParallelEnv`` of ``game``: agents ``seat_0``… take the first seats, bots
    named in ``opponents`` (``"normal"``, ``"pro:random"``) the others.

    ``players`` defaults to the agents' seats plus the opponents (at least one agent, and
    the game's default table size if no opponents are named); ``options`` are the game's
    table options as JSON data (``{"tournament": true}``); ``keep_log=False`` keeps no match
    log (faster; no replay).
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's own field)
        "name": "zackzack_v0", "render_modes": [], "is_parallelizable": True}
    render_mode = None

    def __init__(self, game: str, *, players: int | None = None,
                 opponents: Sequence[str | BotSpec] = (), tick_ms: int = TICK_MS,
                 reaction: str | None = None, episode: Episode = "round",
                 max_ticks: int = MAX_TICKS, options: Mapping[str, Any] | None = None,
                 settings: Settings = Settings(), points_scale: float = POINTS_SCALE,
                 keep_log: bool = True) -> None:
        self.game = entry(game)
        rules = self.game.rules
        self.bots_named = tuple(spec if isinstance(spec, BotSpec) else parse_bot(spec)
                                for spec in opponents)
        data = dict(options or {})
        if players is not None:
            data["players"] = players
        elif self.bots_named and "players" not in data and rules.INFO.max_players > 2:
            data["players"] = len(self.bots_named) + 1
        self.options: Any = rules.parse_options(data)
        seats: int = self.options.players
        if len(self.bots_named) >= seats:
            raise ValueError(f"{len(self.bots_named)} opponents at a table of {seats}: "
                             "leave at least one seat to an agent")
        if tick_ms < seats or tick_ms > 60_000:
            raise ValueError(f"a tick must be {seats} to 60000 ms, not {tick_ms}")
        if reaction is not None and reaction not in REACTIONS:
            raise ValueError(f"unknown reaction {reaction!r}; levels: {', '.join(REACTIONS)}")
        if episode not in ("round", "match"):
            raise ValueError(f"an episode is a 'round' or a 'match', not {episode!r}")
        if max_ticks < 1:
            raise ValueError(f"max_ticks must be at least 1, not {max_ticks}")
        self.tick_ms = tick_ms
        self.reaction = None if reaction is None else REACTIONS[reaction]
        self.episode: Episode = episode
        self.max_ticks = max_ticks
        self.settings = settings
        self.points_scale = points_scale
        self.keep_log = keep_log
        self.codec: Codec = codec(self.game.name, self.options)
        agents = seats - len(self.bots_named)
        self.possible_agents: list[str] = [f"seat_{seat}" for seat in range(agents)]
        self.agents: list[str] = []
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._observation_spaces = {agent: self._observation_space()
                                    for agent in self.possible_agents}
        self._action_spaces = {agent: spaces.Discrete(self.codec.actions)
                               for agent in self.possible_agents}
        self._idle = np.zeros(self.codec.actions, np.int8)
        self._idle[0] = 1
        self._milliseconds = range(tick_ms)
        self._rng = random.Random()
        self._brains: list[Brain] = []
        self._bots: list[Bot] = []
        self._table: Table | None = None
        self._clock = VirtualClock()
        self._tick = 0
        self._scored = 0
        self._changes = 0
        self._moving = brain_class(self.game.name).CHANGES | {RoundStarted, Resumed}
        """Events after which a bot plans anew: a change of the piles, a round (re)starting."""
        self._moves = self._moved_at = 0
        """How many such events there were, and the table time of the last one."""
        self._moved_by: int | None = None
        """The seat whose action the last one was: it knows its own card without looking."""
        self._committed_at = [0] * agents
        """When each agent last committed to an action: its next one is thought from there."""
        self._views: list[Any] = [None] * agents
        self._keys: list[tuple[int, int, int, bool] | None] = [None] * agents
        self._observations: list[Observation] = [{} for _ in range(agents)]
        self._flying: list[list[Action]] = [[] for _ in range(agents)]
        """Each agent's actions on their way (with ``reaction``)."""
        self._hands = [1] * agents
        self._refusals: list[str | None] = [None] * agents

    # Spaces ------------------------------------------------------------------------------

    def _observation_space(self) -> spaces.Dict:
        return spaces.Dict({
            "observation": spaces.Box(0.0, self.codec.high, (self.codec.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (self.codec.actions,), np.int8),
        })

    def observation_space(self, agent: str) -> spaces.Dict:
        """The observation space of ``agent`` (the same object every call)."""
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The action space of ``agent``: an index of the game's encoding (the same object)."""
        return self._action_spaces[agent]

    # The episode -------------------------------------------------------------------------

    @property
    def table(self) -> Table:
        """The table of the episode (its log replays it); it holds hidden cards: not for agents."""
        if self._table is None:
            raise ValueError("reset the environment first")
        return self._table

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        """Deal a new match (from ``seed``, else the env's generator goes on); every agent's
        first observation and info. ``options`` is accepted and ignored (PettingZoo's API)."""
        if seed is not None:
            self._rng = random.Random(seed)
        self._halt()
        rng = self._rng
        self._clock = clock = VirtualClock()
        table: Table = Table(self.game.rules, self.options, clock=clock, settings=self.settings,
                             seed=rng.getrandbits(63), keep_log=self.keep_log)
        self._table = table
        table.subscribe_all(self._changed)
        agents = len(self.possible_agents)
        self._bots = [Bot(table, seat, spec, random.Random(rng.getrandbits(64)))
                      for seat, spec in enumerate(self.bots_named, start=agents)]
        if self.reaction is not None:
            brain = brain_class(self.game.name)
            self._brains = [brain(self.options, seat, "smart", random.Random(0))
                            for seat in range(agents)]
            self._hands = [1 if self.options.one_hand(seat) else brain.HANDS
                           for seat in range(agents)]
        self._tick = self._scored = self._moves = self._moved_at = 0
        self._moved_by = None
        self._committed_at = [0] * agents
        self._keys = [None] * agents
        self._flying = [[] for _ in range(agents)]
        self._refusals = [None] * agents
        table.start(at=0)
        self.agents = list(self.possible_agents)
        return ({agent: self._observe(seat) for agent, seat in self._seat.items()},
                {agent: self._info(seat) for agent, seat in self._seat.items()})

    def step(self, actions: Mapping[str, Any]) -> tuple[
            dict[str, Observation], dict[str, float], dict[str, bool], dict[str, bool],
            dict[str, dict[str, Any]]]:
        """One tick: each live agent's action (a missing one waits) lands at its millisecond
        of the tick (or after its reaction), bots and the table's own steps run, and each
        agent gets its observation, reward, termination, truncation and info."""
        live = self.agents
        if not live:
            return {}, {}, {}, {}, {}
        table, clock, seats = self.table, self._clock, self._seat
        start = self._tick * self.tick_ms
        landing: list[tuple[int, Action]] = []
        self._refusals = [None] * len(self._refusals)
        for agent in live:
            index = actions.get(agent, 0)
            if not index:
                continue
            seat = seats[agent]
            if len(self._flying[seat]) >= self._hands[seat]:
                continue
            action = self.codec.action(self._views[seat], int(index))
            if action is not None:
                landing.append((seat, action))
        number = table.match.number
        reaction = self.reaction
        if reaction is None:
            offsets = self._rng.sample(self._milliseconds, len(landing))
            for (seat, action), offset in zip(landing, offsets, strict=True):
                at = start + offset
                clock.call_at(at / 1000, partial(self._land, seat, action, at, number))
        else:
            for seat, action in landing:
                if self._rng.random() < reaction.mistakes:  # a hurried hand, as a bot's
                    action = self._brains[seat].mistake(self._views[seat]) or action
                self._flying[seat].append(action)
                think, motor = self._delays(seat)
                commit = max(start, max(self._moved_at, self._committed_at[seat]) + think)
                clock.call_at(commit / 1000, partial(self._commit, seat, action, self._moves,
                                                     commit + motor, number))
        self._tick += 1
        clock.run(until=self._tick * self.tick_ms / 1000, stop=self._over)
        rewards = dict.fromkeys(live, 0.0)
        results = table.match.results
        while self._scored < len(results):
            result = results[self._scored]
            self._scored += 1
            for agent in live:
                seat = seats[agent]
                rewards[agent] += ((result.winner == seat)
                                   - self.points_scale * result.scores[seat])
        over = self._over()
        cut = not over and self._tick >= self.max_ticks
        observations = {agent: self._observe(seats[agent]) for agent in live}
        infos = {agent: self._info(seats[agent]) for agent in live}
        terminations = dict.fromkeys(live, over)
        truncations = dict.fromkeys(live, cut)
        if over or cut:
            self.agents = []
            self._halt()
        return observations, rewards, terminations, truncations, infos

    def close(self) -> None:
        """Stop the bots and end the episode (``agents`` is empty); the table stays readable."""
        self.agents = []
        self._halt()

    # Inside ------------------------------------------------------------------------------

    def _halt(self) -> None:
        for bot in self._bots:
            bot.stop()
        self._bots = []

    def _over(self) -> bool:
        if self.episode == "round":
            return bool(self.table.match.results)
        return self.table.match.result is not None

    def _changed(self, events: list[Event]) -> None:
        self._changes += 1
        for event in events:
            if type(event) in self._moving:
                self._moves += 1
                self._moved_at = self.table.now
                self._moved_by = getattr(event, "seat", None)

    def _land(self, seat: int, action: Action, at: int, number: int) -> None:
        """An agent's action reaches the table; a refusal is its verdict, never an error.
        An action chosen in an earlier round is dropped, as a bot's hand stops at a round's end.
        """
        self._landed(seat, action)
        if self.table.match.number != number:
            return
        try:
            self.table.submit(seat, action, at=at)
        except IllegalAction as refusal:
            self._refusals[seat] = refusal.code
            self._committed_at[seat] = at  # a bot thinks anew from its refused card, too

    def _landed(self, seat: int, action: Action) -> None:
        """``action`` is no longer on its way (it landed, or its choice was void)."""
        flying = self._flying[seat]
        for i, other in enumerate(flying):
            if other is action:
                del flying[i]
                return

    def in_flight(self, agent: str) -> tuple[Action, ...]:
        """The actions of ``agent`` on their way to the table (with ``reaction``): a bot
        chooses knowing them (``Brain.choose(view, busy)``), and the mask leaves them out."""
        return tuple(self._flying[self._seat[agent]])

    def _delays(self, seat: int) -> tuple[int, int]:
        """Milliseconds from the last change of the piles to the agent's commitment
        (perception, unless the change was its own card, + think), and from there to the
        table (motor), as a bot of the level reacts."""
        reaction, rng = self.reaction, self._rng
        assert reaction is not None
        work = self._brains[seat].work(self._views[seat])
        perceive = reaction.perception.sample(rng)
        think = (reaction.think.sample(rng) * (1 + reaction.per_item / reaction.think.median * work)
                 + (perceive if self._moved_by != seat else 0.0))
        return max(1, round(think * 1000)), max(1, round(reaction.motor.sample(rng) * 1000))

    def _commit(self, seat: int, action: Action, moves: int, at: int, number: int) -> None:
        """The agent commits to ``action``, unless the piles changed since it chose (then its
        hand is free again, as a bot's plan is void): it lands at table time ``at``."""
        if self._moves != moves:
            self._landed(seat, action)
            return
        self._committed_at[seat] = round(self._clock.time() * 1000)
        self._clock.call_at(at / 1000, partial(self._land, seat, action, at, number))

    def _observe(self, seat: int) -> Observation:
        """The seat's observation (new arrays each call: callers keep them), encoded anew only
        when the table or the seat's own state changed."""
        table = self.table
        now = self._tick * self.tick_ms
        frozen = max(0, table.frozen_until[seat] - now)
        flying = self._flying[seat]
        pausing = bool(table.options.one_hand(seat)  # one hand: the table refuses until then
                       and now < table.last_action[seat] + ONE_HAND_PAUSE_MS)
        key = (self._changes, frozen, len(flying), pausing)
        if self._keys[seat] != key:
            view = self._views[seat] = table.rules.view(table.match.round, seat)
            vector = self.codec.observe(view, frozen)
            if (frozen or pausing or len(flying) >= self._hands[seat]
                    or table.phase is not Phase.PLAYING):
                allowed = self._idle
            else:
                allowed = self.codec.mask(view)
                if flying:  # on its way already: not twice
                    allowed = allowed.copy()
                    for action in flying:
                        allowed[self.codec.index(view, action)] = 0
                    allowed[0] = 1
            self._keys[seat] = key
            self._observations[seat] = {"observation": vector, "action_mask": allowed}
        found = self._observations[seat]
        return {"observation": found["observation"].copy(),
                "action_mask": found["action_mask"].copy()}

    def _info(self, seat: int) -> dict[str, Any]:
        """The seat's info: the tick, and the code of its last action's refusal (or None)."""
        return {"tick": self._tick, "refusal": self._refusals[seat]}


def parallel_env(game: str, **kwargs: Any) -> ZackzackEnv:
    """The PettingZoo Parallel environment of ``game`` (``"unter-spannung"``,
    ``"schnelllauf"``); keywords as :class:`ZackzackEnv`."""
    return ZackzackEnv(game, **kwargs)
