"""Turning a move query into the one legal move it means, or a precise error."""

from __future__ import annotations

from typing import NoReturn

from rules.arrays import plain
from rules.english import with_article
from rules.errors import AmbiguousMoveError, IllegalMoveError, RulesError
from rules.move import Move
from rules.notation.names import short_name
from rules.notation.printing import Printer
from rules.notation.query import MoveQuery, Style
from rules.notation.relative import apply_marks
from rules.position import Position
from rules.tables import SENTE


def or_list(items: list[str]) -> str:
    """``a``, ``a or b``, ``a, b or c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def resolve(pos: Position, q: MoveQuery) -> Move:
    """The legal move ``q`` describes; AmbiguousMoveError when several fit, the rules core's
    IllegalMoveError (with its reason) when none does."""
    legal = pos.legal_moves()
    loose = [m for m in legal if _fits(pos, q, m)]
    hits = _narrow(pos, q, loose)
    if not hits:
        _explain_no_match(pos, q, legal, loose)
    if len(hits) == 2 and len({(m.from_sq, m.drop) for m in hits}) == 1:
        raise _promotion_choice(pos, q, legal, hits)
    if len(hits) > 1:
        raise _ambiguous(pos, q, legal, hits)
    return hits[0]


def _fits(pos: Position, q: MoveQuery, m: Move) -> bool:
    """Does ``m`` agree with what the text says for sure (square, piece, origin, drop)?"""
    if m.to_sq != q.dest:
        return False
    if q.drop is not None and q.drop != m.is_drop:
        return False
    if q.origin is not None and m.from_sq != q.origin:
        return False
    kind = m.drop or abs(pos.piece_at(m.from_sq))
    return q.kinds is None or kind in q.kinds


def _narrow(pos: Position, q: MoveQuery, moves: list[Move]) -> list[Move]:
    """Apply the softer words: promotion, relative position, board over drop, capture (none
    fits a capture written to an empty square: the explanation suggests the move)."""
    out = [m for m in moves if q.promote is None or m.promote == q.promote]
    if q.direction or q.side:
        out = apply_marks(pos.side, pos.variant.files, out, q.direction, q.side)
    if q.drop is None and any(not m.is_drop for m in out):
        out = [m for m in out if not m.is_drop]  # a drop is written 打 / *
    if q.preferred is not None and len(q.preferred) < len(q.kinds or ()):
        # a shared Wa name (隠狐): the piece whose own name it is, unless only the other fits
        own = [m for m in out if (m.drop or abs(pos.piece_at(m.from_sq))) in q.preferred]
        out = own or out
    if q.capture:  # "x" says a piece is taken: a move to an empty square is not that move
        out = [m for m in out if pos.board[m.to_sq]]
    return out


def _explain_no_match(
    pos: Position, q: MoveQuery, legal: list[Move], loose: list[Move]
) -> NoReturn:
    """Raise the best explanation for a query no legal move fits."""
    printer = Printer(pos, legal)
    if loose:
        # The piece can go there, but not the way the text says (promotion, 右/左...).
        if q.promote and all(m.is_drop for m in loose):
            raise IllegalMoveError(
                f"{q.text!r}: a piece dropped from the hand cannot promote on the drop; write "
                f"{printer.format(loose[0], q.style)}",
                code="drop_cannot_promote",
                text=q.text,
                suggestion=printer.format(loose[0], q.style),
            )
        if q.promote is not None and not any(m.promote == q.promote for m in loose):
            sample = loose[0]
            pos.check_legal(sample._replace(promote=q.promote))
        texts = sorted({printer.format(m, q.style) for m in loose})
        raise IllegalMoveError(
            f"{q.text!r} fits no legal move; did you mean {or_list(texts)}?",
            code="no_matching_move",
            text=q.text,
            candidates=loose,
            texts=texts,
        )
    pseudo = _pseudo_move(pos, q)
    pos.check_legal(pseudo)
    # check_legal found nothing wrong: the move is legal but did not fit the text's details.
    raise IllegalMoveError(
        f"{q.text!r} fits no legal move; did you mean {printer.format(pseudo, q.style)}?",
        code="no_matching_move",
        text=q.text,
        candidates=[pseudo],
        texts=[printer.format(pseudo, q.style)],
    )


def _pseudo_move(pos: Position, q: MoveQuery) -> Move:
    """The move the text most likely means, legal or not, for the rules core to judge."""
    v = pos.variant
    t = v.tables
    promote = bool(q.promote)
    if q.origin is not None:
        return Move(q.origin, q.dest, promote, 0)
    sign = 1 if pos.side == SENTE else -1
    kinds = sorted(q.kinds) if q.kinds is not None else [p.kind for p in v.pieces]
    droppable = [k for k in kinds if not v.piece(k).promoted and not v.piece(k).royal]
    if q.drop is True:
        if not droppable:
            names = with_article(or_list([short_name(v, k) for k in kinds]))
            raise IllegalMoveError(
                f"{q.text!r}: {names} cannot be dropped (only unpromoted pieces from the hand)",
                code="not_droppable",
                reason="kind_not_droppable",
                text=q.text,
                kinds=[v.piece(k).letter for k in kinds],
            )
        return Move(-1, q.dest, False, droppable[0])
    owned = [sq for sq, val in enumerate(plain(pos.board)) if val * sign > 0 and abs(val) in kinds]
    reaching = [
        sq
        for sq in owned
        if q.dest in t.leaps[pos.board[sq]][sq]
        or any(q.dest in ray for ray in t.rides[pos.board[sq]][sq])
    ]
    if reaching:
        return Move(reaching[0], q.dest, promote, 0)
    in_hand = [k for k in droppable if pos.hands[pos.side][k]]
    if q.drop is None and in_hand:
        return Move(-1, q.dest, False, in_hand[0])
    square = t.square_names[q.dest]
    if q.kinds is None:
        raise IllegalMoveError(
            f"none of your pieces can move to {square}",
            code="no_piece_reaches",
            text=q.text,
            square=square,
        )
    names = or_list([short_name(v, k) for k in kinds])
    if owned:
        where = or_list([t.square_names[sq] for sq in owned])
        message = (
            f"your {names} on {where} cannot move to {square}"
            if len(owned) <= 3
            else f"none of your {len(owned)} {names}s can move to {square}"
        )
        raise IllegalMoveError(
            message,
            code="piece_cannot_reach",
            reason="one" if len(owned) <= 3 else "many",
            text=q.text,
            square=square,
            origins=[t.square_names[sq] for sq in owned],
            kinds=[v.piece(k).letter for k in kinds],
            count=len(owned),
        )
    raise IllegalMoveError(
        f"you have no {names}" + (" on the board or in hand" if v.drops.enabled else ""),
        code="no_such_piece",
        reason="with_drops" if v.drops.enabled else "on_board",
        text=q.text,
        kinds=[v.piece(k).letter for k in kinds],
    )


def _ambiguous(pos: Position, q: MoveQuery, legal: list[Move], hits: list[Move]) -> RulesError:
    printer = Printer(pos, legal)
    kinds = {printer.kind(m) for m in hits}
    texts = list(dict.fromkeys(_explicit(printer, m, q.style) for m in hits))
    what = short_name(pos.variant, kinds.pop()) if len(kinds) == 1 else "piece"
    return AmbiguousMoveError(
        f"Which {what}? {or_list(texts)}",
        text=q.text,
        candidates=hits,
        texts=texts,
    )


def _promotion_choice(
    pos: Position, q: MoveQuery, legal: list[Move], hits: list[Move]
) -> RulesError:
    printer = Printer(pos, legal)
    hits = sorted(hits, key=lambda m: not m.promote)
    texts = [_explicit(printer, m, q.style) for m in hits]
    japanese = q.style is Style.JAPANESE
    how = "成 (promote) or 不成 (do not)" if japanese else "+ to promote or = not to"
    name = short_name(pos.variant, printer.kind(hits[0]))
    return AmbiguousMoveError(
        f"Promote the {name}? Add {how}: {or_list(texts)}",
        code="promotion_choice",
        text=q.text,
        candidates=hits,
        texts=texts,
    )


def _explicit(printer: Printer, move: Move, style: Style) -> str:
    """A move's text in ``style``; in Western always with origin, so each candidate is clear."""
    if style is Style.WESTERN and not move.is_drop:
        text = printer.western(move)
        if not printer.rivals(move):
            names = printer.pos.variant.tables.square_names
            code = printer.pos.variant.piece(printer.kind(move)).code
            text = code + names[move.from_sq] + text[len(code) :]
        return text
    return printer.format(move, style)
