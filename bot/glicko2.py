"""Glicko-2 ratings (Mark Glickman, "Example of the Glicko-2 system", 2013): pure arithmetic.

Komabot plays correspondence games, so every rated game is one rating period of its own
(:func:`update` with one result).  Between games a player's deviation grows with the days they
did not play (:func:`age`), as Glicko-2's step 6 does for a period without games, once per day,
up to :data:`MAX_DEVIATION`.  Imports nothing but the standard library, so the store can apply
a rating in the transaction that finishes the game.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # Glicko-2's conversion between the Glicko scale and its own
START_RATING = 1500.0
MAX_DEVIATION = 350.0  # a new player's deviation, and the most inactivity can make it
START_VOLATILITY = 0.06
TAU = 0.5  # the system constant: how much volatility may change (Glickman: 0.3 to 1.2)
PROVISIONAL_DEVIATION = 110.0
"""A rating whose deviation is above this is provisional: shown with ``?`` (about five games
against established players bring a new player below it)."""
EPSILON = 0.000001  # convergence tolerance of the volatility iteration (Glickman's value)


@dataclass(frozen=True)
class Rating:
    rating: float = START_RATING
    deviation: float = MAX_DEVIATION
    volatility: float = START_VOLATILITY

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL_DEVIATION


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _volatility(phi: float, sigma: float, delta: float, v: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm on f(x) = 0."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        return top / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(player: Rating, results: Sequence[tuple[Rating, float]], tau: float = TAU) -> Rating:
    """The player's rating after one rating period with ``results``: (opponent, score) pairs,
    the score 1 for a win, 0.5 for a draw, 0 for a loss."""
    mu = (player.rating - START_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not results:  # step 6 alone: only the deviation grows
        return Rating(player.rating, min(math.hypot(phi, sigma) * SCALE, MAX_DEVIATION), sigma)
    opponents = [
        ((o.rating - START_RATING) / SCALE, o.deviation / SCALE, score) for o, score in results
    ]
    v_inverse = 0.0
    gain = 0.0
    for mu_j, phi_j, score in opponents:
        g = _g(phi_j)
        e = _expected(mu, mu_j, phi_j)
        v_inverse += g * g * e * (1.0 - e)
        gain += g * (score - e)
    v = 1.0 / v_inverse
    delta = v * gain
    new_sigma = _volatility(phi, sigma, delta, v, tau)
    phi_star = math.sqrt(phi * phi + new_sigma * new_sigma)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * gain
    return Rating(new_mu * SCALE + START_RATING, new_phi * SCALE, new_sigma)


def age(player: Rating, days: float) -> Rating:
    """The rating after ``days`` without games: the deviation grows as ``days`` periods of
    step 6 (phi^2 + days * sigma^2), up to MAX_DEVIATION."""
    if days <= 0:
        return player
    phi = player.deviation / SCALE
    grown = math.sqrt(phi * phi + days * player.volatility**2) * SCALE
    return Rating(player.rating, min(grown, MAX_DEVIATION), player.volatility)


def shown(rating: Rating) -> str:
    """The rating as people see it: rounded, with ``?`` while provisional."""
    return f"{round(rating.rating)}{'?' if rating.provisional else ''}"
