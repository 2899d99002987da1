"""Fair play: does a player's timing look like a person's? Flags for review, never punishes.

Every stored match log carries each action's table time and, through its replay, what was
on screen. :func:`reactions` turns one log into each seat's *reactions*: for every action
the table took or judged (a card, a draw, a move), the time since the newest change that
seat could answer (a pile's new top, the deal, its own previous action, the end of its
freeze), with what it had to choose from at that moment (the cards to compare, the cards
that fitted) and whether that change was its own action. A draw is a decision too (nothing
fits: every card was compared), which doubles what a single round tells. :func:`assess`
reads a player's reactions, in the order they were made, as a person's would be read in the
research on bot detection in reaction-time games:

* a person has a floor: choice reactions below :data:`FLOOR_MS` are anticipations, rare
  (cards only: a draw landing just after a change was on its way before it);
* a person's reactions spread in proportion to their median (roughly log-normal, σ of the
  log ≈ 0.3–0.5), never a narrow band of fixed width around it;
* a person slows down with more to compare (Hick–Hyman): a script does not care;
* a person answers their own action sooner than someone else's (nothing to notice);
* a person's reactions are right-skewed (a long tail of slow ones: a lapse, a second look),
  while noise added to a fixed delay is symmetric around it;
* a person plays a wrong card now and then (the price of speed), a script never does;
* a person's series carries serial dependence and long memory (lag-1 autocorrelation,
  a DFA exponent above 0.5); reported here, not scored (see ``docs/analysis.md``).

Each scored statistic is compared with a bound that every human-modelled level keeps
(:data:`BOUNDS`); how far beyond it a player lies, in standard errors, is that statistic's
*suspicion*; the score is their sum, and a score of :data:`THRESHOLD` or more over at least
:data:`MIN_REACTIONS` reactions *flags the player for review*. A flag is evidence for an
operator (``zackzack moderation flags``), nothing more. ``docs/analysis.md`` (*Fair play*)
has the validation on the virtual clock and what a careful cheat could still do.

>>> import random
>>> rng = random.Random(1)
>>> script = [Reaction(200 + rng.randrange(-2, 3), 3 + i % 4, 1, False) for i in range(120)]
>>> assess(script).flagged
True
>>> person = [Reaction(round(1000 * (0.25 + 0.12 * (2 + i % 4)) * rng.lognormvariate(0, 0.3)),
...                    2 + i % 4, 1, i % 3 == 0) for i in range(120)]
>>> assess(person).flagged
False
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from zackzack.engine.matchlog import MatchLog
from zackzack.engine.replay import Step, replay
from zackzack.engine.table import RoundStarted, Table

FLOOR_MS = 150
"""A choice reaction faster than this is an anticipation or a machine: the physiological
floor of a visual choice (a simple visual reaction is ≥ 100–120 ms for the fastest adults)."""
MIN_REACTIONS = 60
"""Fewer reactions than this are never flagged: too little to tell."""
THRESHOLD = 4.0
"""A score of this or more flags the player for review (sum of the suspicions below)."""
_ANSWERS = frozenset({"too_late", "does_not_fit"})
"""Refused actions that were still a reaction (a card too late, a wrong card)."""
MAX_MS = 10_000
"""Reactions longer than this (a player away, a pause) are left out of every statistic."""


CLIP = 10.0
"""No statistic adds more than this to the score (beyond it, more is no surer)."""


@dataclass(frozen=True, slots=True)
class Bound:
    """Where every person lies for one statistic: ``at`` least or most ``limit``; it adds at
    most ``cap`` to the score."""

    limit: float
    at: str  # "least" or "most"
    why: str
    cap: float = CLIP


BOUNDS: Mapping[str, Bound] = {
    "floor": Bound(0.02, "most", f"share of cards answering others' changes below {FLOOR_MS} "
                                 "ms: faster than a person can see, choose and press"),
    "spread": Bound(0.23, "least", "spread of the log reaction (residual σ): a person's "
                                   "times spread in proportion to their median, a script's "
                                   "noise is a narrow band"),
    "hick": Bound(0.04, "least", "log reaction slope per card to compare (Hick–Hyman): a "
                                 "person is slower with more cards in hand, a script is not"),
    "notice": Bound(-0.10, "most", "log reaction to one's own change minus to others': a "
                                   "person must first notice someone else's card, a script "
                                   "sees every change at once"),
    "skew": Bound(0.5, "least", "skewness of the reaction times: a person's have a long tail "
                                "of slow ones, noise added to a scripted delay is symmetric"),
    "mistakes": Bound(0.003, "least", "share of reactions that were a wrong card: a person "
                                      "hurrying errs now and then, a script never (a "
                                      "flawless record alone never flags)", cap=3.0),
}
"""The human bounds of the scored statistics, each with the reason an operator reads: none of
the human-modelled levels crosses them by more than chance (``bench/fairplay.py``); the
literature puts people well inside them too."""
HISTOGRAM_MS = (0, 100, FLOOR_MS, 200, 250, 300, 400, 500, 650, 800, 1000, 1300, 1600, 2000,
                2500, 3200, 4000, MAX_MS)
"""The edges (ms) of the reaction-time histogram the evidence carries (for the operators'
plot: the last bin takes everything up to :data:`MAX_MS`)."""


class Reaction(NamedTuple):
    """One action the table took or judged: ``ms`` since the change it answered, ``choices``
    (cards to compare, the bot model's work), ``fitting`` (cards that fitted), ``own`` (the
    change was the player's own action, so nothing had to be noticed), ``play`` (a card
    played; ``False``: a draw or a move, which answer the table as it stands), ``wrong``
    (a card that did not fit: a mistake)."""

    ms: int
    choices: float
    fitting: int
    own: bool
    play: bool = True
    wrong: bool = False


def _fitting(game: str, view: Any, seat: int) -> int:
    """How many of ``seat``'s face-up cards fit a pile in ``view``."""
    if game == "unter-spannung":
        allowed = view.top.allowed
        return sum(card.value in allowed for card in view.hand)
    if game == "schnelllauf":
        from zackzack.games import schnelllauf as sl

        count = 0
        for card, _ in view.layouts[seat]:
            if card is not None and any(top is not None and sl.fits(card, stands)
                                        for top, stands in zip(view.tops, view.stands,
                                                               strict=True)):
                count += 1
        return count
    return 0


