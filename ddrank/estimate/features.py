"""Feature vectors for the trick estimator: the seed's 80 features and our compact set.

Both take *normalised* positions (see `state.normalise`: shifted up, trumps in spades), so the
rank axis holds each suit's remaining cards at the top and rank index 12 is always the boss card.
"""

from __future__ import annotations

import numpy as np

PAPER_VERSION = "paper80-v1"
COMPACT_VERSION = "compact-v2"
TOP_OWNERS = 6  # owners of each suit's six best remaining cards
RANK_VALUES = np.arange(2, 15, dtype=np.int16)  # rank index 0..12 -> 2..14 (ace 14)
_BITS = np.arange(1 << 13, dtype=np.int64)[:, None] >> np.arange(13) & 1  # [mask, rank]


def _lut_top_run(held: np.ndarray) -> np.ndarray:
    return np.cumprod(held[:, ::-1], axis=1).sum(axis=1)


# Per-holding lookup tables indexed by a 13-bit mask of shifted-up ranks (bit 12 = boss card):
# every per-suit quantity is a table lookup, which keeps feature extraction at a few us/position.
LEN = _BITS.sum(axis=1).astype(np.int16)
RUN = _lut_top_run(_BITS).astype(np.int16)
RANKSUM = (_BITS * RANK_VALUES).sum(axis=1).astype(np.int16)
TOP = (_BITS * RANK_VALUES).max(axis=1).astype(np.int16)
_HIGHER = 14 - TOP
STOPPER = np.where((TOP > 0) & (LEN > _HIGHER) & (_HIGHER < 7), 7 - _HIGHER, 0).astype(np.int16)
POINTS = (_BITS * np.maximum(RANK_VALUES - 10, 0)).sum(axis=1).astype(np.int16)
PAPER_LUT = np.stack([LEN, RANKSUM, TOP, STOPPER, RUN], axis=1).astype(np.float32)


def holding_masks(owners: np.ndarray) -> np.ndarray:
    """masks[n, seat, suit]: 13-bit rank mask of each seat's holding in each suit."""
    eq = owners[:, None, :, :] == np.arange(4, dtype=np.int8)[None, :, None, None]
    packed = np.packbits(eq, axis=-1, bitorder="little").astype(np.int32)  # [n, 4, 4, 2]
    return packed[..., 0] | (packed[..., 1] << 8)


def paper_feature_names() -> list[str]:
    kinds = ("len", "ranksum", "top", "stopper", "winners")
    return [f"{p}_{s}_{k}" for p in "NESW" for s in "SHDC" for k in kinds]


def paper_features(norm: np.ndarray) -> np.ndarray:
    """The seed's 80 features: for each seat N,E,S,W and suit S,H,D,C (trumps in spades):
    length, rank sum (2..14), top rank (0 if void), stopper rank and sure winners.

    Stopper: 7 minus the cards the holder must lose before their top card is the boss, if they
    have enough length to survive that many rounds (ace 7, guarded king 6, bare king 0).
    Sure winners: the run of boss cards they hold, cashing from the top.
    """
    return PAPER_LUT[holding_masks(norm)].reshape(len(norm), 80)


def compact_feature_names() -> list[str]:
    names = []
    for slot in range(4):
        for seat in ("lead", "lho", "pard", "rho"):
            names += [f"s{slot}_{seat}_len", f"s{slot}_{seat}_bits", f"s{slot}_{seat}_run"]
        for side in ("us", "them"):
            names += [f"s{slot}_{side}_run", f"s{slot}_{side}_maxlen", f"s{slot}_{side}_cash"]
        names.append(f"s{slot}_left")
    names += ["hand_size", "notrump", "us_cash", "them_cash", "us_points", "them_points"]
    names += [f"{seat}_points" for seat in ("lead", "lho", "pard", "rho")]
    names += [f"{seat}_short_side" for seat in ("lead", "lho", "pard", "rho")]
    names += [f"s{slot}_owner{k + 1}" for slot in range(4) for k in range(TOP_OWNERS)]
    names += ["us_trumps", "them_trumps", "us_ruffs", "them_ruffs"]
    return names


N_COMPACT = len(compact_feature_names())


def canonical_suit_order(masks: np.ndarray, notrump: np.ndarray) -> np.ndarray:
    """Suit axis order that makes positions equal up to a permutation of interchangeable suits.

    Side suits are interchangeable for double-dummy purposes (all four in no-trump): sort them
    by the holdings of leader, LHO and partner (which fix the suit) so that one canonical
    position stands for its 6 (or 24) suit permutations and the trees need not learn each.
    """
    m = masks.astype(np.int64)
    key = (m[:, 0, :] << 26) | (m[:, 1, :] << 13) | m[:, 2, :]  # [n, suit]
    key[:, 0] += np.where(notrump, 0, 1 << 40)  # the trump suit (on the spade axis) stays first
    return np.argsort(-key, axis=1, kind="stable")


