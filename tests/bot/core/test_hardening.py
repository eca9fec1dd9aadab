"""Who ``/challenge @name`` means, and text no store can hold: through the service on SQLite."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.api import ChatKey, Request, User, clean_text
from bot.core.messages import text
from tests.bot.core.harness import ALICE, MAIN, Harness

REAL_BOB = User("telegram", "2002", "Bob", handle="bob_real")
MALLORY = User("telegram", "6666", "Mallory", handle="mallory_m")
TG = ChatKey("telegram", "-100")


def renamed(user: User, name: str) -> User:
    return User(user.platform, user.id, name, handle=user.handle)


async def say(h: Harness, user: User, *args: str, **kw: object) -> str:
    request = Request(TG, user, "challenge", args, **kw)  # type: ignore[arg-type]
    return (await h.service.handle(request)).text


TG_ALICE = User("telegram", "2001", "Alice", handle="alice_k")


async def test_a_copied_display_name_is_ambiguous_and_says_how_to_mention(h: Harness) -> None:
    await h.service.handle(Request(TG, REAL_BOB, "help"))
    await h.service.handle(Request(TG, renamed(MALLORY, "Bob"), "help"))  # Mallory becomes "Bob"
    answer = await say(h, TG_ALICE, "@bob")
    assert "Several people I know are called @bob" in answer, answer
    assert "Bob (@bob_real)" in answer and "Bob (@mallory_m)" in answer
    assert "reply to one of their messages" in answer
    assert await h.store.open_challenges(_tg()) == []


async def test_a_unique_typed_name_is_taken_and_the_card_says_whom(h: Harness) -> None:
    await h.service.handle(Request(TG, REAL_BOB, "help"))
    answer = await say(h, TG_ALICE, "@Bob", "wa")
    assert answer.startswith("Challenging Bob (@bob_real), the only person called Bob"), answer
    (challenge,) = await h.store.open_challenges(_tg())
    assert challenge.challenged == "telegram:2002"


async def test_a_typed_handle_finds_its_owner_and_a_stale_one_nobody(h: Harness) -> None:
    await h.service.handle(Request(TG, REAL_BOB, "help"))
    answer = await say(h, TG_ALICE, "@BOB_REAL")
    assert "Challenging Bob (@bob_real)" in answer, answer
    await h.service.handle(Request(TG, TG_ALICE, "cancel"))
    # Bob gives the handle up; whoever had it before no longer answers to it.
    await h.service.handle(Request(TG, User("telegram", "2002", "Bob", handle="bob_new"), "help"))
    assert "don't know @bob_real" in await say(h, TG_ALICE, "@bob_real")


async def test_a_numeric_display_name_never_shadows_an_id(h: Harness) -> None:
    await h.service.handle(Request(TG, User("telegram", "111", "Carol"), "help"))
    await h.service.handle(Request(TG, renamed(MALLORY, "111"), "help"))
    answer = await say(h, TG_ALICE, "@111")
    assert "don't take @111 for a person" in answer, answer
    assert await h.store.open_challenges(_tg()) == []
    # A real mention (the platform's id) still reaches user 111.
    card = await say(h, TG_ALICE, target=User("telegram", "111", "Carol"))
    assert "Alice challenges Carol" in card, card


async def test_an_unknown_platform_mention_is_never_taken_for_a_display_name(h: Harness) -> None:
    await h.service.handle(Request(TG, renamed(MALLORY, "ghost_user"), "help"))
    answer = await say(h, TG_ALICE, "@ghost_user", unknown_mentions=("@ghost_user",))
    assert "don't know @ghost_user" in answer, answer
    assert await h.store.open_challenges(_tg()) == []


def _tg() -> ChatKey:
    return TG


# --- text that is not valid UTF-8 -----------------------------------------------------------

NASTY = st.lists(  # st.text() leaves surrogates out; characters one by one keep them
    st.one_of(
        st.characters(),
        st.characters(categories=["Cs"]),  # lone surrogates, as JSON "\ud800" delivers them
        st.just("\x00"),
    ),
    max_size=8,
).map("".join)
COMMANDS = st.sampled_from(
    ["challenge", "accept", "settings", "games", "board", "help", "move", "piece", "cancel"]
)


def test_clean_text_keeps_offsets_and_good_text() -> None:
    assert clean_text("Bob 七段 😀") == "Bob 七段 😀"
    assert clean_text("a\ud800b\x00") == "a\ufffdb\ufffd"
    assert clean_text("\ud83d\ude00") == "😀"  # a pair split in two is joined
    nasty = "x\udc80y"
    assert len(clean_text(nasty).encode("utf-16-le")) == len(
        nasty.encode("utf-16-le", "surrogatepass")
    )
    clean_text("a\ud800").encode("utf-8")  # encodable


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    command=COMMANDS,
    name=NASTY,
    uid=NASTY,
    chat=NASTY,
    args=st.lists(st.one_of(NASTY, NASTY.map(lambda s: "@" + s)), max_size=3),
    option=NASTY,
)
async def test_surrogates_and_nul_anywhere_get_an_answer(
    h: Harness, command: str, name: str, uid: str, chat: str, args: list[str], option: str
) -> None:
    user = User("console", uid or "u", name or "n", handle=name or None)
    target = User("console", name + "t", uid)
    request = Request(
        ChatKey("console", chat or "c", thread_id=option or None),
        user,
        command,
        tuple(args),
        options={option: option},
        target=target if option else None,
    )
    reply = await h.service.handle(request)
    assert reply.text.strip()
    assert reply.text != text("error.internal", command=command), (request, reply.text)
    reply.text.encode("utf-8")
    # Plain text made of such characters is still refused or answered, in the main chat too.
    again = await h.service.handle(Request(MAIN, ALICE, command, tuple(args)))
    assert again.text != text("error.internal", command=command)
