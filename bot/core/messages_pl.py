"""Polish message catalogue: the same keys and placeholders as ``messages.EN``.

Shogi terms as Polish players use them: bierka, zrzut (a drop), promocja, strefa promocji,
szach, mat, sente and gote; the Japanese names of rules (nifu, uchifuzume, sennichite,
jishōgi) stay beside the Polish words.  The player is addressed informally (ty), as Polish
game sites do; past tenses are avoided where they would need the player's gender.
"""

from __future__ import annotations

PL: dict[str, str] = {
    # --- command summaries (help, slash-command descriptions) ----------------------------
    "cmd.challenge": "Wyzwij kogoś (lub kogokolwiek) na partię",
    "cmd.play": "Zagraj partię ze mną, Komabotem (poziomy od 1 do 8)",
    "cmd.accept": "Przyjmij wyzwanie",
    "cmd.decline": "Odrzuć skierowane do ciebie wyzwanie",
    "cmd.cancel": "Wycofaj swoje wyzwanie",
    "cmd.move": "Wykonaj ruch w swojej partii",
    "cmd.board": "Pokaż planszę",
    "cmd.moves": "Pokaż, dokąd może ruszyć bierka z danego pola",
    "cmd.resign": "Poddaj partię (z potwierdzeniem)",
    "cmd.draw": "Zaproponuj, przyjmij lub odrzuć remis",
    "cmd.abort": "Anuluj partię, zanim obie strony wykonają ruch",
    "cmd.takeback": "Poproś o cofnięcie ostatniego ruchu (przeciwnik musi się zgodzić)",
    "cmd.impasse": "Zadeklaruj impas (jishōgi, zasada 27 punktów, tylko shogi)",
    "cmd.games": "Twoje trwające partie",
    "cmd.export": "Pobierz zapis partii (KIF, KIFU, CSA, USI) lub animację GIF",
    "cmd.rating": "Pokaż ranking (twój lub innego gracza) w tym czacie i ogólny",
    "cmd.leaderboard": "Najlepsze rankingi tego serwera lub grupy i twoje miejsce",
    "cmd.history": "Ostatnie partie gracza tutaj wraz ze zmianami rankingu",
    "cmd.piece": "Pokaż, jak porusza się bierka",
    "cmd.cheatsheet": "Pokaż wszystkie bierki wariantu",
    "cmd.settings": "Pokaż lub zmień ustawienia czatu i miejsce przypomnień",
    "cmd.help": "Lista poleceń lub opis jednego z nich",
    "cmd.complete": "Podpowiedz wartości niedokończonego argumentu (dla aplikacji)",
    # --- general ------------------------------------------------------------------------
    "error.internal": (
        "Coś poszło nie tak po mojej stronie przy obsłudze /{command}. "
        "/board pokaże stan partii; spróbuj ponownie."
    ),
    "error.unknown_command": "Nie znam polecenia /{command}. {hint}",
    "error.unknown_command.hint_similar": (
        "Czy chodziło ci o {options}? /help pokaże wszystkie polecenia."
    ),
    "error.unknown_command.hint": "/help pokaże wszystkie polecenia.",
    "error.shutting_down": "Uruchamiam się ponownie; wyślij to jeszcze raz za minutę.",
    "error.read_only": (
        "Nie mogę teraz niczego zapisać: moja baza danych jest tylko do odczytu, więc nic nie "
        "zostało zmienione. /board, /games i /help nadal działają; daj znać osobie, która mnie "
        "uruchamia."
    ),
    "error.disk_full": (
        "Nie mogę tego zapisać: dysk z moją bazą danych jest pełny, więc nic nie zostało "
        "zmienione. /board, /games i /help nadal działają; daj znać osobie, która mnie "
        "uruchamia."
    ),
    "list.more": "… i jeszcze {count}",
    "error.conflict": (
        "Nie wykonano: partia #{game} zmieniła się w tej samej chwili ({reason}). Oto obecna "
        "plansza; spróbuj ponownie, jeśli to nadal ma sens."
    ),
    "conflict.reason": "{first}; {lost}",
    "conflict.first.moved": "{name} wykonał(a) ruch pierwszy(-a)",
    "conflict.first.took_back": "wcześniej cofnięto ruch",
    "conflict.first.offer": (
        "wcześniej nadeszła propozycja remisu lub cofnięcia ruchu (albo odpowiedź na nią)"
    ),
    "conflict.first.resigned": "{name} wcześniej poddał(a) partię",
    "conflict.first.timeout": "{name}: wcześniej skończył się czas",
    "conflict.first.drawn": "wcześniej uzgodniono remis",
    "conflict.first.aborted": "partię wcześniej anulowano",
    "conflict.first.impasse": "wcześniej zgłoszono impas (jishōgi)",
    "conflict.lost.move": "twój ruch nie został wykonany",
    "conflict.lost.other": "polecenie /{command} nie zostało wykonane",
    "conflict.other": (
        "Nie wykonano: w tej samej chwili coś się zmieniło. Spróbuj ponownie, jeśli to "
        "nadal ma sens."
    ),
    "error.record_damaged": (
        "Zapis partii #{game} jest uszkodzony (ruch {ply}: {problem}); nie można jej "
        "kontynuować. Zgłoś to, proszę."
    ),
    "color.sente": "sente",
    "color.gote": "gote",
    "color.random": "kolory losowe",
    "time.none": "bez limitu czasu",
    "time.per_move": "{time} na ruch",
    "time.in": "za {delta}",
    "time.deadline": "termin {when} ({relative})",
    "unit.less_than_minute": "mniej niż minutę",
    # --- picking a game / challenge -----------------------------------------------------
    "game.none_here": (
        "Nie masz trwającej partii w tym czacie. Zacznij ją poleceniem /challenge albo podaj "
        "numer partii."
    ),
    "game.none_in_chat": "W tym czacie nie trwa żadna partia. Zacznij ją poleceniem /challenge.",
    "game.several_in_chat": "Trwa tu kilka partii; wskaż jedną:\n{games}",
    "game.several_of_yours": (
        "Masz kilka trwających partii; dodaj numer partii (np. 7g7f 12):\n{games}"
    ),
    "game.not_found": "Nie ma partii #{game}.",
    "game.other_chat": "Partia #{game} toczy się w innym czacie; zapytaj tam.",
    "game.not_player": (
        "Partię #{game} grają tylko {sente} i {gote}; możesz ją oglądać przez /board {game}."
    ),
    "game.finished": "Partia #{game} jest zakończona ({result}).",
    "game.bad_number": "{text!r} to nie numer partii (np. 12 lub #12).",
    "game.line": "#{game} {sente} – {gote} · {variant} · {turn}",
    "game.turn": "ruch: {name}",
    "challenge.not_found": "Nie ma wyzwania #{challenge}.",
    "challenge.other_chat": ("Wyzwanie #{challenge} rzucono w innym czacie; odpowiedz na nie tam."),
    "challenge.bad_number": "{text!r} to nie numer wyzwania (np. 12 lub #12).",
    "challenge.none_for_you": "Żadne wyzwanie tutaj nie czeka na ciebie.",
    "challenge.several": "Jest tu kilka otwartych wyzwań; wskaż jedno:\n{challenges}",
    "challenge.line": "#{challenge} {challenger} → {challenged} · {variant} · {time}",
    "challenge.anyone": "ktokolwiek",
    # --- challenge ----------------------------------------------------------------------
    "challenge.bad_arg": (
        "Nie rozumiem {word!r} w wyzwaniu. Napisz /challenge [@gracz] "
        "[shogi|wa|wa-drops] [random|sente|gote] [1d|3d|7d|none] [rated|casual]; "
        "aby zagrać ze mną: /challenge bot z poziomem od 1 do 8 (albo /play)."
    ),
    "challenge.twice": "{word!r} i {other!r} określają to samo ({what}); wybierz jedno.",
    "challenge.what.variant": "wariant",
    "challenge.what.color": "kolor",
    "challenge.what.time": "czas na ruch",
    "challenge.what.opponent": "przeciwnik",
    "challenge.what.level": "poziom",
    "challenge.what.rated": "partia rankingowa czy towarzyska",
    "challenge.casual": "towarzyska (bez rankingu)",
    "bot.unrated": "Partie ze mną nigdy nie są rankingowe: pomiń „rated”.",
    "challenge.time_range": (
        "Czas na ruch musi mieścić się w przedziale {low} – {high} (lub none); {time} się nie "
        "mieści."
    ),
    "challenge.unknown_user": (
        "Nie znam jeszcze {name} na tej platformie: ta osoba musi najpierw wysłać mi dowolne "
        "polecenie (np. /help) albo odpowiedz na jej wiadomość poleceniem /challenge."
    ),
    "challenge.ambiguous_user": (
        "Znam kilka osób o nazwie {name}: {people}. Każdy może przyjąć dowolną nazwę, więc "
        "oznacz tę właściwą: wybierz ją z listy, którą aplikacja pokazuje po wpisaniu @ (albo "
        "w opcji przeciwnika polecenia), lub odpowiedz na jej wiadomość poleceniem /challenge."
    ),
    "challenge.number_name": (
        "Nie traktuję {name} jako osoby: liczba może być czyjąkolwiek nazwą. Oznacz tę osobę: "
        "wybierz ją z listy, którą aplikacja pokazuje po wpisaniu @ (albo w opcji przeciwnika "
        "polecenia), lub odpowiedz na jej wiadomość poleceniem /challenge."
    ),
    "challenge.by_name": (
        "Wyzywam {who} – jedyną znaną mi osobę o nazwie {name}. Chodzi o kogoś innego? "
        "/cancel {challenge} i oznacz tę osobę."
    ),
    "challenge.self": (
        "Nie możesz wyzwać samego siebie; aby rzucić otwarte wyzwanie, pomiń nazwę."
    ),
    "challenge.you_busy": (
        "Masz już partię #{game} w tym czacie; najpierw ją dokończ (jedna partia na gracza "
        "w czacie)."
    ),
    "challenge.they_busy": "{name} ma już partię #{game} w tym czacie; wyzwij tę osobę później.",
    "challenge.already_open": (
        "Masz już tutaj otwarte wyzwanie #{challenge}; najpierw je wycofaj: /cancel {challenge}."
    ),
    "challenge.card": (
        "⚔️ Wyzwanie #{challenge}: {challenger} wyzywa {challenged} na partię: {variant}.\n"
        "{challenger} gra kolorem {color} · {time} · ważne do {expires}.\n"
        "{challenged}: /accept {challenge} lub /decline {challenge}"
    ),
    "challenge.card_open": (
        "⚔️ Otwarte wyzwanie #{challenge}: {challenger} chce zagrać z kimkolwiek: {variant}.\n"
        "{challenger} gra kolorem {color} · {time} · ważne do {expires}.\n"
        "Ktokolwiek: /accept {challenge}"
    ),
    "challenge.closed.accepted": ("{name} przyjmuje wyzwanie #{challenge}: partia #{game}."),
    "challenge.closed.declined": "{name} odrzuca wyzwanie #{challenge}.",
    "challenge.closed.cancelled": "{name} wycofuje wyzwanie #{challenge}.",
    "challenge.closed.expired": "Wyzwanie #{challenge} wygasło: nikt nie przyjął go na czas.",
    "challenge.not_open": "Wyzwanie #{challenge} nie jest już otwarte ({status}).",
    "challenge.status.accepted": "przyjęte",
    "challenge.status.declined": "odrzucone",
    "challenge.status.cancelled": "wycofane",
    "challenge.status.expired": "wygasłe",
    "challenge.status.open": "otwarte",
    "challenge.not_for_you": "Wyzwanie #{challenge} jest skierowane do {name}, nie do ciebie.",
    "challenge.own": "To twoje własne wyzwanie; wycofasz je przez /cancel {challenge}.",
    "challenge.decline_open": "Otwartego wyzwania nie trzeba odrzucać; po prostu je zostaw.",
    "challenge.cancel_not_yours": "Wyzwanie #{challenge} może wycofać tylko {name}.",
    "challenge.accepter_busy": (
        "Masz już partię #{game} w tym czacie; dokończ ją, zanim przyjmiesz kolejną."
    ),
    "challenge.challenger_busy": (
        "{name} zaczyna tu w międzyczasie partię #{game}; spróbuj później."
    ),
    "button.accept": "Przyjmij",
    "button.decline": "Odrzuć",
    "button.cancel": "Wycofaj",
    # --- game start / moves -------------------------------------------------------------
    "game.started": (
        "🎌 Początek partii #{game}: {sente} (sente ☗) – {gote} (gote ☖), {variant}, {time}."
    ),
    "move.played": "{mover}: ruch {move}.",
    "move.check": "Szach!",
    "move.next": "Ruch: {name} ({color}).",
    "move.next_deadline": "Ruch: {name} ({color}) – {deadline}.",
    "move.missing": "Jaki ruch? Na przykład /move {example}.",
    "move.not_your_turn": "W partii #{game} ruch ma {name}, nie ty.",
    "move.malformed": "{problem}",
    "move.illegal": "Ruch niewykonany: {problem}",
    "move.ambiguous": "{text!r} pasuje do kilku ruchów; wybierz jeden:",
    "move.promotion_choice": "{text!r}: z promocją czy bez? Wybierz:",
    "move.example.shogi": "7g7f lub P-7f",
    "move.example.wa": "8h8g lub SP-8g",
    "offer.draw_pending": "{name} proponuje remis: /draw accept lub /draw decline.",
    "offer.takeback_pending": (
        "{name} prosi o cofnięcie ruchu: /takeback accept lub /takeback decline."
    ),
    # --- results ------------------------------------------------------------------------
    "result.checkmate": "mat",
    "result.no_legal_moves": "brak ruchów (żaden legalny ruch nie został)",
    "result.repetition": "czterokrotne powtórzenie pozycji (sennichite)",
    "result.perpetual_check": "wieczny szach (sennichite)",
    "result.impasse": "deklaracja impasu (jishōgi)",
    "result.resignation": "poddanie",
    "result.timeout": "przekroczenie czasu",
    "result.agreed_draw": "porozumienie",
    "result.aborted": "anulowanie",
    "result.illegal_move": "nieprawidłowy ruch przeciwnika",
    "result.wins": "wygrywa {winner}: {reason}",
    "result.draw": "remis: {reason}",
    "result.aborted_line": "anulowana",
    "game.over": "🏁 Partia #{game} zakończona: {result}.",
    "game.over.export": "Pobierz zapis:",
    "rating.changes": "📈 Rankingi: {changes}.",
    "rating.change": "{name} {before} → {after} ({delta})",
    "rating.bad_arg": (
        "Napisz /rating [@gracz] [shogi|wa|wa-drops]; {word!r} nie jest żadnym z nich."
    ),
    "rating.no_games": "{name} nie ma jeszcze partii rankingowych.",
    "rating.title": "📊 Rankingi: {name} (? – tymczasowy)",
    "rating.variant": "{variant}:",
    "rating.line": (
        "  {where}: {rating} ±{deviation} · partie: {games} ({wins} W / {losses} P / {draws} R)"
    ),
    "rating.none_here": "  {where}: brak partii rankingowych",
    "rating.where.here": "ten czat",
    "rating.where.overall": "ogółem",
    "rating.where.server": "ten serwer",
    "rating.best_win": "    najlepsze zwycięstwo: {rating} ({name}, partia #{game})",
    "rating.streak": "    obecna seria: {streak}",
    "page.range": "Nie mogę pokazać strony {page!r}: strony mają numery od 1 do {most}.",
    "page.missing": "Nie ma strony {page}: liczba stron: {pages}.",
    "button.page_back": "◀ Strona {page}",
    "button.page_next": "Strona {page} ▶",
    "leaderboard.bad_arg": (
        "Napisz /leaderboard [shogi|wa|wa-drops] [strona]; {word!r} nie jest ani wariantem, "
        "ani numerem strony."
    ),
    "leaderboard.title": "Ranking graczy: {variant}, {where} (strona {page} z {pages})",
    "leaderboard.line": "{place}. {name} {rating} ±{deviation} · partie: {games}",
    "leaderboard.head.player": "Gracz",
    "leaderboard.head.rating": "Ranking",
    "leaderboard.head.games": "Partie",
    "leaderboard.empty": (
        "Nikt tu jeszcze nie ma ustalonego rankingu ({variant}): ranking trafia do tabeli, gdy "
        "przestaje być tymczasowy (mniej więcej po pięciu partiach rankingowych)."
    ),
    "leaderboard.you": "Twoje miejsce: {place} z {total} ({rating}).",
    "leaderboard.you_provisional": (
        "Twój ranking {rating} jest jeszcze tymczasowy (±{deviation}): trafi do tabeli poniżej "
        "±{threshold}."
    ),
    "leaderboard.you_none": "Nie masz tu jeszcze partii rankingowych w tym wariancie.",
    "history.bad_arg": "Napisz /history [@gracz] [strona]; {word!r} nie jest żadnym z nich.",
    "history.none": "{name} nie ma jeszcze zakończonych partii ({where}).",
    "history.title": "📜 Partie gracza {name} ({where}), od najnowszych (strona {page} z {pages}):",
    "history.line": "#{game} · {opponent} · {variant} · {result} · {rating}",
    "history.won": "wygrana: {reason}",
    "history.lost": "przegrana: {reason}",
    "history.drawn": "remis: {reason}",
    "history.aborted": "anulowana",
    "history.change": "{before} → {after} ({delta})",
    "history.unrated": "bez rankingu",
    "history.export": "Pobierz zapis: /export NUMER.",
    # --- why a move is illegal (rules error codes) ---------------------------------------
    "rules.no_piece": "na polu {square} nie ma bierki",
    "rules.not_your_piece": "bierka „{piece}” na polu {square} należy do przeciwnika",
    "rules.own_piece_on_target": "na polu {square} stoi twoja własna bierka „{piece}”",
    "rules.bad_pattern": "bierka „{piece}” nie może przejść z {origin} na {square}",
    "rules.path_blocked": (
        "bierka „{piece}” z {origin} nie dojdzie na {square}: drogę zagradza bierka "
        "„{blocker_piece}” ({blocker_side}) na polu {blocker}"
    ),
    "rules.cannot_promote.never_promotes": "bierka „{piece}” nie podlega promocji",
    "rules.promotion_outside_zone": (
        "promocja jest możliwa tylko w ruchu, który zaczyna się lub kończy w strefie promocji "
        "(ostatnie rzędy: {depth}); ruch {origin}-{square} taki nie jest"
    ),
    "rules.must_promote": (
        "bierka „{piece}” na polu {square} nie mogłaby się już nigdy ruszyć, więc musi przejść "
        "promocję (dodaj +)"
    ),
    "rules.not_in_hand": "nie masz w ręce bierki „{piece}”",
    "rules.dead_drop": (
        "bierka „{piece}” zrzucona na {square} nie mogłaby się nigdy ruszyć, więc nie wolno jej "
        "tam zrzucić"
    ),
    "rules.nifu": (
        "na tej kolumnie masz już niepromowaną bierkę „{piece}” (na {other}): dwie na jednej "
        "kolumnie są zabronione (nifu)"
    ),
    "rules.uchifuzume": "matowanie zrzutem bierki „{piece}” jest zabronione (uchifuzume)",
    "rules.leaves_king_in_check": (
        "po tym ruchu twój król na {king} byłby szachowany z {attackers}"
    ),
    "rules.still_in_check": (
        "jesteś w szachu, a po tym ruchu twój król na {king} nadal byłby atakowany z {attackers}"
    ),
    "rules.foreign_piece": (
        "{written} to bierka innego wariantu, nie tej partii; tutaj tak samo porusza się "
        "{pieces}: może chodziło ci o {example}?"
    ),
    "rules.foreign_piece_unmatched": (
        "{written} to bierka innego wariantu, nie tej partii, i żadna bierka tutaj nie porusza "
        "się tak samo; bierki tej partii: {pieces}"
    ),
    "rules.no_drops": "{variant} nie ma zrzutów: zbite bierki odpadają z gry",
    "rules.not_droppable": "bierki „{piece}” nie wolno zrzucać",
    "rules.square_occupied": "pole {square} jest zajęte przez bierkę „{piece}” ({side})",
    "rules.cannot_promote.already_promoted": "bierka „{piece}” jest już promowana",
    "rules.illegal_move": "ten ruch jest tu niedozwolony",
    "rules.drop_cannot_promote": (
        "{text!r}: bierka zrzucona z ręki nie przechodzi promocji przy zrzucie; napisz {suggestion}"
    ),
    "rules.no_matching_move": (
        "{text!r} nie pasuje do żadnego dozwolonego ruchu; może chodziło ci o {texts}?"
    ),
    "rules.not_droppable.kind_not_droppable": (
        "{text!r}: bierki „{kinds}” nie wolno zrzucać (z ręki zrzuca się tylko bierki niepromowane)"
    ),
    "rules.no_piece_reaches": "żadna twoja bierka nie może przejść na {square}",
    "rules.piece_cannot_reach.one": ("bierką „{kinds}” z {origins} nie da się przejść na {square}"),
    "rules.piece_cannot_reach.many": (
        "żadna z twoich bierek „{kinds}” (razem: {count}) nie może przejść na {square}"
    ),
    "rules.no_such_piece.on_board": "nie masz bierki „{kinds}”",
    "rules.no_such_piece.with_drops": "nie masz bierki „{kinds}” ani na planszy, ani w ręce",
    "rules.malformed_move.unreadable_move": "nie potrafię odczytać {text!r} jako ruchu",
    "rules.malformed_move.plus_without_piece": (
        "nie potrafię odczytać {text!r} jako ruchu: po + przed bierką potrzebna jest jej litera, "
        "np. +R-3c"
    ),
    "rules.malformed_move.drop_with_origin": (
        "nie potrafię odczytać {text!r} jako ruchu: zrzut nie ma pola wyjścia, pisz np. S*5e"
    ),
    "rules.malformed_move.drop_without_piece": (
        "nie potrafię odczytać {text!r} jako ruchu: zrzut wymaga bierki, pisz np. P*5e"
    ),
    "rules.malformed_move.drop_promotes": (
        "nie potrafię odczytać {text!r} jako ruchu: zrzucona bierka nie przechodzi promocji "
        "przy zrzucie, usuń + lub ="
    ),
    "rules.all_digit_square": (
        "{text!r}: na planszy {files}x{ranks} pole zapisuje się z literą rzędu (np. 11k lub 6h) "
        "albo z rzędem zapisanym japońską cyfrą, żeby liczby się nie zlewały; pola z samych "
        "cyfr są tylko na planszy 9x9"
    ),
    "rules.malformed_move.same_square": "{text!r}: pole wyjścia i pole docelowe są takie same",
    "rules.bad_square.no_such_square": (
        "{text!r}: {square} to nie pole planszy: kolumny 1–{files}, rzędy a–{last}"
    ),
    "rules.unknown_piece.unknown_piece_code": (
        "{text!r}: w wariancie {variant} nie ma bierki {token!r} (litery bierek: {letters}; "
        "kody: {codes}; bierka promowana ma z przodu +, np. +R)"
    ),
    "rules.malformed_move.japanese_after_piece": (
        "{text!r}: nie potrafię odczytać {rest!r} po bierce (oczekiwane 右 左 直 上 引 寄, "
        "potem 成, 不成 lub 打)"
    ),
    "rules.malformed_move.japanese_marks": (
        "{text!r}: najwyżej jeden znak z 右/左 i jeden z 上/引/寄/直"
    ),
    "rules.malformed_move.japanese_drop_origin": (
        "{text!r}: zrzut (打) nie ma pola wyjścia ani kierunku"
    ),
    "rules.unknown_piece.japanese_piece_expected": (
        "{text!r}: po polu następuje nazwa bierki ({sample}…)"
    ),
    "rules.bad_square.japanese_square_first": (
        "{text!r}: ruch w zapisie japońskim zaczyna się od pola (kolumna, potem rząd, np. ７六) "
        "albo od 同"
    ),
    "rules.bad_square.square_too_long": (
        "{text!r}: {run!r} to za dużo jak na pole (kolumna, potem rząd, np. ７六 lub １１十一)"
    ),
    "rules.bad_square.ambiguous_square": (
        "{text!r}: pole {run!r} można odczytać na kilka sposobów; zapisz kolumnę cyframi, a rząd "
        "kanji, np. １０三"
    ),
    "rules.bad_square.bad_origin": (
        "{text!r}: ({token}) nie może tu być polem wyjścia; pisz np. {form}"
    ),
    "rules.no_previous_move": (
        "{text!r}: 同 oznacza pole poprzedniego ruchu, a żadnego ruchu jeszcze nie było"
    ),
    "rules.malformed_move.bad_usi": (
        "{text!r} to nie ruch w zapisie USI: podaj pole wyjścia i pole docelowe, np. 7g7f, "
        "dodaj + dla promocji (8h2b+), a zrzut zapisz np. P*5e"
    ),
    "rules.malformed_move.bad_usi_drop": (
        "{text!r}: {token!r} to nie bierka, którą można zrzucić w wariancie {variant} (można: "
        "{letters})"
    ),
    "rules.empty_move": "nie podano ruchu",
    "rules.move_too_long": "to za długie jak na ruch (znaków: {length})",
    "rules.bad_square": (
        "{text!r} to nie pole planszy: podaj kolumnę 1–{width}, potem rząd a–{last}, np. {example}"
    ),
    "rules.examples": (
        ". Zapisz ruch np. tak: {usi} (USI), {western} (zapis zachodni) lub {japanese} "
        "(zapis japoński)"
    ),
    "rules.examples.drop": "; zrzut: {drop}",
    "rules.unknown_piece.piece_name_missing": "Podaj nazwę bierki, kanji, literę lub kod.",
    "rules.unknown_piece.close_names": (
        "Nie ma bierki o nazwie {query!r}. Może chodziło ci o: {candidates}?"
    ),
    "rules.unknown_piece.no_close_name": "Nie ma bierki o nazwie {query!r}.",
    # --- board / moves ------------------------------------------------------------------
    "board.sente": "Sente",
    "board.gote": "Gote",
    "board.move": "Ruch {n}",
    "board.to_move": "Ruch: {name}",
    "board.header": "Partia #{game}: {sente} ☗ – {gote} ☖ · {variant} · ruch {ply}",
    "board.last_move": "Ostatni ruch: {move}.",
    "board.result.checkmate": "Mat: wygrywa {winner}",
    "board.result.no_legal_moves": "Brak ruchów: wygrywa {winner}",
    "board.result.repetition": "Remis przez powtórzenie",
    "board.result.perpetual_check": "Wieczny szach: wygrywa {winner}",
    "board.result.impasse": "Impas: wygrywa {winner}",
    "board.result.resignation": "Poddanie: wygrywa {winner}",
    "board.result.timeout": "Koniec czasu: wygrywa {winner}",
    "board.result.agreed_draw": "Remis za porozumieniem",
    "board.result.aborted": "Partia anulowana",
    "board.result.illegal_move": "Nieprawidłowy ruch: wygrywa {winner}",
    "textboard.sente": "☗ sente",
    "textboard.gote": "☖ gote",
    "textboard.hand": "w ręce",
    "textboard.legend": "{keys}; +X – promowana, vX – bierka gote",
    "textboard.marks.last_move": "* – pola ostatniego ruchu",
    "textboard.marks.targets": "* – dokąd może ruszyć bierka",
    "moves.missing": "Która bierka? Podaj jej pole, np. /moves 7g.",
    "moves.bad_square": "{problem}",
    "moves.empty_square": "Na polu {square} nie ma bierki.",
    "moves.none": (
        "Bierka „{piece}” gracza {owner} na {square} ({color}) nie ma teraz dozwolonych ruchów."
    ),
    "moves.none_waiting": (
        "Teraz nie jest kolej {color}, a nawet w swojej kolejce bierka „{piece}” gracza {owner} "
        "na {square} ({color}) nie miałaby dozwolonych ruchów."
    ),
    "moves.list": "Bierka „{piece}” gracza {owner} na {square} ({color}) może przejść na: {moves}.",
    "moves.list_waiting": (
        "Teraz nie jest kolej {color}; w swojej kolejce bierka „{piece}” gracza {owner} na "
        "{square} ({color}) mogłaby przejść na: {moves}."
    ),
    # --- resign / draw / abort / takeback / impasse --------------------------------------
    "resign.confirm": (
        "Na pewno poddać partię #{game} z {opponent}? Naciśnij „Poddaj się” albo napisz "
        "/resign yes."
    ),
    "resign.bad_arg": "Napisz /resign, a potem /resign yes, aby potwierdzić.",
    "resign.done": "{name} poddaje partię.",
    "button.resign": "Poddaj się",
    "draw.offered": "{name} proponuje remis w partii #{game}. {opponent}: przyjąć czy odrzucić?",
    "draw.already": "Remis już zaproponowano; poczekaj na odpowiedź: {opponent}.",
    "draw.none_to_answer": "Nie ma propozycji remisu od {opponent}, na którą można odpowiedzieć.",
    "draw.declined": "{name} odrzuca remis w partii #{game}. Gra toczy się dalej.",
    "draw.agreed": "{name} przyjmuje remis.",
    "draw.bad_arg": (
        "Napisz /draw (propozycja), /draw accept lub /draw decline; {word!r} nie jest żadnym "
        "z nich."
    ),
    "button.draw_accept": "Przyjmij remis",
    "button.draw_decline": "Odrzuć remis",
    "abort.too_late": (
        "Partii #{game} nie można już anulować: obie strony wykonały ruch. Poddaj się albo "
        "zaproponuj remis."
    ),
    "abort.done": "{name} anuluje partię #{game}.",
    "takeback.nothing": "W partii #{game} nie masz ruchu do cofnięcia.",
    "takeback.asked": ("{name} prosi o cofnięcie ({moves}) w partii #{game}. {opponent}: zgoda?"),
    "takeback.already": "Prośba już wysłana; poczekaj na odpowiedź: {opponent}.",
    "takeback.none_to_answer": (
        "Nie ma prośby o cofnięcie od {opponent}, na którą można odpowiedzieć."
    ),
    "takeback.declined": "{name} nie zgadza się na cofnięcie w partii #{game}.",
    "takeback.done": "{name} się zgadza: cofnięto {moves}.",
    "takeback.bad_arg": (
        "Napisz /takeback (prośba), /takeback accept lub /takeback decline; {word!r} nie jest "
        "żadnym z nich."
    ),
    "button.takeback_accept": "Zgoda na cofnięcie",
    "button.takeback_decline": "Odmów",
    "impasse.not_your_turn": "Impas deklaruje się we własnej kolejce; teraz ruch ma {name}.",
    "impasse.none": "Wariant {variant} nie ma zasady impasu.",
    "impasse.refused": "Deklaracja impasu odrzucona: {reasons}.",
    "impasse.unmet.king_in_zone": "twój król nie stoi w strefie promocji",
    "impasse.unmet.pieces_in_zone": (
        "innych twoich bierek w strefie: {pieces}, a potrzeba co najmniej {pieces_needed}"
    ),
    "impasse.unmet.not_in_check": "jesteś w szachu",
    "impasse.unmet.points": "masz {points}, a potrzeba {needed}",
    "impasse.done": "{name} deklaruje impas, mając {points}.",
    # --- games --------------------------------------------------------------------------
    "games.none": "Nie masz trwających partii. Zacznij poleceniem /challenge.",
    "games.title": "Twoje trwające partie:",
    "games.line": "#{game} z {opponent} · {variant} · ruch {n} · {turn}{deadline} · {where}",
    "games.your_turn": "twój ruch",
    "games.their_turn": "ruch: {name}",
    "games.here": "ten czat",
    "games.elsewhere": "czat {chat}",
    # --- export -------------------------------------------------------------------------
    "export.event": "Partia Komabot #{game}",  # the record's event (棋戦) field
    "export.bad_format": "{fmt!r} to nie format eksportu; użyj jednego z: {formats}.",
    "export.none": "Nie masz w tym czacie partii do eksportu; podaj numer partii.",
    "export.done": "Partia #{game} w formacie {fmt}.",
    "export.not_for_variant": (
        "Partii wariantu {variant} nie da się zapisać w formacie {fmt}; użyj jednego z: {formats}."
    ),
    "export.unavailable": "Eksport do {fmt} jest niedostępny: {problem}",
    "export.too_big": "Animacja partii #{game} jest za duża, by ją wysłać; spróbuj KIF lub CSA.",
    "export.busy": (
        "Trwa teraz tworzenie innych animacji; poproś o /export gif {game} ponownie za minutę "
        "(zapisy takie jak KIF są od razu)."
    ),
    "export.replaced": (
        "Shift-JIS nie mieści {chars}, więc w tym pliku {fmt} stoją w ich miejscu znaki ?; "
        "/export kifu {game} (UTF-8) je zachowuje."
    ),
    # --- piece / cheatsheet -------------------------------------------------------------
    "piece.missing": "Która bierka? Na przykład /piece wieża, /piece SP lub /piece 飛.",
    "piece.not_found": "{problem} ({sheets} pokaże wszystkie bierki.)",
    "piece.caption": (
        "{name} ({kanji}, {romaji}) – {variant}. Ruchy: {moves} (notacja Betzy: {betza}).{promotes}"
    ),
    "piece.which": (
        "Do {query!r} pasuje kilka bierek: {names}. Którą wybierasz? ({sheets} pokaże wszystkie "
        "bierki.)"
    ),
    "describe.step": "o jedno pole {directions}",
    "describe.slide": "o dowolną liczbę pól {directions}",
    "describe.range": "o najwyżej {limit} pola {directions}",
    "describe.jump": "skacze o {n} pola {directions}, nad dowolnymi bierkami",
    "describe.knight": "skacze na pole {long} {along} i {short} {across}",
    "describe.knight_wide": "skacze na pole {long} {across} i {short} {along}",
    "describe.repeat": "{move}, i tak raz za razem po linii, dopóki pola są wolne",
    "describe.repeat_up_to": ("{move}, i tak najwyżej {limit} razy po linii, dopóki pola są wolne"),
    "describe.or": " lub ",
    "describe.list": ", ",
    "describe.parts": "; ",
    "describe.dir.any": "w dowolnym kierunku",
    "describe.dir.forward": "do przodu",
    "describe.dir.backward": "do tyłu",
    "describe.dir.sideways": "w bok",
    "describe.dir.left": "w lewo",
    "describe.dir.right": "w prawo",
    "describe.dir.diagonal": "po skosie",
    "describe.dir.diagonally_forward": "po skosie do przodu",
    "describe.dir.diagonally_backward": "po skosie do tyłu",
    "describe.dir.forward_left": "po skosie do przodu w lewo",
    "describe.dir.forward_right": "po skosie do przodu w prawo",
    "describe.dir.backward_left": "po skosie do tyłu w lewo",
    "describe.dir.backward_right": "po skosie do tyłu w prawo",
    "describe.along.forward": "do przodu",
    "describe.along.backward": "do tyłu",
    "describe.across.side": "w bok",
    "describe.across.left": "w lewo",
    "describe.across.right": "w prawo",
    "describe.n.1": "jedno",
    "describe.n.2": "dwa",
    "describe.n.3": "trzy",
    "describe.n.4": "cztery",
    "piece.promotes": " Promocja: {name}.",
    "piece.promoted_from": " Promowana postać bierki „{name}”.",
    "variant.unknown": "{word!r} to nie wariant; użyj shogi, wa lub wa-drops.",
    "cheatsheet.caption": "Wszystkie bierki: {variant}.",
    "diagram.pieces_and_promotions": "bierki i promocje",
    "diagram.promoted": "promowana: {name}",
    "diagram.does_not_promote": "bez promocji",
    "diagram.king": "król",
    "diagram.one_step": "o jedno pole",
    "diagram.jump": "skok nad bierkami",
    "diagram.slide": "o dowolną liczbę pól",
    "diagram.slide_at_most": "najwyżej {n} pola",
    # --- settings -----------------------------------------------------------------------
    "settings.show": (
        "Ustawienia tego czatu:\n"
        "• language: {language} (en – angielski, ru – rosyjski, ja – japoński, pl – polski)\n"
        "• notation: {notation} (western, japanese lub usi)\n"
        "• style: {style} (kanji lub international)\n"
        "• perspective: {perspective} (mover: na dole gracz, który ma ruch; sente: zawsze "
        "sente)\n"
        "• bare: {bare} (on: wiadomość zawierająca tylko ruch, np. 7g7f, wykonuje go; kanały "
        "Discorda z poleceniami tekstowymi)\n"
        "• threads: {threads} (on: każde wyzwanie i jego partia dostają własny wątek; kanały "
        "Discorda)\n"
        "Twoje, we wszystkich czatach:\n"
        "• reminders: {reminders} (chat: w czacie partii; dm: prywatna wiadomość od bota)\n"
        "Zmiana: /settings language en, /settings notation japanese, /settings bare on, "
        "/settings reminders dm..."
    ),
    "settings.changed": "Zmieniono ustawienia: {changes}.",
    "settings.bad_key": (
        "{word!r} to nie ustawienie; ustawienia to language, notation, style, perspective, "
        "bare, threads i reminders."
    ),
    "settings.which_key": (
        "{word!r} może dotyczyć: {keys}; najpierw podaj ustawienie, np. /settings threads {word}."
    ),
    "settings.not_admin": (
        "Ustawienia czatu może zmieniać tylko ktoś, kto nim zarządza; /settings reminders "
        "dm|chat możesz wybrać wszędzie."
    ),
    "settings.admin_unknown": (
        "Nie udało mi się sprawdzić, czy administrujesz tą grupą; spróbuj za chwilę."
    ),
    "settings.bad_value": "{value!r} to nie wartość ustawienia {key}; wybierz jedną z: {choices}.",
    "settings.missing_value": "Podaj wartość ustawienia {key}: jedną z {choices}.",
    # --- clocks -------------------------------------------------------------------------
    "clock.reminder": ("⏰ {name}, twój ruch w partii #{game} z {opponent}: czas mija za {left}."),
    "clock.timeout": "{name}: koniec czasu.",
    # --- playing the bot ----------------------------------------------------------------
    "bot.brand": "Komabot",
    "bot.name": "Komabot, poziom {level}",
    "bot.mention": "wzmianka o mnie",
    "bot.started": (
        "{name} odpowiada na każdy ruch w kilka sekund i nigdy nie przekracza czasu; czas na "
        "ruch dotyczy tylko ciebie."
    ),
    "bot.to_move": "{name} ({color}) myśli…",
    "bot.thinking": ("{name} obmyśla ruch w partii #{game}; odpowiedź przyjdzie za kilka sekund."),
    "bot.no_draw": (
        "{name} odrzuca remis w partii #{game}: każdą partię gra do końca. Graj dalej albo /resign."
    ),
    "bot.failed": (
        "{name} nie może wykonać ruchu w partii #{game}: silnik zawiódł. Nic nie przepadło; "
        "spróbuje ponownie za {delay} (i po restarcie)."
    ),
    "bot.level_range": (
        "{word!r} to nie poziom: wybierz od {low} (najsłabszy) do {high} (najsilniejszy), np. "
        "/play wa level 4."
    ),
    "bot.level_missing": "Po {word!r} podaj mój poziom, liczbę od 1 do 8: /play wa level 4.",
    "bot.level_for_bot": (
        "Poziom {level} dotyczy partii ze mną: /play level {level} albo /challenge bot level "
        "{level}. Czas na ruch zapisuje się 1d, 3d lub 7d."
    ),
    "play.bad_arg": (
        "Nie rozumiem {word!r} w /play. Napisz /play [shogi|wa|wa-drops] [level 1-8] "
        "[random|sente|gote] [1d|3d|7d|none], np. /play wa level 4 sente."
    ),
    "play.person": (
        "/play to partia ze mną; aby zagrać z {name}, napisz /challenge i oznacz tę osobę."
    ),
    "button.play_bot": "Zagraj z botem",
    "help.play_bot": "Zagraj ze mną teraz: /play [wariant] [level 1-8] albo przycisk poniżej.",
    # --- front ends ---------------------------------------------------------------------
    "button.not_yours": "Ten przycisk jest dla kogoś innego.",
    "console.only_you": "(widzisz to tylko ty)",
    "console.image": "obraz: {path}",
    "console.file": "plik: {path}",
    "console.banner": (
        "Konsola Komabota: możesz mówić jako dowolny użytkownik.\n"
        "  @alice /challenge @bob wa     mów jako alice (dowolna nazwa), wyzwij boba na wa shogi\n"
        "  @bob /accept                  bob przyjmuje;  @alice /move 8h8g  alice wykonuje ruch\n"
        "  /play wa level 4              zagraj z botem (lub /challenge @komabot wa level 4)\n"
        "  /as bob                       od teraz mów jako bob (teraz: {user})\n"
        "  /chat NAZWA                   przejdź do innego czatu (teraz: {chat})\n"
        "  /help                         polecenia bota;  /quit lub Ctrl-D kończy\n"
        "Przyciski wyglądają tak: [etykieta: /polecenie]; wpisz polecenie, aby nacisnąć.\n"
        "Obrazy i pliki trafiają do {out}"
    ),
    "console.say_something": "(napisz coś jako {user}, np. @{user} /board)",
    "console.not_a_command": "(to nie polecenie: {line}; polecenia zaczynają się od /, np. /help)",
    "console.write_as": "(napisz /as NAZWA)",
    "console.write_chat": "(napisz /chat NAZWA)",
    "console.you_are": "(teraz jesteś {user})",
    "console.in_chat": "(teraz w czacie {chat})",
    "console.to_chat": "[bot w czacie {chat}]",
    "console.to_user": "[bot do @{user} prywatnie]",
    "console.updates": "[bot aktualizuje {card} w czacie {chat}]",
    "discord.activity": "/shogi help",
    "discord.group": "Graj w shogi i wa shogi korespondencyjnie",
    "slash.command.challenge": "wyzwij",
    "slash.command.play": "zagraj",
    "slash.command.accept": "przyjmij",
    "slash.command.decline": "odrzuć",
    "slash.command.cancel": "wycofaj",
    "slash.command.move": "ruch",
    "slash.command.board": "plansza",
    "slash.command.moves": "ruchy",
    "slash.command.resign": "poddaj",
    "slash.command.draw": "remis",
    "slash.command.abort": "anuluj",
    "slash.command.takeback": "cofnij",
    "slash.command.impasse": "impas",
    "slash.command.games": "partie",
    "slash.command.rating": "ranking",
    "slash.command.leaderboard": "najlepsi",
    "slash.command.history": "historia",
    "slash.command.export": "eksport",
    "slash.command.piece": "bierka",
    "slash.command.cheatsheet": "ściąga",
    "slash.command.settings": "ustawienia",
    "slash.command.help": "pomoc",
    "slash.option.opponent": "przeciwnik",
    "slash.option.variant": "wariant",
    "slash.option.color": "kolor",
    "slash.option.time": "czas",
    "slash.option.rating": "ranking",
    "slash.option.level": "poziom",
    "slash.option.challenge": "wyzwanie",
    "slash.option.move": "ruch",
    "slash.option.game": "partia",
    "slash.option.square": "pole",
    "slash.option.answer": "odpowiedź",
    "slash.option.user": "gracz",
    "slash.option.page": "strona",
    "slash.option.format": "format",
    "slash.option.name": "nazwa",
    "slash.option.language": "język",
    "slash.option.notation": "notacja",
    "slash.option.style": "styl",
    "slash.option.perspective": "perspektywa",
    "slash.option.bare": "ruchy-bez-polecenia",
    "slash.option.threads": "wątki",
    "slash.option.reminders": "przypomnienia",
    "slash.option.command": "polecenie",
    "discord.bad_option": "Nie udało mi się odczytać opcji {option!r}: {problem}",
    "discord.too_big": "({files}: pominięto, większe niż dopuszczalne w tym czacie {limit}.)",
    "discord.intent_missing": (
        "Discord odrzucił uprawnienie Message Content: włącz je w portalu deweloperskim "
        "(twoja aplikacja, Bot, Privileged Gateway Intents) albo ustaw DISCORD_MESSAGE_CONTENT=0."
    ),
    "challenge.thread_name": "Shogi: wyzwanie od {name}",
    "discord.thread_opened": "Wyzwanie opublikowano w {thread}; tam będzie rozgrywana partia.",
    # --- Telegram: the bot's profile (setMyDescription, setMyShortDescription) ---------------
    "telegram.description": (
        "Jestem Komabot: graj w shogi i wa shogi korespondencyjnie, tutaj lub w swoich grupach. "
        "Wyzwij kogoś poleceniem /challenge albo zagraj ze mną przez /play; ruchy zapisuj jako "
        "7g7f, P-7f lub ７六歩, a po każdym ruchu dostaniesz planszę. /piece i /cheatsheet "
        "pokazują ruchy bierek; /help – wszystkie polecenia."
    ),
    "telegram.short_description": (
        "Shogi i wa shogi korespondencyjnie: wyzwania, obrazy planszy, rankingi."
    ),
    # --- slash-command options and the names of their choices (Discord) ------------------
    "arg.game": "numer partii, gdy masz ich kilka lub oglądasz cudzą",
    "arg.challenge.opponent": "kogo wyzwać (mnie też); pomiń, aby rzucić otwarte wyzwanie",
    "arg.challenge.variant": "shogi, wa shogi (bez zrzutów) lub wa shogi ze zrzutami",
    "arg.challenge.color": "twoja strona: losowo, sente (pierwszy ruch) lub gote",
    "arg.challenge.time": "czas na ruch",
    "arg.challenge.rating": "rankingowa (domyślnie) lub towarzyska",
    "arg.challenge.level": "gdy wyzywasz mnie: moja siła, od 1 do 8",
    "arg.play.level": "moja siła: od 1 (najsłabszy) do 8 (najsilniejszy)",
    "arg.play.time": "twój czas na ruch",
    "arg.challenge": "numer wyzwania",
    "arg.move.move": "ruch: 7g7f, P-7f, ７六歩, SP-6h...",
    "arg.moves.square": "pole bierki, np. 7g",
    "arg.draw.answer": "zaproponuj, przyjmij lub odrzuć",
    "arg.takeback.answer": "poproś, przyjmij lub odrzuć",
    "arg.rating.user": "czyj ranking (gdy pominiesz: twój)",
    "arg.rating.variant": "tylko ten wariant",
    "arg.leaderboard.variant": "który wariant (domyślnie ostatnio grany tutaj)",
    "arg.leaderboard.page": "numer strony (po dziesięciu graczy)",
    "arg.history.user": "czyje partie (gdy pominiesz: twoje)",
    "arg.history.page": "numer strony (po dziesięć partii)",
    "arg.export.format": "format pliku",
    "arg.piece.name": "nazwa, kod lub kanji bierki: wieża, SP, 飛, wróbel",
    "arg.piece.variant": "gdzie szukać",
    "arg.cheatsheet.variant": "który wariant",
    "arg.settings.language": "język bota w tym czacie",
    "arg.settings.notation": "jak zapisywane są ruchy",
    "arg.settings.style": "jak wyglądają bierki",
    "arg.settings.perspective": "plansza od strony gracza, który ma ruch, lub zawsze sente",
    "arg.settings.bare": "wiadomość zawierająca tylko ruch wykonuje go",
    "arg.settings.threads": "osobny wątek dla każdej partii w tym kanale",
    "arg.settings.reminders": "twoje przypomnienia: w czacie partii lub prywatnie",
    "arg.help.command": "nazwa polecenia",
    "choice.variant.shogi": "shogi",
    "choice.variant.wa": "wa shogi (bez zrzutów)",
    "choice.variant.wa-drops": "wa shogi ze zrzutami",
    "choice.color.random": "losowo",
    "choice.color.sente": "sente (pierwszy ruch)",
    "choice.color.gote": "gote",
    "choice.time.1d": "1 dzień na ruch",
    "choice.time.3d": "3 dni na ruch",
    "choice.time.7d": "7 dni na ruch",
    "choice.time.none": "bez limitu czasu",
    "choice.rating.rated": "rankingowa",
    "choice.rating.casual": "towarzyska",
    "choice.answer.offer": "zaproponuj",
    "choice.answer.ask": "poproś",
    "choice.answer.accept": "przyjmij",
    "choice.answer.decline": "odrzuć",
    "choice.language.en": "angielski",
    "choice.language.ru": "rosyjski",
    "choice.language.ja": "japoński",
    "choice.language.pl": "polski",
    "choice.notation.western": "zachodni (P-7f)",
    "choice.notation.japanese": "japoński (７六歩)",
    "choice.notation.usi": "USI (7g7f)",
    "choice.style.kanji": "kanji",
    "choice.style.international": "międzynarodowy (zachodnie symbole)",
    "choice.perspective.mover": "na dole gracz, który ma ruch",
    "choice.perspective.sente": "na dole zawsze sente",
    "choice.bare.on": "włączone",
    "choice.bare.off": "wyłączone",
    "choice.threads.on": "włączone",
    "choice.threads.off": "wyłączone",
    "choice.reminders.chat": "w czacie partii",
    "choice.reminders.dm": "prywatna wiadomość",
    # --- help ---------------------------------------------------------------------------
    "help.title": "Komabot gra w shogi i wa shogi korespondencyjnie. Polecenia:",
    "help.footer": "Szczegóły: /help POLECENIE. Ruchy można zapisywać jako 7g7f, P-7f lub ７六歩.",
    # the placeholders of a command's syntax in /help (the words a player types stay)
    "syntax.user": "gracz",
    "syntax.challenge": "wyzwanie",
    "syntax.game": "partia",
    "syntax.page": "strona",
    "syntax.command": "polecenie",
    "syntax.move": "RUCH",
    "syntax.square": "POLE",
    "syntax.name": "NAZWA",
    "help.command": "/{name} {syntax}\n{summary}\nPrzykład: {example}{aliases}",
    "help.aliases": "\nTakże: {aliases}",
    "help.unknown": "Nie ma polecenia {word!r}. /help pokaże wszystkie.",
    "help.move_extra": (
        "\nZapisy: USI (7g7f, P*5e, 8h2b+), zachodni (P-7f, Bx2b+, S*5e, SP-6h) lub japoński "
        "(７六歩, 同　歩, ２二角成)."
    ),
}