def compact_features(norm: np.ndarray, leaders: np.ndarray, notrump: np.ndarray) -> np.ndarray:
    """Our feature set: the seed's view of each suit as exact rank bits, seen from the leader.

    Seats are relative to the side on lead (the seed's state has no leader, which caps its
    accuracy on small hands), holdings are 13-bit masks of the shifted-up ranks (so
    "bits >= 4096" is "holds the boss"), and partnership features (combined boss run, longest
    hand, cashable tricks) give the trees the cross-partner information the seed asks for.
    """
    n = len(norm)
    rows = np.arange(n)[:, None]
    masks = holding_masks(norm)  # [n, seat, suit], absolute seats
    seats = (np.asarray(leaders, dtype=np.int64)[:, None] + np.arange(4)) % 4
    masks = masks[rows, seats]  # seats relative to the leader
    order = canonical_suit_order(masks, np.asarray(notrump, dtype=bool))
    masks = np.take_along_axis(masks, order[:, None, :], axis=2)
    length = LEN[masks]  # [n, seat, suit]
    run = RUN[masks]
    side = np.stack([masks[:, 0] | masks[:, 2], masks[:, 1] | masks[:, 3]], axis=1)
    side_run = RUN[side]  # [n, side, suit]
    side_len = np.stack(
        [np.maximum(length[:, 0], length[:, 2]), np.maximum(length[:, 1], length[:, 3])], axis=1
    )
    opp_len = side_len[:, ::-1]
    cash = np.where(side_run >= opp_len, side_len, np.minimum(side_run, side_len))
    left = LEN[side[:, 0] | side[:, 1]]  # [n, suit]
    points = POINTS[masks].sum(axis=2)  # [n, seat]
    short_side = length[:, :, 1:].min(axis=-1)  # shortest side suit per seat (ruffing value)
    # written straight into one float32 matrix: mixed-dtype concatenation costs more than the
    # features themselves
    out = np.empty((n, N_COMPACT), dtype=np.float32)
    slots = out[:, : 4 * 19].reshape(n, 4, 19)  # a view: per suit slot, 19 columns
    for seat in range(4):
        slots[:, :, 3 * seat] = length[:, seat]
        slots[:, :, 3 * seat + 1] = masks[:, seat]
        slots[:, :, 3 * seat + 2] = run[:, seat]
    for sd in range(2):
        slots[:, :, 12 + 3 * sd] = side_run[:, sd]
        slots[:, :, 13 + 3 * sd] = side_len[:, sd]
        slots[:, :, 14 + 3 * sd] = cash[:, sd]
    slots[:, :, 18] = left
    col = 4 * 19
    out[:, col] = left.sum(axis=1) // 4
    out[:, col + 1] = notrump
    out[:, col + 2] = cash[:, 0].sum(axis=1)
    out[:, col + 3] = cash[:, 1].sum(axis=1)
    out[:, col + 4] = points[:, 0] + points[:, 2]
    out[:, col + 5] = points[:, 1] + points[:, 3]
    out[:, col + 6 : col + 10] = points
    out[:, col + 10 : col + 14] = short_side
    col += 14
    # who holds the k-th best card of each suit (leader 0 .. RHO 3, -1 once the suit runs out)
    top = norm[:, :, 12 : 12 - TOP_OWNERS : -1]  # [n, suit, k], absolute seats
    top = np.take_along_axis(top, order[:, :, None], axis=1)
    lead = np.asarray(leaders, dtype=np.int8)[:, None, None]
    out[:, col : col + 4 * TOP_OWNERS] = np.where(top >= 0, (top - lead) % 4, -1).reshape(n, -1)
    col += 4 * TOP_OWNERS
    # trump play: each side's trumps, and ruffs its short hand could take in the side suits
    trumps = length[:, :, 0] * ~np.asarray(notrump, dtype=bool)[:, None]  # [n, seat]
    out[:, col] = trumps[:, 0] + trumps[:, 2]
    out[:, col + 1] = trumps[:, 1] + trumps[:, 3]
    for k, (a, b) in enumerate(((0, 2), (1, 3))):
        la, lb = length[:, a, 1:], length[:, b, 1:]
        short_trumps = np.where(la <= lb, trumps[:, a, None], trumps[:, b, None])
        out[:, col + 2 + k] = np.minimum(short_trumps, np.abs(la - lb)).max(axis=1)
    return out
