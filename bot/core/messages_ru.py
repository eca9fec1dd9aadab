"""Russian message catalogue: the same keys and placeholders as ``messages.EN``."""

from __future__ import annotations

RU: dict[str, str] = {
    # --- command summaries (help, slash-command descriptions) ----------------------------
    "cmd.challenge": "Вызвать кого-то (или любого) на партию",
    "cmd.play": "Сыграть партию со мной, Komabot (уровни от 1 до 8)",
    "cmd.accept": "Принять вызов",
    "cmd.decline": "Отклонить вызов, адресованный вам",
    "cmd.cancel": "Отозвать свой вызов",
    "cmd.move": "Сделать ход в своей партии",
    "cmd.board": "Показать доску",
    "cmd.moves": "Показать, куда может пойти фигура с поля",
    "cmd.resign": "Сдаться (с подтверждением)",
    "cmd.draw": "Предложить, принять или отклонить ничью",
    "cmd.abort": "Отменить партию, пока оба не сделали ход",
    "cmd.takeback": "Попросить вернуть ход (нужно согласие соперника)",
    "cmd.impasse": "Объявить дзисёги (импасс, правило 27 очков, только сёги)",
    "cmd.games": "Ваши текущие партии",
    "cmd.export": "Скачать запись партии (KIF, KIFU, CSA, USI) или анимацию GIF",
    "cmd.rating": "Показать рейтинг (ваш или другого игрока) в этом чате и общий",
    "cmd.leaderboard": "Лучшие рейтинги этого сервера или группы и ваше место",
    "cmd.history": "Последние партии игрока здесь и изменения рейтинга",
    "cmd.piece": "Показать, как ходит фигура",
    "cmd.cheatsheet": "Показать все фигуры варианта",
    "cmd.settings": "Показать или изменить настройки чата и куда приходят напоминания",
    "cmd.help": "Список команд или описание одной",
    "cmd.complete": "Подсказать значения недописанного аргумента (для клиентов)",
    # --- general ------------------------------------------------------------------------
    "error.internal": (
        "У меня что-то сломалось при обработке /{command}. "
        "/board покажет положение в партии; попробуйте ещё раз."
    ),
    "error.unknown_command": "Я не знаю команды /{command}. {hint}",
    "error.unknown_command.hint_similar": "Может быть, {options}? /help покажет все команды.",
    "error.unknown_command.hint": "/help покажет все команды.",
    "error.shutting_down": "Я перезапускаюсь; пришлите это ещё раз через минуту.",
    "error.read_only": (
        "Сейчас я ничего не могу сохранить: моя база данных только для чтения, ничего не "
        "изменилось. /board, /games и /help работают; сообщите тому, кто меня запустил."
    ),
    "error.disk_full": (
        "Не могу это сохранить: диск с моей базой данных заполнен, ничего не изменилось. "
        "/board, /games и /help работают; сообщите тому, кто меня запустил."
    ),
    "list.more": "… и ещё {count}",
    "error.conflict": (
        "Не выполнено: партия #{game} изменилась в тот же момент ({reason}). "
        "Вот доска сейчас; повторите, если это ещё имеет смысл."
    ),
    "conflict.reason": "{first}; {lost}",
    "conflict.first.moved": "{name} успел(а) сделать ход раньше",
    "conflict.first.took_back": "ход был возвращён раньше",
    "conflict.first.offer": (
        "раньше пришло предложение ничьей или возврата хода (или ответ на него)"
    ),
    "conflict.first.resigned": "{name} сдался(-лась) раньше",
    "conflict.first.timeout": "у {name} раньше истекло время",
    "conflict.first.drawn": "раньше была согласована ничья",
    "conflict.first.aborted": "партия была отменена раньше",
    "conflict.first.impasse": "раньше было объявлено дзисёги",
    "conflict.lost.move": "ваш ход не сделан",
    "conflict.lost.other": "команда /{command} не выполнена",
    "conflict.other": (
        "Не выполнено: в тот же момент что-то изменилось. Повторите, если это ещё имеет смысл."
    ),
    "error.record_damaged": (
        "Запись партии #{game} повреждена (ход {ply}: {problem}); продолжить её нельзя. "
        "Пожалуйста, сообщите об этом."
    ),
    "color.sente": "сэнтэ",
    "color.gote": "готэ",
    "color.random": "цвет по жребию",
    "time.none": "без ограничения времени",
    "time.per_move": "{time} на ход",
    "time.in": "через {delta}",
    "time.deadline": "срок {when} ({relative})",
    "unit.less_than_minute": "меньше минуты",
    # --- picking a game / challenge -----------------------------------------------------
    "game.none_here": (
        "У вас нет текущей партии в этом чате. Начните её командой /challenge "
        "или укажите номер партии."
    ),
    "game.none_in_chat": "В этом чате нет текущих партий. Начните командой /challenge.",
    "game.several_in_chat": "Здесь идёт несколько партий; укажите одну:\n{games}",
    "game.several_of_yours": (
        "У вас несколько текущих партий; добавьте номер партии (например, 7g7f 12):\n{games}"
    ),
    "game.not_found": "Партии #{game} нет.",
    "game.other_chat": "Партия #{game} идёт в другом чате; спросите там.",
    "game.not_player": (
        "Партию #{game} играют только {sente} и {gote}; смотреть можно через /board {game}."
    ),
    "game.finished": "Партия #{game} окончена ({result}).",
    "game.bad_number": "{text!r} — не номер партии (нужно, например, 12 или #12).",
    "game.line": "#{game} {sente} — {gote} · {variant} · {turn}",
    "game.turn": "ходит {name}",
    "challenge.not_found": "Вызова #{challenge} нет.",
    "challenge.other_chat": "Вызов #{challenge} сделан в другом чате; ответьте там.",
    "challenge.bad_number": "{text!r} — не номер вызова (нужно, например, 12 или #12).",
    "challenge.none_for_you": "Здесь нет вызовов, ждущих вашего ответа.",
    "challenge.several": "Здесь открыто несколько вызовов; укажите один:\n{challenges}",
    "challenge.line": "#{challenge} {challenger} → {challenged} · {variant} · {time}",
    "challenge.anyone": "любой",
    # --- challenge ----------------------------------------------------------------------
    "challenge.bad_arg": (
        "Не понимаю {word!r} в вызове. Пишите /challenge [@игрок] "
        "[shogi|wa|wa-drops] [random|sente|gote] [1d|3d|7d|none] [rated|casual]; "
        "чтобы сыграть со мной — "
        "/challenge bot с уровнем от 1 до 8 (или /play)."
    ),
    "challenge.twice": "{word!r} и {other!r} оба задают {what}; выберите одно.",
    "challenge.what.variant": "вариант",
    "challenge.what.color": "цвет",
    "challenge.what.time": "время на ход",
    "challenge.what.opponent": "соперника",
    "challenge.what.level": "уровень",
    "challenge.what.rated": "рейтинговая или товарищеская",
    "challenge.casual": "товарищеская (без рейтинга)",
    "bot.unrated": "Партии со мной никогда не рейтинговые: уберите «rated».",
    "challenge.time_range": (
        "Время на ход выбирается в пределах {low} — {high} (или none); {time} не подходит."
    ),
    "challenge.unknown_user": (
        "Я ещё не знаю {name} на этой платформе: пусть сначала пришлёт мне любую команду "
        "(например, /help), или ответьте на одно из его сообщений командой /challenge."
    ),
    "challenge.ambiguous_user": (
        "Я знаю нескольких с именем {name}: {people}. Имя может взять кто угодно, поэтому "
        "упомяните нужного человека: выберите его из списка, который приложение показывает "
        "после @ (или в параметре opponent слеш-команды), или ответьте на одно из его "
        "сообщений командой /challenge."
    ),
    "challenge.number_name": (
        "Я не принимаю {name} за человека: число может оказаться чьим угодно именем. "
        "Упомяните его: выберите из списка, который приложение показывает после @ (или в "
        "параметре opponent слеш-команды), или ответьте на одно из его сообщений командой "
        "/challenge."
    ),
    "challenge.by_name": (
        "Вызываю {who} — единственного, кого я знаю под именем {name}. Не тот? "
        "/cancel {challenge} и упомяните нужного человека."
    ),
    "challenge.self": "Нельзя вызвать самого себя; для открытого вызова не указывайте имя.",
    "challenge.you_busy": (
        "У вас уже идёт партия #{game} в этом чате; сначала доиграйте её (одна партия "
        "на игрока в чате)."
    ),
    "challenge.they_busy": "У {name} уже идёт партия #{game} в этом чате; вызовите позже.",
    "challenge.already_open": (
        "У вас здесь уже открыт вызов #{challenge}; сначала отзовите его: /cancel {challenge}."
    ),
    "challenge.card": (
        "⚔️ Вызов #{challenge}: {challenger} вызывает {challenged} на партию: {variant}.\n"
        "{challenger} играет за {color} · {time} · открыт до {expires}.\n"
        "{challenged}: /accept {challenge} или /decline {challenge}"
    ),
    "challenge.card_open": (
        "⚔️ Открытый вызов #{challenge}: {challenger} хочет сыграть с любым: {variant}.\n"
        "{challenger} играет за {color} · {time} · открыт до {expires}.\n"
        "Любой желающий: /accept {challenge}"
    ),
    "challenge.closed.accepted": "Вызов #{challenge} принял(а) {name}: партия #{game}.",
    "challenge.closed.declined": "{name} отклонил(а) вызов #{challenge}.",
    "challenge.closed.cancelled": "{name} отозвал(а) вызов #{challenge}.",
    "challenge.closed.expired": "Вызов #{challenge} истёк: никто не принял его вовремя.",
    "challenge.not_open": "Вызов #{challenge} уже закрыт ({status}).",
    "challenge.status.accepted": "принят",
    "challenge.status.declined": "отклонён",
    "challenge.status.cancelled": "отозван",
    "challenge.status.expired": "истёк",
    "challenge.status.open": "открыт",
    "challenge.not_for_you": "Вызов #{challenge} адресован {name}, а не вам.",
    "challenge.own": "Это ваш собственный вызов; /cancel {challenge} отзовёт его.",
    "challenge.decline_open": "Открытый вызов не нужно отклонять; просто не принимайте его.",
    "challenge.cancel_not_yours": "Отозвать вызов #{challenge} может только {name}.",
    "challenge.accepter_busy": (
        "У вас уже идёт партия #{game} в этом чате; доиграйте её, прежде чем принимать "
        "другой вызов."
    ),
    "challenge.challenger_busy": (
        "{name} тем временем начинает здесь партию #{game}; попробуйте позже."
    ),
    "button.accept": "Принять",
    "button.decline": "Отклонить",
    "button.cancel": "Отозвать",
    # --- game start / moves -------------------------------------------------------------
    "game.started": (
        "🎌 Партия #{game} началась: {sente} (сэнтэ ☗) — {gote} (готэ ☖), {variant}, {time}."
    ),
    "move.played": "{mover} сыграл(а) {move}.",
    "move.check": "Шах!",
    "move.next": "Ходит {name} ({color}).",
    "move.next_deadline": "Ходит {name} ({color}) — {deadline}.",
    "move.missing": "Какой ход? Например, /move {example}.",
    "move.not_your_turn": "В партии #{game} сейчас ходит {name}, а не вы.",
    "move.malformed": "{problem}",
    "move.illegal": "Ход не сделан: {problem}",
    "move.ambiguous": "{text!r} подходит к нескольким ходам; выберите один:",
    "move.promotion_choice": "{text!r}: переворачивать фигуру или нет? Выберите:",
    "move.example.shogi": "7g7f или P-7f",
    "move.example.wa": "8h8g или SP-8g",
    "offer.draw_pending": "{name} предлагает ничью: /draw accept или /draw decline.",
    "offer.takeback_pending": (
        "{name} просит вернуть ход: /takeback accept или /takeback decline."
    ),
    # --- results ------------------------------------------------------------------------
    "result.checkmate": "мат",
    "result.no_legal_moves": "отсутствие ходов (нет ни одного допустимого хода — поражение)",
    "result.repetition": "четырёхкратное повторение позиции (сэннититэ)",
    "result.perpetual_check": "вечный шах (сэннититэ)",
    "result.impasse": "объявление дзисёги (импасс)",
    "result.resignation": "сдача",
    "result.timeout": "просрочка времени",
    "result.agreed_draw": "соглашение",
    "result.aborted": "отмена партии",
    "result.illegal_move": "недопустимый ход соперника",
    "result.wins": "{winner} побеждает: {reason}",
    "result.draw": "ничья: {reason}",
    "result.aborted_line": "партия отменена",
    "game.over": "🏁 Партия #{game} окончена: {result}.",
    "game.over.export": "Скачать запись:",
    "rating.changes": "📈 Рейтинги: {changes}.",
    "rating.change": "{name} {before} → {after} ({delta})",
    "rating.bad_arg": "Напишите /rating [@игрок] [shogi|wa|wa-drops]; {word!r} — ни то, ни другое.",
    "rating.no_games": "У {name} пока нет рейтинговых партий.",
    "rating.title": "📊 Рейтинги: {name} (? — предварительный)",
    "rating.variant": "{variant}:",
    "rating.line": (
        "  {where}: {rating} ±{deviation} · партий: {games} ({wins} В / {losses} П / {draws} Н)"
    ),
    "rating.none_here": "  {where}: нет рейтинговых партий",
    "rating.where.here": "в этом чате",
    "rating.where.overall": "всего",
    "rating.where.server": "на этом сервере",
    "rating.best_win": "    лучшая победа: {rating} ({name}, партия #{game})",
    "rating.streak": "    текущая серия: {streak}",
    "page.range": "Страницы {page!r} нет: страницы нумеруются от 1 до {most}.",
    "page.missing": "Страницы {page} нет: всего их {pages}.",
    "button.page_back": "◀ Стр. {page}",
    "button.page_next": "Стр. {page} ▶",
    "leaderboard.bad_arg": (
        "Напишите /leaderboard [shogi|wa|wa-drops] [страница]; {word!r} — не вариант и не "
        "номер страницы."
    ),
    "leaderboard.title": "Рейтинг игроков, {variant}, {where} (страница {page} из {pages})",
    "leaderboard.line": "{place}. {name} {rating} ±{deviation} · партий: {games}",
    "leaderboard.head.player": "Игрок",
    "leaderboard.head.rating": "Рейтинг",
    "leaderboard.head.games": "Партий",
    "leaderboard.empty": (
        "Здесь пока ни у кого нет устоявшегося рейтинга ({variant}): рейтинг попадает в таблицу, "
        "когда перестаёт быть предварительным (примерно после пяти рейтинговых партий)."
    ),
    "leaderboard.you": "Ваше место: {place} из {total} ({rating}).",
    "leaderboard.you_provisional": (
        "Ваш рейтинг {rating} пока предварительный (±{deviation}): он попадёт в таблицу, "
        "когда отклонение станет меньше ±{threshold}."
    ),
    "leaderboard.you_none": "У вас здесь пока нет рейтинговых партий в этом варианте.",
    "history.bad_arg": "Напишите /history [@игрок] [страница]; {word!r} — ни то, ни другое.",
    "history.none": "У {name} пока нет завершённых партий ({where}).",
    "history.title": "📜 Партии {name} ({where}), сначала новые (страница {page} из {pages}):",
    "history.line": "#{game} · {opponent} · {variant} · {result} · {rating}",
    "history.won": "победа: {reason}",
    "history.lost": "поражение: {reason}",
    "history.drawn": "ничья: {reason}",
    "history.aborted": "партия отменена",
    "history.change": "{before} → {after} ({delta})",
    "history.unrated": "без рейтинга",
    "history.export": "Скачать запись: /export НОМЕР.",
    # --- why a move is illegal (rules error codes) ---------------------------------------
    "rules.no_piece": "на {square} нет фигуры",
    "rules.not_your_piece": "фигура «{piece}» на {square} принадлежит сопернику",
    "rules.own_piece_on_target": "на {square} стоит ваша собственная фигура «{piece}»",
    "rules.bad_pattern": "фигура «{piece}» не может пойти с {origin} на {square}",
    "rules.path_blocked": (
        "фигура «{piece}» с {origin} не может дойти до {square}: путь перекрывает фигура "
        "«{blocker_piece}» ({blocker_side}) на {blocker}"
    ),
    "rules.cannot_promote.never_promotes": "фигура «{piece}» не переворачивается",
    "rules.promotion_outside_zone": (
        "переворот возможен только ходом, который начинается или заканчивается в зоне "
        "переворота (последние {depth} горизонтали); ход {origin}-{square} не такой"
    ),
    "rules.must_promote": (
        "фигура «{piece}» на {square} больше никогда не сможет ходить, поэтому должна "
        "перевернуться (добавьте +)"
    ),
    "rules.not_in_hand": "у вас в руке нет фигуры «{piece}»",
    "rules.dead_drop": (
        "фигура «{piece}», сброшенная на {square}, никогда не сможет ходить, поэтому сбрасывать "
        "её туда нельзя"
    ),
    "rules.nifu": (
        "на этой вертикали уже стоит ваша неперевёрнутая фигура «{piece}» (на {other}): две на "
        "одной вертикали запрещены (нифу)"
    ),
    "rules.uchifuzume": "ставить мат сбросом фигуры «{piece}» запрещено (утифудзумэ)",
    "rules.leaves_king_in_check": (
        "после этого хода ваш король на {king} окажется под шахом с {attackers}"
    ),
    "rules.still_in_check": (
        "вам шах, и после этого хода ваш король на {king} всё ещё будет атакован с {attackers}"
    ),
    "rules.foreign_piece": (
        "{written} — фигура другого варианта сёги, в этой партии её нет; так же здесь ходит "
        "{pieces}: может быть, {example}?"
    ),
    "rules.foreign_piece_unmatched": (
        "{written} — фигура другого варианта сёги, в этой партии её нет, и ни одна фигура здесь "
        "не ходит так же; фигуры этой партии: {pieces}"
    ),
    "rules.no_drops": "в варианте «{variant}» сбросов нет: взятые фигуры уходят из игры",
    "rules.not_droppable": "фигуру «{piece}» сбрасывать нельзя",
    "rules.square_occupied": "поле {square} занято: там стоит фигура «{piece}» ({side})",
    "rules.cannot_promote.already_promoted": "фигура «{piece}» уже перевёрнута",
    "rules.illegal_move": "этот ход здесь невозможен",
    "rules.drop_cannot_promote": (
        "{text!r}: сброшенная из руки фигура не переворачивается при сбросе; напишите {suggestion}"
    ),
    "rules.no_matching_move": (
        "{text!r} не подходит ни к одному возможному ходу; может быть, {texts}?"
    ),
    "rules.not_droppable.kind_not_droppable": (
        "{text!r}: фигуру «{kinds}» сбрасывать нельзя (из руки сбрасывают только неперевёрнутые "
        "фигуры)"
    ),
    "rules.no_piece_reaches": "ни одна ваша фигура не может пойти на {square}",
    "rules.piece_cannot_reach.one": "на {square} нельзя пойти фигурой «{kinds}» с {origins}",
    "rules.piece_cannot_reach.many": (
        "ни одна из ваших фигур «{kinds}» (всего {count}) не может пойти на {square}"
    ),
    "rules.no_such_piece.on_board": "у вас нет фигуры «{kinds}»",
    "rules.no_such_piece.with_drops": "у вас нет фигуры «{kinds}» ни на доске, ни в руке",
    "rules.malformed_move.unreadable_move": "не могу прочитать {text!r} как ход",
    "rules.malformed_move.plus_without_piece": (
        "не могу прочитать {text!r} как ход: после + перед фигурой нужна её буква, например +R-3c"
    ),
    "rules.malformed_move.drop_with_origin": (
        "не могу прочитать {text!r} как ход: у сброса нет исходного поля, пишите так: S*5e"
    ),
    "rules.malformed_move.drop_without_piece": (
        "не могу прочитать {text!r} как ход: в сбросе нужна фигура, пишите так: P*5e"
    ),
    "rules.malformed_move.drop_promotes": (
        "не могу прочитать {text!r} как ход: сброшенная фигура не переворачивается при сбросе, "
        "уберите + или ="
    ),
    "rules.all_digit_square": (
        "{text!r}: на доске {files}x{ranks} у поля пишется буква горизонтали (например, 11k или "
        "6h) или горизонталь японской цифрой, чтобы числа не сливались; поля из одних цифр "
        "бывают только на доске 9x9"
    ),
    "rules.malformed_move.same_square": "{text!r}: исходное поле и поле назначения совпадают",
    "rules.bad_square.no_such_square": (
        "{text!r}: {square} — не поле доски: вертикали 1–{files}, горизонтали a–{last}"
    ),
    "rules.unknown_piece.unknown_piece_code": (
        "{text!r}: в варианте «{variant}» нет фигуры {token!r} (буквы фигур: {letters}; коды: "
        "{codes}; у перевёрнутой фигуры впереди +, например +R)"
    ),
    "rules.malformed_move.japanese_after_piece": (
        "{text!r}: не могу прочитать {rest!r} после фигуры (ожидается 右 左 直 上 引 寄, затем "
        "成, 不成 или 打)"
    ),
    "rules.malformed_move.japanese_marks": (
        "{text!r}: не больше одного из 右/左 и одного из 上/引/寄/直"
    ),
    "rules.malformed_move.japanese_drop_origin": (
        "{text!r}: у сброса (打) нет исходного поля и направления"
    ),
    "rules.unknown_piece.japanese_piece_expected": (
        "{text!r}: после поля идёт название фигуры ({sample}…)"
    ),
    "rules.bad_square.japanese_square_first": (
        "{text!r}: ход в японской записи начинается с поля (вертикаль, затем горизонталь, "
        "например ７六) или с 同"
    ),
    "rules.bad_square.square_too_long": (
        "{text!r}: {run!r} слишком длинно для поля (вертикаль, затем горизонталь, например ７六 "
        "или １１十一)"
    ),
    "rules.bad_square.ambiguous_square": (
        "{text!r}: поле {run!r} можно прочитать по-разному; напишите вертикаль цифрами, а "
        "горизонталь иероглифом, например １０三"
    ),
    "rules.bad_square.bad_origin": (
        "{text!r}: ({token}) здесь не может быть исходным полем; пишите так: {form}"
    ),
    "rules.no_previous_move": "{text!r}: 同 означает поле предыдущего хода, а ходов ещё не было",
    "rules.malformed_move.bad_usi": (
        "{text!r} — не ход в записи USI: напишите исходное поле и поле назначения, например 7g7f, "
        "добавьте + для переворота (8h2b+), сброс пишется так: P*5e"
    ),
    "rules.malformed_move.bad_usi_drop": (
        "{text!r}: {token!r} — не фигура, которую можно сбросить в варианте «{variant}» (можно: "
        "{letters})"
    ),
    "rules.empty_move": "ход не указан",
    "rules.move_too_long": "для хода это слишком длинно (символов: {length})",
    "rules.bad_square": (
        "{text!r} — не поле доски: напишите вертикаль 1–{width}, затем горизонталь a–{last}, "
        "например {example}"
    ),
    "rules.examples": (
        ". Пишите ход так: {usi} (USI), {western} (западная запись) или {japanese} (японская)"
    ),
    "rules.examples.drop": "; сброс: {drop}",
    "rules.unknown_piece.piece_name_missing": "Назовите фигуру: название, иероглиф, букву или код.",
    "rules.unknown_piece.close_names": (
        "Фигуры {query!r} нет. Может быть, вы имели в виду: {candidates}?"
    ),
    "rules.unknown_piece.no_close_name": "Фигуры {query!r} нет.",
    # --- board / moves ------------------------------------------------------------------
    "board.sente": "Сэнтэ",
    "board.gote": "Готэ",
    "board.move": "Ход {n}",
    "board.to_move": "Ходит {name}",
    "board.header": "Партия #{game}: {sente} ☗ — {gote} ☖ · {variant} · ход {ply}",
    "board.last_move": "Последний ход: {move}.",
    "board.result.checkmate": "Мат: {winner} побеждает",
    "board.result.no_legal_moves": "Нет ходов: {winner} побеждает",
    "board.result.repetition": "Ничья: повторение позиции",
    "board.result.perpetual_check": "Вечный шах: {winner} побеждает",
    "board.result.impasse": "Дзисёги: {winner} побеждает",
    "board.result.resignation": "Сдача: {winner} побеждает",
    "board.result.timeout": "Время вышло: {winner} побеждает",
    "board.result.agreed_draw": "Ничья по соглашению",
    "board.result.aborted": "Партия отменена",
    "board.result.illegal_move": "Недопустимый ход: {winner} побеждает",
    "textboard.sente": "☗ сэнтэ",
    "textboard.gote": "☖ готэ",
    "textboard.hand": "в руке",
    "textboard.legend": "{keys}; +X — перевёрнутая, vX — фигура готэ",
    "textboard.marks.last_move": "* — поля последнего хода",
    "textboard.marks.targets": "* — куда может пойти фигура",
    "moves.missing": "Какая фигура? Укажите её поле, например /moves 7g.",
    "moves.bad_square": "{problem}",
    "moves.empty_square": "На поле {square} нет фигуры.",
    "moves.none": (
        "У фигуры «{piece}» игрока {owner} ({color}) на {square} сейчас нет допустимых ходов."
    ),
    "moves.none_waiting": (
        "Сейчас ходит не {color}, но и в свой ход у фигуры «{piece}» игрока {owner} ({color}) "
        "на {square} не было бы допустимых ходов."
    ),
    "moves.list": "Фигура «{piece}» игрока {owner} ({color}) с {square} может пойти на: {moves}.",
    "moves.list_waiting": (
        "Сейчас ходит не {color}; в свой ход фигура «{piece}» игрока {owner} ({color}) "
        "с {square} могла бы пойти на: {moves}."
    ),
    # --- resign / draw / abort / takeback / impasse --------------------------------------
    "resign.confirm": (
        "Точно сдаться в партии #{game} против {opponent}? Нажмите «Сдаться» или напишите "
        "/resign yes."
    ),
    "resign.bad_arg": "Напишите /resign, затем /resign yes для подтверждения.",
    "resign.done": "{name} сдаётся.",
    "button.resign": "Сдаться",
    "draw.offered": "{name} предлагает ничью в партии #{game}. {opponent}: принять или отклонить?",
    "draw.already": "Вы уже предложили ничью; дождитесь ответа {opponent}.",
    "draw.none_to_answer": "От {opponent} нет предложения ничьей, на которое можно ответить.",
    "draw.declined": "{name} отклонил(а) ничью в партии #{game}. Игра продолжается.",
    "draw.agreed": "{name} соглашается на ничью.",
    "draw.bad_arg": (
        "Пишите /draw (предложить), /draw accept или /draw decline; {word!r} — ни то, ни другое."
    ),
    "button.draw_accept": "Принять ничью",
    "button.draw_decline": "Отклонить ничью",
    "abort.too_late": (
        "Партию #{game} уже нельзя отменить: оба игрока сделали ход. Сдайтесь или предложите ничью."
    ),
    "abort.done": "{name} отменил(а) партию #{game}.",
    "takeback.nothing": "В партии #{game} у вас нет хода, который можно вернуть.",
    "takeback.asked": "{name} просит вернуть ход ({moves}) в партии #{game}. {opponent}: согласны?",
    "takeback.already": "Вы уже попросили; дождитесь ответа {opponent}.",
    "takeback.none_to_answer": "От {opponent} нет просьбы вернуть ход, на которую можно ответить.",
    "takeback.declined": "{name} не разрешил(а) вернуть ход в партии #{game}.",
    "takeback.done": "{name} соглашается: отменено {moves}.",
    "takeback.bad_arg": (
        "Пишите /takeback (попросить), /takeback accept или /takeback decline; "
        "{word!r} — ни то, ни другое."
    ),
    "button.takeback_accept": "Разрешить вернуть ход",
    "button.takeback_decline": "Отказать",
    "impasse.not_your_turn": "Дзисёги объявляют в свой ход; сейчас ходит {name}.",
    "impasse.none": "В варианте {variant} нет правила дзисёги.",
    "impasse.refused": "Объявление дзисёги отклонено: {reasons}.",
    "impasse.unmet.king_in_zone": "ваш король не в зоне превращения",
    "impasse.unmet.pieces_in_zone": (
        "других ваших фигур в зоне: {pieces}, а нужно не меньше {pieces_needed}"
    ),
    "impasse.unmet.not_in_check": "вам шах",
    "impasse.unmet.points": "у вас {points}, а нужно {needed}",
    "impasse.done": "{name} объявил(а) дзисёги, набрав {points}.",
    # --- games --------------------------------------------------------------------------
    "games.none": "У вас нет текущих партий. Начните командой /challenge.",
    "games.title": "Ваши текущие партии:",
    "games.line": "#{game} против {opponent} · {variant} · ход {n} · {turn}{deadline} · {where}",
    "games.your_turn": "ваш ход",
    "games.their_turn": "ходит {name}",
    "games.here": "этот чат",
    "games.elsewhere": "чат {chat}",
    # --- export -------------------------------------------------------------------------
    "export.event": "Партия Komabot #{game}",  # the record's event (棋戦) field
    "export.bad_format": "{fmt!r} — не формат экспорта; используйте один из: {formats}.",
    "export.none": "У вас нет партии в этом чате для экспорта; укажите номер партии.",
    "export.done": "Партия #{game} в формате {fmt}.",
    "export.not_for_variant": (
        "Партии варианта {variant} нельзя записать в {fmt}; используйте один из: {formats}."
    ),
    "export.unavailable": "Экспорт в {fmt} недоступен: {problem}",
    "export.too_big": "Анимация партии #{game} слишком велика; попробуйте KIF или CSA.",
    "export.busy": (
        "Сейчас уже готовятся другие анимации; повторите /export gif {game} через минуту "
        "(записи вроде KIF — сразу)."
    ),
    "export.replaced": (
        "В Shift-JIS нет символов {chars}, поэтому в этом файле {fmt} вместо них стоит ?; "
        "/export kifu {game} (UTF-8) сохраняет их."
    ),
    # --- piece / cheatsheet -------------------------------------------------------------
    "piece.missing": "Какая фигура? Например, /piece ладья, /piece SP или /piece 飛.",
    "piece.not_found": "{problem} ({sheets} покажет все фигуры.)",
    "piece.caption": (
        "{name} ({kanji}, {romaji}) — {variant}. Ходы: {moves} (нотация Бетцы: {betza}).{promotes}"
    ),
    "piece.which": (
        "Под «{query}» подходят несколько фигур: {names}. Какая нужна? ({sheets} покажет все "
        "фигуры.)"
    ),
    "describe.step": "на одну клетку {directions}",
    "describe.slide": "на любое число клеток {directions}",
    "describe.range": "до {limit} клеток {directions}",
    "describe.jump": "прыгает на {n} клетки {directions} через любые фигуры",
    "describe.knight": "прыгает на {long} клетки {along} и на {short} {across}",
    "describe.knight_wide": "прыгает на {long} клетки {across} и на {short} {along}",
    "describe.repeat": "{move}, и так сколько угодно раз по прямой, пока клетки свободны",
    "describe.repeat_up_to": "{move}, и так до {limit} раз по прямой, пока клетки свободны",
    "describe.or": " или ",
    "describe.list": ", ",
    "describe.parts": "; ",
    "describe.dir.any": "в любом направлении",
    "describe.dir.forward": "вперёд",
    "describe.dir.backward": "назад",
    "describe.dir.sideways": "вбок",
    "describe.dir.left": "влево",
    "describe.dir.right": "вправо",
    "describe.dir.diagonal": "по диагонали",
    "describe.dir.diagonally_forward": "по диагонали вперёд",
    "describe.dir.diagonally_backward": "по диагонали назад",
    "describe.dir.forward_left": "по диагонали вперёд-влево",
    "describe.dir.forward_right": "по диагонали вперёд-вправо",
    "describe.dir.backward_left": "по диагонали назад-влево",
    "describe.dir.backward_right": "по диагонали назад-вправо",
    "describe.along.forward": "вперёд",
    "describe.along.backward": "назад",
    "describe.across.side": "вбок",
    "describe.across.left": "влево",
    "describe.across.right": "вправо",
    "describe.n.1": "одну",
    "describe.n.2": "две",
    "describe.n.3": "три",
    "describe.n.4": "четыре",
    "piece.promotes": " Переворачивается в фигуру «{name}».",
    "piece.promoted_from": " Перевёрнутая фигура «{name}».",
    "variant.unknown": "{word!r} — не вариант; используйте shogi, wa или wa-drops.",
    "cheatsheet.caption": "Все фигуры: {variant}.",
    "diagram.pieces_and_promotions": "фигуры и их переворот",
    "diagram.promoted": "перевёрнутая: {name}",
    "diagram.does_not_promote": "не переворачивается",
    "diagram.king": "король",
    "diagram.one_step": "на одну клетку",
    "diagram.jump": "прыжок через фигуры",
    "diagram.slide": "на любое число клеток",
    "diagram.slide_at_most": "до {n} клеток",
    # --- settings -----------------------------------------------------------------------
    "settings.show": (
        "Настройки этого чата:\n"
        "• language: {language} (en — английский, ru — русский, ja — японский, pl — польский)\n"
        "• notation: {notation} (western, japanese или usi)\n"
        "• style: {style} (kanji или international)\n"
        "• perspective: {perspective} (mover: внизу тот, чей ход; sente: всегда сэнтэ)\n"
        "• bare: {bare} (on: сообщение, состоящее только из хода, например 7g7f, делает его; "
        "каналы Discord с текстовыми командами)\n"
        "• threads: {threads} (on: у каждого вызова и его партии своя ветка; каналы Discord)\n"
        "Ваши, во всех чатах:\n"
        "• reminders: {reminders} (chat: в чате партии; dm: личное сообщение от бота)\n"
        "Изменить: /settings language en, /settings notation japanese, /settings bare on, "
        "/settings reminders dm..."
    ),
    "settings.changed": "Настройки изменены: {changes}.",
    "settings.bad_key": (
        "{word!r} — не настройка; настройки: language, notation, style, perspective, bare, "
        "threads и reminders."
    ),
    "settings.which_key": (
        "{word!r} может относиться к {keys}: сначала назовите настройку, например "
        "/settings threads {word}."
    ),
    "settings.not_admin": (
        "Менять настройки чата может только тот, кто управляет чатом; "
        "/settings reminders dm|chat вы можете выбрать где угодно."
    ),
    "settings.admin_unknown": (
        "Не удалось проверить, что вы администратор этой группы; попробуйте ещё раз чуть позже."
    ),
    "settings.bad_value": "{value!r} — не значение для {key}; выберите одно из: {choices}.",
    "settings.missing_value": "Укажите значение для {key}: одно из {choices}.",
    # --- clocks -------------------------------------------------------------------------
    "clock.reminder": (
        "⏰ {name}, ваш ход в партии #{game} против {opponent}: срок истекает через {left}."
    ),
    "clock.timeout": "У {name} истекло время.",
    # --- игра с ботом -------------------------------------------------------------------
    "bot.brand": "Komabot",
    "bot.name": "Komabot, уровень {level}",
    "bot.mention": "упоминание меня",
    "bot.started": (
        "{name} отвечает на каждый ход за несколько секунд и никогда не просрочит время; "
        "время на ход — только ваше."
    ),
    "bot.to_move": "{name} ({color}) думает…",
    "bot.thinking": ("{name} обдумывает ход в партии #{game}; ответ будет через несколько секунд."),
    "bot.no_draw": (
        "{name} отклоняет ничью в партии #{game}: он доигрывает каждую партию до конца. "
        "Играйте дальше или /resign."
    ),
    "bot.failed": (
        "{name} не смог сделать ход в партии #{game}: его движок дал сбой. Ничего не "
        "потеряно; он попробует снова через {delay} (и после перезапуска)."
    ),
    "bot.level_range": (
        "{word!r} — не уровень: выберите от {low} (слабейший) до {high} (сильнейший), "
        "например /play wa level 4."
    ),
    "bot.level_missing": (
        "После {word!r} укажите мой уровень — число от 1 до 8: /play wa level 4."
    ),
    "bot.level_for_bot": (
        "Уровень {level} — для партий со мной: /play level {level} или /challenge bot level "
        "{level}. Время на ход пишется как 1d, 3d или 7d."
    ),
    "play.bad_arg": (
        "Не понимаю {word!r} в /play. Пишите /play [shogi|wa|wa-drops] [level 1-8] "
        "[random|sente|gote] [1d|3d|7d|none], например /play wa level 4 sente."
    ),
    "play.person": (
        "/play — это партия со мной; чтобы сыграть с {name}, напишите /challenge и упомяните его."
    ),
    "button.play_bot": "Сыграть с ботом",
    "help.play_bot": "Сыграйте со мной: /play [вариант] [level 1-8] или кнопка ниже.",
    # --- front ends ---------------------------------------------------------------------
    "button.not_yours": "Эта кнопка для другого игрока.",
    "console.only_you": "(это видите только вы)",
    "console.image": "изображение: {path}",
    "console.file": "файл: {path}",
    "console.banner": (
        "Консоль Komabot: вы можете говорить за любого пользователя.\n"
        "  @alice /challenge @bob wa     от имени alice (любое имя) вызвать bob на ва-сёги\n"
        "  @bob /accept                  bob принимает;  @alice /move 8h8g  ход alice\n"
        "  /play wa level 4              сыграть с ботом (или /challenge @komabot wa level 4)\n"
        "  /as bob                       дальше говорить от имени bob (сейчас: {user})\n"
        "  /chat ИМЯ                     перейти в другой чат (сейчас: {chat})\n"
        "  /help                         команды бота;  /quit или Ctrl-D — выход\n"
        "Кнопки выводятся как [надпись: /команда]; чтобы нажать, введите команду.\n"
        "Изображения и файлы сохраняются в {out}"
    ),
    "console.say_something": "(напишите что-нибудь от имени {user}, например @{user} /board)",
    "console.not_a_command": "(это не команда: {line}; команды начинаются с /, например /help)",
    "console.write_as": "(напишите /as ИМЯ)",
    "console.write_chat": "(напишите /chat ИМЯ)",
    "console.you_are": "(теперь вы — {user})",
    "console.in_chat": "(теперь вы в чате {chat})",
    "console.to_chat": "[бот в чате {chat}]",
    "console.to_user": "[бот лично @{user}]",
    "console.updates": "[бот обновляет {card} в чате {chat}]",
    "discord.activity": "/shogi help",
    "discord.group": "Сёги и ва-сёги по переписке",
    "slash.command.challenge": "вызвать",
    "slash.command.play": "играть",
    "slash.command.accept": "принять",
    "slash.command.decline": "отклонить",
    "slash.command.cancel": "отозвать",
    "slash.command.move": "ход",
    "slash.command.board": "доска",
    "slash.command.moves": "ходы",
    "slash.command.resign": "сдаться",
    "slash.command.draw": "ничья",
    "slash.command.abort": "отменить",
    "slash.command.takeback": "вернуть-ход",
    "slash.command.impasse": "дзисёги",
    "slash.command.games": "партии",
    "slash.command.rating": "рейтинг",
    "slash.command.leaderboard": "лидеры",
    "slash.command.history": "история",
    "slash.command.export": "экспорт",
    "slash.command.piece": "фигура",
    "slash.command.cheatsheet": "шпаргалка",
    "slash.command.settings": "настройки",
    "slash.command.help": "помощь",
    "slash.option.opponent": "соперник",
    "slash.option.variant": "вариант",
    "slash.option.color": "сторона",
    "slash.option.time": "время",
    "slash.option.rating": "рейтинг",
    "slash.option.level": "уровень",
    "slash.option.challenge": "вызов",
    "slash.option.move": "ход",
    "slash.option.game": "партия",
    "slash.option.square": "поле",
    "slash.option.answer": "ответ",
    "slash.option.user": "игрок",
    "slash.option.page": "страница",
    "slash.option.format": "формат",
    "slash.option.name": "название",
    "slash.option.language": "язык",
    "slash.option.notation": "нотация",
    "slash.option.style": "стиль",
    "slash.option.perspective": "ракурс",
    "slash.option.bare": "ходы-без-команды",
    "slash.option.threads": "ветки",
    "slash.option.reminders": "напоминания",
    "slash.option.command": "команда",
    "discord.bad_option": "Не удалось прочитать параметр {option!r}: {problem}",
    "discord.too_big": "({files}: не отправлено, больше допустимых в этом чате {limit}.)",
    "discord.intent_missing": (
        "Discord отказал в Message Content intent: включите его на портале разработчика "
        "(ваше приложение, Bot, Privileged Gateway Intents) или задайте "
        "DISCORD_MESSAGE_CONTENT=0."
    ),
    "challenge.thread_name": "Сёги: вызов от {name}",
    "discord.thread_opened": "Вызов опубликован в {thread}; партия будет идти там.",
    # --- Telegram: the bot's profile (setMyDescription, setMyShortDescription) ---------------
    "telegram.description": (
        "Я Komabot: играйте в сёги и ва-сёги по переписке, здесь или в своих группах. Вызовите "
        "соперника командой /challenge или сыграйте со мной через /play; ходы пишутся как 7g7f, "
        "P-7f или ７六歩, после каждого хода приходит доска. /piece и /cheatsheet показывают, как "
        "ходят фигуры; /help — все команды."
    ),
    "telegram.short_description": (
        "Сёги и ва-сёги по переписке: вызовы, изображения доски, рейтинги."
    ),
    # --- slash-command options and the names of their choices (Discord) ------------------
    "arg.game": "номер партии, если их у вас несколько или вы смотрите чужую",
    "arg.challenge.opponent": "кого вызвать (можно и меня); не указывайте для открытого вызова",
    "arg.challenge.variant": "сёги, ва-сёги (без сбросов) или ва-сёги со сбросами",
    "arg.challenge.color": "ваша сторона: случайно, сэнтэ (ходит первым) или готэ",
    "arg.challenge.time": "время на ход",
    "arg.challenge.rating": "рейтинговая (по умолчанию) или товарищеская",
    "arg.challenge.level": "если вызываете меня: моя сила, от 1 до 8",
    "arg.play.level": "моя сила: от 1 (слабейший) до 8 (сильнейший)",
    "arg.play.time": "ваше время на ход",
    "arg.challenge": "номер вызова",
    "arg.move.move": "ход: 7g7f, P-7f, ７六歩, SP-6h...",
    "arg.moves.square": "поле фигуры, например 7g",
    "arg.draw.answer": "предложить, принять или отклонить",
    "arg.takeback.answer": "попросить, принять или отклонить",
    "arg.rating.user": "чей рейтинг (если не указать — ваш)",
    "arg.rating.variant": "только этот вариант",
    "arg.leaderboard.variant": "какой вариант (по умолчанию — последний сыгранный здесь)",
    "arg.leaderboard.page": "номер страницы (по десять игроков)",
    "arg.history.user": "чьи партии (если не указать — ваши)",
    "arg.history.page": "номер страницы (по десять партий)",
    "arg.export.format": "формат файла",
    "arg.piece.name": "название, код или иероглиф фигуры: ладья, SP, 飛, воробей",
    "arg.piece.variant": "где искать",
    "arg.cheatsheet.variant": "какой вариант",
    "arg.settings.language": "язык бота в этом чате",
    "arg.settings.notation": "как записываются ходы",
    "arg.settings.style": "как выглядят фигуры",
    "arg.settings.perspective": "доска со стороны того, чей ход, или всегда сэнтэ",
    "arg.settings.bare": "сообщение, состоящее только из хода, делает его",
    "arg.settings.threads": "отдельная ветка для каждой партии в этом канале",
    "arg.settings.reminders": "ваши напоминания: в чате партии или в личных сообщениях",
    "arg.help.command": "название команды",
    "choice.variant.shogi": "сёги",
    "choice.variant.wa": "ва-сёги (без сбросов)",
    "choice.variant.wa-drops": "ва-сёги со сбросами",
    "choice.color.random": "случайно",
    "choice.color.sente": "сэнтэ (ходит первым)",
    "choice.color.gote": "готэ",
    "choice.time.1d": "1 день на ход",
    "choice.time.3d": "3 дня на ход",
    "choice.time.7d": "7 дней на ход",
    "choice.time.none": "без ограничения времени",
    "choice.rating.rated": "рейтинговая",
    "choice.rating.casual": "товарищеская",
    "choice.answer.offer": "предложить",
    "choice.answer.ask": "попросить",
    "choice.answer.accept": "принять",
    "choice.answer.decline": "отклонить",
    "choice.language.en": "английский",
    "choice.language.ru": "русский",
    "choice.language.ja": "японский",
    "choice.language.pl": "польский",
    "choice.notation.western": "западная (P-7f)",
    "choice.notation.japanese": "японская (７六歩)",
    "choice.notation.usi": "USI (7g7f)",
    "choice.style.kanji": "иероглифы",
    "choice.style.international": "международный (западные значки)",
    "choice.perspective.mover": "внизу тот, чей ход",
    "choice.perspective.sente": "внизу всегда сэнтэ",
    "choice.bare.on": "включено",
    "choice.bare.off": "выключено",
    "choice.threads.on": "включено",
    "choice.threads.off": "выключено",
    "choice.reminders.chat": "в чате партии",
    "choice.reminders.dm": "личное сообщение",
    # --- help ---------------------------------------------------------------------------
    "help.title": "Komabot играет в сёги и ва-сёги по переписке. Команды:",
    "help.footer": "Подробнее: /help КОМАНДА. Ходы можно писать как 7g7f, P-7f или ７六歩.",
    # the placeholders of a command's syntax in /help (the words a player types stay)
    "syntax.user": "игрок",
    "syntax.challenge": "вызов",
    "syntax.game": "партия",
    "syntax.page": "страница",
    "syntax.command": "команда",
    "syntax.move": "ХОД",
    "syntax.square": "ПОЛЕ",
    "syntax.name": "НАЗВАНИЕ",
    "help.command": "/{name} {syntax}\n{summary}\nПример: {example}{aliases}",
    "help.aliases": "\nТакже: {aliases}",
    "help.unknown": "Команды {word!r} нет. /help покажет все.",
    "help.move_extra": (
        "\nНотации: USI (7g7f, P*5e, 8h2b+), западная (P-7f, Bx2b+, S*5e, SP-6h) или "
        "японская (７六歩, 同　歩, ２二角成)."
    ),
}


