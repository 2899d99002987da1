"""Which keys for Unter Spannung's hand cards in the browser (docs/web.md, "Boards"): what a
chain of plays planned by keys costs under three schemes.

- **place**: key *i* is the *i*-th card of the hand as the server lists it (the browser until
  issue 10): every own play moves the cards after it one key down.
- **stable**: a card keeps its key while it is in the hand (``tui/keys.py StableKeys``, now
  the browser's rule too).
- **value**: the key is the card's value (``1``–``9``, ``0`` for 10): nothing to look up,
  but one key for two cards of a value with different spreads.

A deal is a shuffled standard deck: the top card and a hand of ``n`` cards. The planned chain
is the longest run of hand cards (up to 4) of which each fits the one before, the first the
top: what a player sees and means to press in one go. For each press after the first:

- *misfire*: the key planned is no longer the card's key (its card moved); the key then hits
  another card, which is a wrong card (a freeze) or an unplanned play;
- *ambiguous*: the key names two different cards (value keys only).

The time figures use the bots' reaction model (``zackzack/bots/reaction.py``): a wrong card
costs the 1 s freeze plus a fresh look over the hand (``mean(n)``); an unplanned play costs
the fresh look; re-reading the keys to avoid misfires costs a perception delay per press;
an ambiguous key costs a second stroke (perception and motor). Rough, but the same yardstick
for every scheme.

    python bench/hand_keys.py --deals 20000 --seed 1 [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import random
from collections.abc import Sequence
from typing import Any

from zackzack.bots.reaction import REACTIONS
from zackzack.games.unter_spannung import STANDARD_DECK, Card, fits
from zackzack.tui.keys import StableKeys

PENALTY_S = 1.0
CHAIN_MAX = 4
LEVELS = ("normal", "pro")


def longest_chain(top: Card, hand: Sequence[Card]) -> list[int]:
    """Indexes into ``hand`` of a longest chain (at most CHAIN_MAX) starting on ``top``."""
    best: list[int] = []

    def walk(on: Card, chain: list[int]) -> None:
        nonlocal best
        if len(chain) > len(best):
            best = list(chain)
        if len(chain) == CHAIN_MAX:
            return
        for i, card in enumerate(hand):
            if i not in chain and fits(card, on):
                chain.append(i)
                walk(card, chain)
                chain.pop()

    walk(top, [])
    return best


def place_keys(hand: list[Card], chain: list[int]) -> tuple[int, int]:
    """Misfires (wrong cards, unplanned plays) pressing the planned place keys from memory."""
    planned = {i: i for i in chain}  # the key of card i when the chain was planned
    held = list(range(len(hand)))
    wrong = unplanned = 0
    on = None
    for step, i in enumerate(chain):
        key = planned[i]
        if step and held.index(i) != key:
            hit = hand[held[key]] if key < len(held) else None
            if hit is None or on is None or not fits(hit, on):
                wrong += 1
            else:
                unplanned += 1
            break  # the chain is broken: the player looks again
        held.remove(i)
        on = hand[i]
    return wrong, unplanned


def stable_keys(hand: list[Card], chain: list[int]) -> int:
    """Misfires with StableKeys (the terminal's rule, now the browser's): counted, not assumed."""
    keys = StableKeys()
    places: list[Card | None] = list(keys.arrange(1, hand))
    planned = {}
    for i in chain:  # of two equal cards, each its own key
        planned[i] = places.index(hand[i])
        places[planned[i]] = None
    held = list(hand)
    misfires = 0
    for i in chain:
        places = keys.arrange(1, held)
        if places[planned[i]] != hand[i]:
            misfires += 1
        keys.pressed(planned[i])
        held.remove(hand[i])
    return misfires


def value_keys(hand: list[Card], chain: list[int]) -> int:
    """Presses whose value key names two different cards in the hand at that moment."""
    held = list(hand)
    ambiguous = 0
    for i in chain:
        card = hand[i]
        if len({c.spread for c in held if c.value == card.value}) > 1:
            ambiguous += 1
        held.remove(card)
    return ambiguous


def run(deals: int, seed: int, sizes: Sequence[int]) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    rows = []
    for n in sizes:
        chains = presses = later = wrong = unplanned = stable = ambiguous = 0
        for _ in range(deals):
            deck = list(STANDARD_DECK)
            rng.shuffle(deck)
            top, hand = deck[0], deck[1:1 + n]
            chain = longest_chain(top, hand)
            if len(chain) < 2:
                continue
            chains += 1
            presses += len(chain)
            later += len(chain) - 1
            w, u = place_keys(hand, chain)
            wrong += w
            unplanned += u
            stable += stable_keys(hand, chain)
            ambiguous += value_keys(hand, chain)
        row: dict[str, Any] = {
            "hand": n, "chains": chains, "mean_length": presses / chains,
            "place_broken": (wrong + unplanned) / chains, "place_wrong": wrong / chains,
            "stable_misfires": stable, "value_ambiguous_per_press": ambiguous / presses,
        }
        for level in LEVELS:
            r = REACTIONS[level]
            look = r.mean(n)
            broken = wrong * (PENALTY_S + look) + unplanned * look
            row[f"{level}_place_memory_s"] = broken / chains
            row[f"{level}_place_reread_s"] = later * r.perception.mean / chains
            row[f"{level}_value_s"] = ambiguous * (r.perception.mean + r.motor.mean) / chains
            row[f"{level}_stable_s"] = 0.0
        rows.append(row)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sizes", default="4,6,8")
    parser.add_argument("--json", help="also write the rows to this file")
    args = parser.parse_args()
    rows = run(args.deals, args.seed, [int(n) for n in args.sizes.split(",")])
    print(f"{'hand':>4} {'chains':>7} {'len':>5} {'place: chain broken':>20} {'(wrong card)':>13} "
          f"{'stable':>7} {'value: ambiguous press':>23}")
    for row in rows:
        print(f"{row['hand']:>4} {row['chains']:>7} {row['mean_length']:>5.2f} "
              f"{row['place_broken']:>20.1%} {row['place_wrong']:>13.1%} "
              f"{row['stable_misfires']:>7} {row['value_ambiguous_per_press']:>23.1%}")
    print("\nextra seconds per planned chain (reaction model):")
    print(f"{'hand':>4} {'level':>7} {'place, from memory':>19} {'place, re-read':>15} "
          f"{'value':>7} {'stable':>7}")
    for row in rows:
        for level in LEVELS:
            print(f"{row['hand']:>4} {level:>7} {row[f'{level}_place_memory_s']:>19.2f} "
                  f"{row[f'{level}_place_reread_s']:>15.2f} {row[f'{level}_value_s']:>7.2f} "
                  f"{row[f'{level}_stable_s']:>7.2f}")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(rows, out, indent=2)


if __name__ == "__main__":
    main()