def reactions(log: MatchLog) -> list[list[Reaction]]:
    """Each seat's reactions in ``log``, in order (a replay on the virtual clock)."""
    import random

    from zackzack.bots.bot import brain_class

    rules = log.rules
    name = rules.INFO.name
    players = log.options.players
    brains = [brain_class(name)(log.options, seat, "smart", random.Random(0))
              for seat in range(players)]
    found: list[list[Reaction]] = [[] for _ in range(players)]
    versions: tuple[int, ...] = ()
    appeared: list[dict[int, int]] = []
    """Per pile: the table time each of its versions appeared (this round)."""
    acted = [0] * players
    """Per seat: the table time of its newest accepted action (or of the deal)."""
    thawed = [0] * players
    """Per seat: the table time its newest freeze ends (a wrong card's penalty)."""
    on_screen: list[tuple[float, int]] = [(0.0, 0)] * players
    """Per seat: cards to compare and cards that fitted, as the table stood before the step."""

    def on_step(step: Step, table: Table) -> None:
        nonlocal versions, appeared
        action = step.action
        seat = step.seat
        t = step.t
        if action is not None and seat is not None and appeared and (
                step.outcome == "accepted" or step.code in _ANSWERS):
            play = action.kind == "play"
            if play:
                # The pile as the player saw it: the version its card was aimed at.
                seen = getattr(action, "seen", None)
                pile = appeared[getattr(action, "pile", 0)]
                shown = pile[seen] if seen in pile else pile[max(pile)]
            else:  # a draw or a move answers the table as it stands
                shown = max(max(pile.values()) for pile in appeared)
            since = max(shown, acted[seat], thawed[seat])
            ms = t - since
            # A draw landing sooner than the floor after someone else's change was on its
            # way before it (a hand in motion is not stopped): it answered an older table.
            if 0 <= ms <= MAX_MS and (play or since != shown or ms >= FLOOR_MS):
                choices, fitting = on_screen[seat]
                found[seat].append(Reaction(ms, choices, fitting, since != shown, play,
                                            step.code == "does_not_fit"))
        now = tuple(rules.versions(table.match.round))
        if any(isinstance(event, RoundStarted) for event in step.events) or \
                len(now) != len(versions):
            appeared = [{version: t} for version in now]
            acted[:] = [t] * players
        else:
            for number, (new, old) in enumerate(zip(now, versions, strict=True)):
                if new != old:
                    appeared[number][new] = t
        if action is not None and seat is not None:
            if step.outcome == "accepted":
                acted[seat] = t  # its own play, draw or move: it knows what it did
            else:
                thawed[seat] = max(thawed[seat], table.frozen_until[seat])  # waits it out
        versions = now
        state = table.match.round
        for s in range(players):
            view = rules.view(state, s)
            on_screen[s] = (brains[s].work(view), _fitting(name, view, s))

    replay(log, on_step=on_step)
    return found


# The statistics -----------------------------------------------------------------------------