# Counted messages, one template per CLDR plural category of Polish (1: one; 2-4, 22-24:
# few; 0, 5-21, 25-31: many; fractions: other).  Durations are in the accusative: they follow
# "za" (in) and "na" (per).
PL_PLURAL: dict[str, dict[str, str]] = {
    "unit.d": {"one": "{n} dzień", "few": "{n} dni", "many": "{n} dni", "other": "{n} dnia"},
    "unit.h": {
        "one": "{n} godzinę",
        "few": "{n} godziny",
        "many": "{n} godzin",
        "other": "{n} godziny",
    },
    "unit.m": {
        "one": "{n} minutę",
        "few": "{n} minuty",
        "many": "{n} minut",
        "other": "{n} minuty",
    },
    "rating.streak.wins": {
        "one": "{n} wygrana z rzędu",
        "few": "{n} wygrane z rzędu",
        "many": "{n} wygranych z rzędu",
        "other": "{n} wygranej z rzędu",
    },
    "rating.streak.losses": {
        "one": "{n} przegrana z rzędu",
        "few": "{n} przegrane z rzędu",
        "many": "{n} przegranych z rzędu",
        "other": "{n} przegranej z rzędu",
    },
    "rating.streak.draws": {
        "one": "{n} remis z rzędu",
        "few": "{n} remisy z rzędu",
        "many": "{n} remisów z rzędu",
        "other": "{n} remisu z rzędu",
    },
    "impasse.points": {
        "one": "{n} punkt",
        "few": "{n} punkty",
        "many": "{n} punktów",
        "other": "{n} punktu",
    },
}