# Counted messages, one template per CLDR plural category of Russian (1, 21: one; 2-4, 22:
# few; 5-20, 25: many; fractions: other).  Durations are in the accusative ("1 минуту"): they
# follow "через" (in) and "на" (per move).
RU_PLURAL: dict[str, dict[str, str]] = {
    "unit.d": {"one": "{n} день", "few": "{n} дня", "many": "{n} дней", "other": "{n} дня"},
    "unit.h": {"one": "{n} час", "few": "{n} часа", "many": "{n} часов", "other": "{n} часа"},
    "unit.m": {
        "one": "{n} минуту",
        "few": "{n} минуты",
        "many": "{n} минут",
        "other": "{n} минуты",
    },
    "rating.streak.wins": {
        "one": "{n} победа подряд",
        "few": "{n} победы подряд",
        "many": "{n} побед подряд",
        "other": "{n} победы подряд",
    },
    "rating.streak.losses": {
        "one": "{n} поражение подряд",
        "few": "{n} поражения подряд",
        "many": "{n} поражений подряд",
        "other": "{n} поражения подряд",
    },
    "rating.streak.draws": {
        "one": "{n} ничья подряд",
        "few": "{n} ничьи подряд",
        "many": "{n} ничьих подряд",
        "other": "{n} ничьи подряд",
    },
    "impasse.points": {
        "one": "{n} очко",
        "few": "{n} очка",
        "many": "{n} очков",
        "other": "{n} очка",
    },
}
