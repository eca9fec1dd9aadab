"""Per-chat switches (bare moves, threads), who may change settings, reminders by DM."""

from __future__ import annotations

from bot.core.api import ChatKey, Reply, Request
from bot.store.models import ReminderRoute
from tests.bot.core.harness import ALICE, BOB, CAROL, MAIN, Harness

DAY = 86400
HOUR = 3600


async def ask(h: Harness, user: object, command: str, *args: str, **options: str) -> Reply:
    request = Request(MAIN, user, command, args, options=options)  # type: ignore[arg-type]
    return await h.service.handle(request)


async def test_settings_show_and_change_the_new_switches(h: Harness) -> None:
    shown = await h.say(CAROL, "settings")
    assert "bare: off" in shown.text and "threads: off" in shown.text
    assert "reminders: chat" in shown.text
    changed = await h.say(CAROL, "settings", "bare", "on", "threads", "yes", "reminders", "dm")
    assert changed.text == "Settings changed: bare on, threads on, reminders dm."
    settings = await h.store.get_settings(ChatKey("console", "main"))
    assert settings.bare_moves and settings.threads
    assert await h.store.get_reminder_route(CAROL.key) is ReminderRoute.DM
    assert await h.store.get_reminder_route(ALICE.key) is ReminderRoute.CHAT  # per user
    assert "reminders: chat" in (await h.say(ALICE, "settings")).text
    assert "bare: on" in (await h.say(ALICE, "settings")).text  # per chat
    # "on" alone could be two settings: the answer says how to name one.
    vague = await h.say(CAROL, "settings", "on")
    assert (
        vague.ephemeral and "bare or threads" in vague.text and "/settings threads on" in vague.text
    )
    bad = await h.say(CAROL, "settings", "bare", "maybe")
    assert "choose one of on, off" in bad.text


async def test_settings_from_named_options(h: Harness) -> None:
    """Slash-command options carry the setting's name, so ``on`` is never ambiguous."""
    reply = await ask(h, CAROL, "settings", "on", "dm", threads="on", reminders="dm")
    assert reply.text == "Settings changed: threads on, reminders dm."
    settings = await h.store.get_settings(ChatKey("console", "main"))
    assert settings.threads and not settings.bare_moves


async def test_only_chat_managers_change_chat_settings_when_the_platform_says(h: Harness) -> None:
    refused = await ask(h, CAROL, "settings", "bare", "on", admin="0")
    assert refused.ephemeral and "manage this chat" in refused.text
    assert not (await h.store.get_settings(ChatKey("console", "main"))).bare_moves
    # Their own reminders are anyone's to choose, and anyone may look.
    mine = await ask(h, CAROL, "settings", "reminders", "dm", admin="0")
    assert mine.text == "Settings changed: reminders dm."
    assert "bare: off" in (await ask(h, CAROL, "settings", admin="0")).text
    allowed = await ask(h, CAROL, "settings", "bare", "on", admin="1")
    assert allowed.text == "Settings changed: bare on."


async def test_bare_moves_only_where_the_chat_opted_in(h: Harness) -> None:
    game = await h.start_game()
    quiet = await ask(h, ALICE, "move", "7g7f", bare="1")
    assert quiet.silent and quiet.text == ""
    assert (await h.game(game.id)).moves == ()
    await h.say(CAROL, "settings", "bare", "on")
    played = await ask(h, ALICE, "move", "7g7f", bare="1")
    assert "played" in played.text and not played.silent
    assert (await h.game(game.id)).moves == ("7g7f",)
    # Not a move at all (chatter with a digit), or from someone with no game here: silence.
    assert (await ask(h, BOB, "move", "10pm", bare="1")).silent
    assert (await ask(h, CAROL, "move", "3c3d", bare="1")).silent
    # A move that cannot be played is answered, briefly, to its writer.
    wrong = await ask(h, BOB, "move", "3c3e", bare="1")
    assert wrong.ephemeral and not wrong.silent and wrong.text
    assert (await h.game(game.id)).moves == ("7g7f",)


async def test_bare_moves_in_a_thread_follow_its_channel(h: Harness) -> None:
    thread = ChatKey("console", "thread-1")
    await h.start_game(chat=thread)
    await h.say(CAROL, "settings", "bare", "on")  # in MAIN, the thread's channel
    request = Request(thread, ALICE, "move", ("7g7f",), options={"bare": "1", "parent": "main"})
    assert "played" in (await h.service.handle(request)).text
    alone = Request(thread, BOB, "move", ("3c3d",), options={"bare": "1"})
    assert (await h.service.handle(alone)).silent


async def test_threads_setting_asks_the_front_end_for_a_thread(h: Harness) -> None:
    plain = await ask(h, ALICE, "challenge", threads="1")
    assert plain.card is not None and plain.thread_title is None
    await h.say(ALICE, "cancel")
    await h.say(CAROL, "settings", "threads", "on")
    wanted = await ask(h, ALICE, "challenge", threads="1")
    assert wanted.thread_title == "Shogi: Alice's challenge" and wanted.card is None
    assert await h.store.open_challenges(ChatKey("console", "main")) == []
    # A front end that cannot open threads (no option) gets the challenge where it is.
    here = await ask(h, ALICE, "challenge")
    assert here.card is not None
    # Refusals come first: no thread is opened for a challenge that cannot be made.
    self_challenge = Request(MAIN, BOB, "challenge", (), options={"threads": "1"}, target=BOB)
    assert (await h.service.handle(self_challenge)).ephemeral


async def test_reminders_by_direct_message_and_time_out_in_both(h: Harness) -> None:
    game = await h.start_game(time="1d")
    await h.say(BOB, "settings", "reminders", "dm")
    await h.play(game, "7g7f")  # Bob to move, one day
    await h.clock.advance(DAY - HOUR + 1)
    assert await h.service.fire_due() == 1
    ((chat, reminder),) = h.outbox.sent
    assert chat == ChatKey("console", "dm:bob")
    assert "Bob, it's your move in game #1 against Alice" in reminder.text
    await h.clock.advance(HOUR)
    await h.service.fire_due()
    where = [c for c, _ in h.outbox.sent[1:]]
    assert where == [MAIN, ChatKey("console", "dm:bob")]  # the chat, then Bob privately
    note = h.outbox.sent[-1][1].text
    assert "Bob ran out of time" in note and "Alice wins by time forfeit" in note


async def test_a_refused_direct_message_falls_back_to_the_game_chat(h: Harness) -> None:
    class NoDirectMessages(type(h.outbox)):  # type: ignore[misc]
        async def send(self, chat: ChatKey, reply: Reply) -> None:
            if chat.chat_id.startswith("dm:"):
                raise RuntimeError("the user has not started the bot")
            await super().send(chat, reply)

    outbox = NoDirectMessages()
    h.service.outboxes["console"] = outbox
    game = await h.start_game(time="1d")
    await h.say(BOB, "settings", "reminders", "dm")
    await h.play(game, "7g7f")
    await h.clock.advance(DAY - HOUR + 1)
    await h.service.fire_due()
    ((chat, reminder),) = outbox.sent
    assert chat == MAIN and "Bob, it's your move" in reminder.text