def lag1(values: Sequence[float]) -> float | None:
    """The lag-1 autocorrelation of ``values`` (``None``: fewer than 3).

    >>> round(lag1([1, 2, 3, 4, 5, 6]), 2), round(lag1([1, -1, 1, -1, 1, -1]), 2)
    (0.5, -0.83)
    """
    if len(values) < 3:
        return None
    x = np.asarray(values, dtype=float)
    x = x - x.mean()
    denominator = float(x @ x)
    return 0.0 if denominator == 0 else float(x[:-1] @ x[1:]) / denominator


def dfa(values: Sequence[float]) -> float | None:
    """The exponent α of a detrended fluctuation analysis (DFA-1) of ``values``: 0.5 for
    no memory, above it for long-range dependence (a Hurst exponent); ``None``: too short.

    >>> import random
    >>> rng = random.Random(2)
    >>> noise = [rng.gauss(0, 1) for _ in range(2000)]
    >>> walk = list(np.cumsum(noise))
    >>> round(dfa(noise), 1), dfa(walk) > 1.2
    (0.5, True)
    """
    x = np.asarray(values, dtype=float)
    n = len(x)
    if n < 32:
        return None
    profile = np.cumsum(x - x.mean())
    sizes = sorted({int(s) for s in np.geomspace(4, n // 4, num=12)})
    logs_n: list[float] = []
    logs_f: list[float] = []
    for size in sizes:
        count = n // size
        if count < 2:
            continue
        windows = profile[:count * size].reshape(count, size)
        t = np.arange(size, dtype=float)
        t = t - t.mean()
        centred = windows - windows.mean(axis=1, keepdims=True)
        slopes = centred @ t / (t @ t)
        residual = centred - np.outer(slopes, t)
        fluctuation = math.sqrt(float((residual ** 2).mean()))
        if fluctuation > 0:
            logs_n.append(math.log(size))
            logs_f.append(math.log(fluctuation))
    if len(logs_n) < 3:
        return None
    return float(np.polyfit(logs_n, logs_f, 1)[0])


def _quantile(sorted_values: np.ndarray, q: float) -> float:
    return float(np.quantile(sorted_values, q))


@dataclass(frozen=True, slots=True)
class Evidence:
    """A player's reactions read as a person's would be: the statistics, each scored one's
    suspicion (standard errors beyond its human bound), the score and the flag."""

    n: int
    median_ms: float | None = None
    p05_ms: float | None = None
    p10_ms: float | None = None
    p25_ms: float | None = None
    floor: float | None = None
    """Share of the cards played in answer to others' changes below :data:`FLOOR_MS`."""
    spread: float | None = None
    """σ of the log reaction once own changes and cards to compare are accounted for."""
    hick: float | None = None
    """Slope of the log reaction per card to compare; a person's is positive."""
    notice: float | None = None
    """Log reaction to one's own change minus to others' (a person's is negative: an own
    card needs no noticing)."""
    skew: float | None = None
    """Skewness (the third standardised moment) of the reaction times in ms; a person's is
    positive despite the races that cut slow reactions short (someone else was faster)."""
    mistakes: float | None = None
    """Share of the reactions that were a wrong card."""
    by_fitting: dict[int, float] = field(default_factory=dict)
    """Median reaction in ms by the number of fitting cards (1, 2, 3: three or more)."""
    lag1: float | None = None
    """Lag-1 autocorrelation of the log reactions, in order; not scored."""
    dfa: float | None = None
    """DFA exponent of the log reactions (0.5: no memory); not scored."""
    suspicion: dict[str, float] = field(default_factory=dict)
    score: float = 0.0
    flagged: bool = False
    histogram: tuple[int, ...] = ()
    """How many reactions fell between each two edges of :data:`HISTOGRAM_MS`."""

    def to_json(self) -> dict[str, Any]:
        """The evidence as JSON data (rounded for people).

        >>> Evidence(0).to_json()["score"]
        0.0
        """
        def r(value: float | None, digits: int = 3) -> float | None:
            return None if value is None else round(value, digits)

        return {"n": self.n, "median_ms": r(self.median_ms, 0), "p05_ms": r(self.p05_ms, 0),
                "p10_ms": r(self.p10_ms, 0), "p25_ms": r(self.p25_ms, 0),
                "floor": r(self.floor), "spread": r(self.spread), "hick": r(self.hick),
                "notice": r(self.notice), "skew": r(self.skew),
                "mistakes": r(self.mistakes, 4),
                "by_fitting": {str(k): round(v) for k, v in self.by_fitting.items()},
                "lag1": r(self.lag1), "dfa": r(self.dfa),
                "suspicion": {k: round(v, 2) for k, v in self.suspicion.items()},
                "score": round(self.score, 2), "threshold": THRESHOLD,
                "flagged": self.flagged,
                "histogram": {"edges_ms": list(HISTOGRAM_MS), "counts": list(self.histogram)}}


def _beyond(name: str, value: float, se: float) -> float:
    """How many standard errors ``value`` lies beyond the human bound ``name`` (0 to its
    cap)."""
    bound = BOUNDS[name]
    over = value - bound.limit if bound.at == "most" else bound.limit - value
    if over <= 0:
        return 0.0
    return bound.cap if se <= 0 else min(bound.cap, over / se)


def assess(series: Iterable[Reaction]) -> Evidence:
    """The evidence of a player's reactions (in the order made, over their matches)."""
    rows = [r for r in series if 0 <= r.ms <= MAX_MS]
    n = len(rows)
    if n == 0:
        return Evidence(0)
    ms = np.array([max(r.ms, 1) for r in rows], dtype=float)
    logs = np.log(ms)
    ordered = np.sort(ms)
    others = np.array([r.ms for r in rows if r.play and not r.own], dtype=float)
    floor = float((others < FLOOR_MS).mean()) if len(others) else 0.0
    deviation = float(ms.std())
    skew = float((((ms - ms.mean()) / deviation) ** 3).mean()) if deviation > 0 else 0.0
    mistakes = sum(r.wrong for r in rows) / n
    by_fitting: dict[int, float] = {}
    for k in (1, 2, 3):
        chosen = [r.ms for r in rows if (r.fitting >= 3 if k == 3 else r.fitting == k)]
        if chosen:
            by_fitting[k] = float(np.median(chosen))
    fit = _regression(rows, logs)
    suspicion: dict[str, float] = {}
    if len(others):
        limit = BOUNDS["floor"].limit
        suspicion["floor"] = _beyond("floor", floor, math.sqrt(limit * (1 - limit) / len(others)))
    # Standard errors at the bound: a normal sample's skewness, a binomial share.
    suspicion["skew"] = _beyond("skew", skew, math.sqrt(6 / n))
    limit = BOUNDS["mistakes"].limit
    suspicion["mistakes"] = _beyond("mistakes", mistakes, math.sqrt(limit * (1 - limit) / n))
    spread = hick = notice = None
    if fit is not None:
        spread, (notice, notice_se), (hick, hick_se) = fit
        suspicion["spread"] = _beyond("spread", spread, max(spread, 0.02) / math.sqrt(2 * n))
        if hick_se is not None:
            suspicion["hick"] = _beyond("hick", hick, hick_se)
        if notice_se is not None:
            suspicion["notice"] = _beyond("notice", notice, notice_se)
    score = math.fsum(suspicion.values())
    return Evidence(
        n, _quantile(ordered, 0.5), _quantile(ordered, 0.05), _quantile(ordered, 0.10),
        _quantile(ordered, 0.25), floor, spread, hick, notice, skew, mistakes, by_fitting,
        lag1(list(logs)), dfa(list(logs)), suspicion, score,
        n >= MIN_REACTIONS and score >= THRESHOLD, histogram(r.ms for r in rows))


def histogram(ms: Iterable[int]) -> tuple[int, ...]:
    """How many of ``ms`` fall into each bin of :data:`HISTOGRAM_MS` (the last bin's upper
    edge included).

    >>> histogram([50, 120, 149, 150, 10_000])[:4], sum(histogram([50, 120, 149, 150, 10_000]))
    ((1, 2, 1, 0), 5)
    """
    edges = np.asarray(HISTOGRAM_MS, dtype=float)
    counts, _ = np.histogram(np.asarray(list(ms), dtype=float), bins=edges)
    return tuple(int(count) for count in counts)


_Coefficient = tuple[float, float | None]


def _regression(rows: Sequence[Reaction], logs: np.ndarray,
                ) -> tuple[float, _Coefficient, _Coefficient] | None:
    """The least-squares fit log reaction = a + notice·own + hick·cards to compare: the
    residual σ and each slope with its standard error (``None`` where the data cannot
    tell: no own changes, or always as many cards); ``None`` with fewer than 10 rows."""
    n = len(rows)
    if n < 10:
        return None
    own = np.array([1.0 if r.own else 0.0 for r in rows])
    choices = np.array([r.choices for r in rows], dtype=float)
    columns = [np.ones(n)]
    has_own = 0 < own.sum() < n
    has_choices = float(choices.std()) > 0
    if has_own:
        columns.append(own)
    if has_choices:
        columns.append(choices)
    design = np.column_stack(columns)
    coefficients, *_ = np.linalg.lstsq(design, logs, rcond=None)
    residual = logs - design @ coefficients
    dof = n - design.shape[1]
    variance = float(residual @ residual) / dof
    errors = np.sqrt(np.maximum(np.diag(variance * np.linalg.pinv(design.T @ design)), 0.0))
    found: list[_Coefficient] = []
    index = 1
    for present in (has_own, has_choices):
        if present:
            found.append((float(coefficients[index]), float(errors[index])))
            index += 1
        else:
            found.append((0.0, None))
    return math.sqrt(variance), found[0], found[1]
