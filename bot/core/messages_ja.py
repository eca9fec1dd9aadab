"""Japanese message catalogue: the same keys and placeholders as ``messages.EN``.

Shogi terms as Japanese players write them: 対局, 先手・後手, 王手, 詰み, 投了, 千日手,
持将棋 and 入玉宣言, 持ち駒, 打つ, 成・不成, 二歩, 打ち歩詰め, 待った (a takeback).
Polite form (です・ます).  Japanese has one plural category (``other``).
"""

from __future__ import annotations

JA: dict[str, str] = {
    # --- command summaries (help, slash-command descriptions) ----------------------------
    "cmd.challenge": "誰か（または誰でも）に対局を申し込む",
    "cmd.play": "私、Komabot と対局する（レベル1〜8）",
    "cmd.accept": "対局の申し込みを受ける",
    "cmd.decline": "自分あての申し込みを断る",
    "cmd.cancel": "自分の申し込みを取り下げる",
    "cmd.move": "自分の対局で指す",
    "cmd.board": "盤面を表示する",
    "cmd.moves": "あるマスの駒が動ける先を表示する",
    "cmd.resign": "投了する（確認あり）",
    "cmd.draw": "引き分けを提案・承諾・拒否する",
    "cmd.abort": "双方が指す前に対局を中止する",
    "cmd.takeback": "最後の手の待ったを頼む（相手の同意が必要）",
    "cmd.impasse": "入玉宣言をする（27点法、本将棋のみ）",
    "cmd.games": "進行中の自分の対局を一覧する",
    "cmd.export": "棋譜（KIF、KIFU、CSA、USI）またはアニメーション GIF をダウンロードする",
    "cmd.rating": "このチャットと全体のレーティングを表示する（自分または他の人）",
    "cmd.leaderboard": "このサーバーやグループの上位レーティングと自分の順位を表示する",
    "cmd.history": "ここでのプレイヤーの最近の対局とレーティングの変化を表示する",
    "cmd.piece": "駒の動きを表示する",
    "cmd.cheatsheet": "ある将棋の駒をすべて表示する",
    "cmd.settings": "このチャットの設定とリマインダーの送り先を表示・変更する",
    "cmd.help": "コマンドの一覧、または一つのコマンドの説明",
    "cmd.complete": "入力途中の引数の候補を出す（クライアント用）",
    # --- general ------------------------------------------------------------------------
    "error.internal": (
        "/{command} の処理中にこちらで問題が起きました。/board で対局の状況を確認できます。"
        "もう一度お試しください。"
    ),
    "error.unknown_command": "/{command} というコマンドはありません。{hint}",
    "error.unknown_command.hint_similar": (
        "{options} のことですか？ /help ですべてのコマンドを表示します。"
    ),
    "error.unknown_command.hint": "/help ですべてのコマンドを表示します。",
    "error.shutting_down": "再起動中です。1分ほどしてからもう一度送ってください。",
    "error.read_only": (
        "現在は何も保存できません。データベースが読み取り専用のため、何も変更されていません。"
        "/board、/games、/help は使えます。運営者にお知らせください。"
    ),
    "error.disk_full": (
        "保存できません。データベースのあるディスクがいっぱいのため、何も変更されていません。"
        "/board、/games、/help は使えます。運営者にお知らせください。"
    ),
    "list.more": "…ほか {count} 件",
    "error.conflict": (
        "実行されませんでした。対局 #{game} が同時に変更されました（{reason}）。"
        "現在の盤面です。必要ならもう一度どうぞ。"
    ),
    "conflict.reason": "{first}。{lost}",
    "conflict.first.moved": "{name} さんが先に指しました",
    "conflict.first.took_back": "先に待ったが行われました",
    "conflict.first.offer": "先に引き分けか待ったの提案（またはその返答）が届きました",
    "conflict.first.resigned": "{name} さんが先に投了しました",
    "conflict.first.timeout": "{name} さんが先に時間切れになりました",
    "conflict.first.drawn": "先に引き分けが成立しました",
    "conflict.first.aborted": "先に対局が中止されました",
    "conflict.first.impasse": "先に入玉宣言が行われました",
    "conflict.lost.move": "あなたの指し手は指されていません",
    "conflict.lost.other": "/{command} は実行されていません",
    "conflict.other": "実行されませんでした。同時に別の変更がありました。必要ならもう一度どうぞ。",
    "error.record_damaged": (
        "対局 #{game} の棋譜が壊れています（{ply}手目：{problem}）。続けて指すことはできません。"
        "お手数ですがご報告ください。"
    ),
    "color.sente": "先手",
    "color.gote": "後手",
    "color.random": "手番はランダム",
    "time.none": "持ち時間なし",
    "time.per_move": "1手{time}",
    "time.in": "あと{delta}",
    "time.deadline": "期限 {when}（{relative}）",
    "unit.less_than_minute": "1分未満",
    # --- picking a game / challenge -----------------------------------------------------
    "game.none_here": (
        "このチャットで進行中の対局はありません。/challenge で始めるか、対局番号を指定してください"
        "。"
    ),
    "game.none_in_chat": "このチャットで進行中の対局はありません。/challenge で始めてください。",
    "game.several_in_chat": "ここでは複数の対局が進行中です。一つ指定してください：\n{games}",
    "game.several_of_yours": (
        "進行中の対局が複数あります。対局番号を付けてください（例：7g7f 12）：\n{games}"
    ),
    "game.not_found": "対局 #{game} はありません。",
    "game.other_chat": "対局 #{game} は別のチャットで行われています。そちらでどうぞ。",
    "game.not_player": (
        "対局 #{game} を指すのは {sente} と {gote} だけです。/board {game} で観戦できます。"
    ),
    "game.finished": "対局 #{game} は終了しています（{result}）。",
    "game.bad_number": "{text!r} は対局番号ではありません（例：12 または #12）。",
    "game.line": "#{game} {sente} 対 {gote} · {variant} · {turn}",
    "game.turn": "{name}の手番",
    "challenge.not_found": "申し込み #{challenge} はありません。",
    "challenge.other_chat": (
        "申し込み #{challenge} は別のチャットで出されました。そちらで答えてください。"
    ),
    "challenge.bad_number": "{text!r} は申し込み番号ではありません（例：12 または #12）。",
    "challenge.none_for_you": "ここにあなたあての申し込みはありません。",
    "challenge.several": "ここには複数の申し込みがあります。一つ指定してください：\n{challenges}",
    "challenge.line": "#{challenge} {challenger} → {challenged} · {variant} · {time}",
    "challenge.anyone": "誰でも",
    # --- challenge ----------------------------------------------------------------------
    "challenge.bad_arg": (
        "申し込みの {word!r} が読めません。/challenge [@相手] [shogi|wa|wa-drops] "
        "[random|sente|gote] [1d|3d|7d|none] [rated|casual] と書いてください。"
        "私と指すなら、/challenge bot にレベル1〜8を付けます（または /play）。"
    ),
    "challenge.twice": (
        "{word!r} と {other!r} がどちらも{what}を指定しています。一つにしてください。"
    ),
    "challenge.what.variant": "将棋の種類",
    "challenge.what.color": "手番",
    "challenge.what.time": "1手の持ち時間",
    "challenge.what.opponent": "相手",
    "challenge.what.level": "レベル",
    "challenge.what.rated": "レーティング対局か否か",
    "challenge.casual": "非レーティング",
    "bot.unrated": "私との対局はレーティング対象外です。「rated」を外してください。",
    "challenge.time_range": (
        "1手の持ち時間は{low}から{high}まで（または none）です。{time} は範囲外です。"
    ),
    "challenge.unknown_user": (
        "このプラットフォームではまだ {name} さんを知りません。先にその人から何かコマンドを"
        "送ってもらう（例：/help）か、その人のメッセージに /challenge で返信してください。"
    ),
    "challenge.ambiguous_user": (
        "{name} という名前の知り合いが複数います：{people}。名前は誰でも名乗れるので、"
        "@ を入力したときに出る一覧（またはスラッシュコマンドの相手オプション）から選ぶか、"
        "その人のメッセージに /challenge で返信してください。"
    ),
    "challenge.number_name": (
        "{name} は人として扱いません。数字は誰の名前にもなり得ます。@ を入力したときに出る一覧"
        "（またはスラッシュコマンドの相手オプション）から選ぶか、その人のメッセージに "
        "/challenge で返信してください。"
    ),
    "challenge.by_name": (
        "{who} さんに申し込みます（私の知る {name} という名前の人はこの方だけです）。"
        "別の人なら /cancel {challenge} してから相手を指定してください。"
    ),
    "challenge.self": "自分には申し込めません。誰でも受けられる申し込みなら名前を省いてください。",
    "challenge.you_busy": (
        "このチャットにはすでに対局 #{game} があります。先に終わらせてください"
        "（1チャットにつき1人1局）。"
    ),
    "challenge.they_busy": (
        "{name} さんはこのチャットですでに対局 #{game} 中です。後で申し込んでください。"
    ),
    "challenge.already_open": (
        "ここにはすでにあなたの申し込み #{challenge} があります。先に /cancel {challenge} "
        "してください。"
    ),
    "challenge.card": (
        "⚔️ 申し込み #{challenge}：{challenger} さんが {challenged} さんに{variant}の対局を"
        "申し込みました。\n{challenger} さんは{color} · {time} · 期限 {expires}。\n"
        "{challenged} さん：/accept {challenge} または /decline {challenge}"
    ),
    "challenge.card_open": (
        "⚔️ 申し込み #{challenge}（誰でも）：{challenger} さんが{variant}の相手を募集中です。\n"
        "{challenger} さんは{color} · {time} · 期限 {expires}。\n"
        "どなたでも：/accept {challenge}"
    ),
    "challenge.closed.accepted": (
        "申し込み #{challenge} を {name} さんが受けました：対局 #{game}。"
    ),
    "challenge.closed.declined": "{name} さんが申し込み #{challenge} を断りました。",
    "challenge.closed.cancelled": "{name} さんが申し込み #{challenge} を取り下げました。",
    "challenge.closed.expired": (
        "申し込み #{challenge} は期限切れです。期限内に受ける人がいませんでした。"
    ),
    "challenge.not_open": "申し込み #{challenge} はもう受け付けていません（{status}）。",
    "challenge.status.accepted": "受諾済み",
    "challenge.status.declined": "辞退済み",
    "challenge.status.cancelled": "取り下げ済み",
    "challenge.status.expired": "期限切れ",
    "challenge.status.open": "受付中",
    "challenge.not_for_you": (
        "申し込み #{challenge} は {name} さんあてで、あなたあてではありません。"
    ),
    "challenge.own": "自分の申し込みです。取り下げるには /cancel {challenge}。",
    "challenge.decline_open": (
        "誰でも受けられる申し込みは断る必要はありません。そのままにしてください。"
    ),
    "challenge.cancel_not_yours": (
        "申し込み #{challenge} を取り下げられるのは {name} さんだけです。"
    ),
    "challenge.accepter_busy": (
        "このチャットにはすでに対局 #{game} があります。次を受ける前に終わらせてください。"
    ),
    "challenge.challenger_busy": (
        "{name} さんはその間にここで対局 #{game} を始めました。後でどうぞ。"
    ),
    "button.accept": "受ける",
    "button.decline": "断る",
    "button.cancel": "取り下げる",
    # --- game start / moves -------------------------------------------------------------
    "game.started": (
        "🎌 対局 #{game} 開始：{sente}（先手 ☗）対 {gote}（後手 ☖）、{variant}、{time}。"
    ),
    "move.played": "{mover}：{move}",
    "move.check": "王手",
    "move.next": "{name}（{color}）の手番です。",
    "move.next_deadline": "{name}（{color}）の手番です — {deadline}。",
    "move.missing": "どの手ですか？ 例：/move {example}",
    "move.not_your_turn": "対局 #{game} は {name} さんの手番です。",
    "move.malformed": "{problem}",
    "move.illegal": "指せません：{problem}",
    "move.ambiguous": "{text!r} に当てはまる手が複数あります。選んでください：",
    "move.promotion_choice": "{text!r}：成りますか、成りませんか？ 選んでください：",
    "move.example.shogi": "７六歩 または 7g7f",
    "move.example.wa": "８七萑歩 または 8h8g",
    "offer.draw_pending": (
        "{name} さんが引き分けを提案しています：/draw accept または /draw decline"
    ),
    "offer.takeback_pending": (
        "{name} さんが待ったを頼んでいます：/takeback accept または /takeback decline"
    ),
    # --- results ------------------------------------------------------------------------
    "result.checkmate": "詰み",
    "result.no_legal_moves": "指し手なし",
    "result.repetition": "千日手",
    "result.perpetual_check": "連続王手の千日手",
    "result.impasse": "入玉宣言",
    "result.resignation": "投了",
    "result.timeout": "時間切れ",
    "result.agreed_draw": "合意",
    "result.aborted": "中止",
    "result.illegal_move": "相手の反則",
    "result.wins": "{reason}で{winner}の勝ち",
    "result.draw": "{reason}により引き分け",
    "result.aborted_line": "中止",
    "game.over": "🏁 対局 #{game} 終了：{result}。",
    "game.over.export": "棋譜のダウンロード：",
    "rating.changes": "📈 レーティング：{changes}。",
    "rating.change": "{name} {before} → {after}（{delta}）",
    "rating.bad_arg": (
        "/rating [@相手] [shogi|wa|wa-drops] と書いてください。{word!r} はどちらでもありません。"
    ),
    "rating.no_games": "{name} さんにはまだレーティング対局がありません。",
    "rating.title": "📊 {name} さんのレーティング（? は暫定）",
    "rating.variant": "{variant}：",
    "rating.line": (
        "  {where}：{rating} ±{deviation} · 対局数 {games}（{wins}勝 {losses}敗 {draws}分）"
    ),
    "rating.none_here": "  {where}：レーティング対局なし",
    "rating.where.here": "このチャット",
    "rating.where.overall": "全体",
    "rating.where.server": "このサーバー",
    "rating.best_win": "    最高の勝ち星：{rating}（{name}、対局 #{game}）",
    "rating.streak": "    現在の連続記録：{streak}",
    "page.range": "{page!r} ページは表示できません。ページ番号は1から{most}までです。",
    "page.missing": "{page} ページはありません。全{pages}ページです。",
    "button.page_back": "◀ {page}ページ",
    "button.page_next": "{page}ページ ▶",
    "leaderboard.bad_arg": (
        "/leaderboard [shogi|wa|wa-drops] [ページ] と書いてください。{word!r} は将棋の種類でも"
        "ページ番号でもありません。"
    ),
    "leaderboard.title": "{variant} ランキング、{where}（{page}/{pages}ページ）",
    "leaderboard.line": "{place}. {name} {rating} ±{deviation} · 対局数 {games}",
    "leaderboard.head.player": "プレイヤー",
    "leaderboard.head.rating": "レーティング",
    "leaderboard.head.games": "対局数",
    "leaderboard.empty": (
        "ここにはまだ{variant}の確定したレーティングを持つ人がいません。暫定でなくなる"
        "（レーティング対局5局ほど）とランキングに載ります。"
    ),
    "leaderboard.you": "あなたの順位：{total}人中{place}位（{rating}）。",
    "leaderboard.you_provisional": (
        "あなたのレーティング {rating} はまだ暫定です（±{deviation}）。±{threshold} を下回ると"
        "ランキングに載ります。"
    ),
    "leaderboard.you_none": "ここではまだこの種類のレーティング対局がありません。",
    "history.bad_arg": (
        "/history [@相手] [ページ] と書いてください。{word!r} はどちらでもありません。"
    ),
    "history.none": "{name} さんには{where}で終局した対局がまだありません。",
    "history.title": "📜 {name} さんの対局（{where}、新しい順、{page}/{pages}ページ）：",
    "history.line": "#{game} · {opponent} · {variant} · {result} · {rating}",
    "history.won": "{reason}で勝ち",
    "history.lost": "{reason}で負け",
    "history.drawn": "{reason}により引き分け",
    "history.aborted": "中止",
    "history.change": "{before} → {after}（{delta}）",
    "history.unrated": "非レーティング",
    "history.export": "棋譜のダウンロード：/export 番号",
    # --- why a move is illegal (rules error codes) ---------------------------------------
    "rules.no_piece": "{square}に駒がありません",
    "rules.not_your_piece": "{square}の{piece}は相手の駒です",
    "rules.own_piece_on_target": "{square}には自分の{piece}があります",
    "rules.bad_pattern": "{piece}は{origin}から{square}へ動けません",
    "rules.path_blocked": (
        "{origin}の{piece}は{square}へ行けません。{blocker}の{blocker_side}の"
        "{blocker_piece}が道をふさいでいます"
    ),
    "rules.cannot_promote.never_promotes": "{piece}は成れません",
    "rules.promotion_outside_zone": (
        "成れるのは敵陣（奥の{depth}段）に入る手か敵陣から出る手だけです。{origin}-{square}は"
        "どちらでもありません"
    ),
    "rules.must_promote": (
        "{square}の{piece}はそれ以上動けなくなるので、成らなければなりません（+ を付けてください）"
    ),
    "rules.not_in_hand": "持ち駒に{piece}がありません",
    "rules.dead_drop": "{square}に打った{piece}は動けなくなるので、そこには打てません",
    "rules.nifu": "この筋には成っていない{piece}がすでにあります（{other}）：二歩は反則です",
    "rules.uchifuzume": "{piece}を打って詰ますことはできません（打ち歩詰め）",
    "rules.leaves_king_in_check": ("この手を指すと{king}の玉に{attackers}から王手がかかります"),
    "rules.still_in_check": (
        "王手がかかっています。この手の後も{king}の玉は{attackers}から攻められています"
    ),
    "rules.foreign_piece": (
        "{written} は別の将棋の駒で、この対局にはありません。ここで同じ動きをするのは"
        "{pieces}です：{example} のことですか？"
    ),
    "rules.foreign_piece_unmatched": (
        "{written} は別の将棋の駒で、この対局にはなく、同じ動きをする駒もありません。"
        "この対局の駒：{pieces}"
    ),
    "rules.no_drops": "{variant}には持ち駒の打ちがありません。取った駒は盤から消えます",
    "rules.not_droppable": "{piece}は打てません",
    "rules.square_occupied": "{square}には{side}の{piece}があります",
    "rules.cannot_promote.already_promoted": "{piece}はすでに成っています",
    "rules.illegal_move": "この手はここでは指せません",
    "rules.drop_cannot_promote": (
        "{text!r}：持ち駒を打つときは成れません。{suggestion} と書いてください"
    ),
    "rules.no_matching_move": "{text!r} に当てはまる合法手がありません。{texts} のことですか？",
    "rules.not_droppable.kind_not_droppable": (
        "{text!r}：{kinds}は打てません（打てるのは成っていない持ち駒だけです）"
    ),
    "rules.no_piece_reaches": "{square}へ動ける駒がありません",
    "rules.piece_cannot_reach.one": "{origins}の{kinds}は{square}へ動けません",
    "rules.piece_cannot_reach.many": "{count}枚ある{kinds}はどれも{square}へ動けません",
    "rules.no_such_piece.on_board": "{kinds}がありません",
    "rules.no_such_piece.with_drops": "{kinds}は盤上にも持ち駒にもありません",
    "rules.malformed_move.unreadable_move": "{text!r} を指し手として読めません",
    "rules.malformed_move.plus_without_piece": (
        "{text!r} を指し手として読めません。駒の前の + には駒の文字が必要です（例：+R-3c）"
    ),
    "rules.malformed_move.drop_with_origin": (
        "{text!r} を指し手として読めません。打つ手に移動元はありません（例：S*5e）"
    ),
    "rules.malformed_move.drop_without_piece": (
        "{text!r} を指し手として読めません。打つ手には駒が必要です（例：P*5e）"
    ),
    "rules.malformed_move.drop_promotes": (
        "{text!r} を指し手として読めません。打つときは成れないので + や = を外してください"
    ),
    "rules.all_digit_square": (
        "{text!r}：{files}x{ranks} の盤では、数字が続かないように段を英字（例：11k、6h）"
        "または漢数字で書きます。数字だけのマスは 9x9 の盤だけです"
    ),
    "rules.malformed_move.same_square": "{text!r}：移動元と移動先が同じマスです",
    "rules.bad_square.no_such_square": (
        "{text!r}：{square}は盤上のマスではありません。筋は1〜{files}、段は a〜{last} です"
    ),
    "rules.unknown_piece.unknown_piece_code": (
        "{text!r}：{variant}に {token!r} という駒はありません（駒の文字：{letters}、"
        "コード：{codes}。成駒は前に + を付けます：+R）"
    ),
    "rules.malformed_move.japanese_after_piece": (
        "{text!r}：駒の後の {rest!r} が読めません（右 左 直 上 引 寄、その後に 成、不成、打）"
    ),
    "rules.malformed_move.japanese_marks": "{text!r}：右/左 と 上/引/寄/直 はそれぞれ一つまでです",
    "rules.malformed_move.japanese_drop_origin": (
        "{text!r}：打（打つ手）には移動元も動作もありません"
    ),
    "rules.unknown_piece.japanese_piece_expected": (
        "{text!r}：マスの後には駒の名前が来ます（{sample}…）"
    ),
    "rules.bad_square.japanese_square_first": (
        "{text!r}：日本式の指し手はマス（筋、段の順：７六）または 同 から始まります"
    ),
    "rules.bad_square.square_too_long": (
        "{text!r}：{run!r} はマスとしては長すぎます（筋、段の順：７六、１１十一）"
    ),
    "rules.bad_square.ambiguous_square": (
        "{text!r}：{run!r} は何通りにも読めます。筋を数字、段を漢数字で書いてください（例：１０三）"
    ),
    "rules.bad_square.bad_origin": (
        "{text!r}：({token}) はここでは移動元になりません。{form} のように書いてください"
    ),
    "rules.no_previous_move": "{text!r}：同 は直前の手のマスのことですが、まだ手が指されていません",
    "rules.malformed_move.bad_usi": (
        "{text!r} は USI の指し手ではありません。移動元と移動先を 7g7f のように書き、成りは + "
        "（8h2b+）、打つ手は P*5e のように書きます"
    ),
    "rules.malformed_move.bad_usi_drop": (
        "{text!r}：{token!r} は{variant}で打てる駒ではありません（打てる駒：{letters}）"
    ),
    "rules.empty_move": "指し手がありません",
    "rules.move_too_long": "指し手としては長すぎます（{length}文字）",
    "rules.bad_square": (
        "{text!r} はマスではありません。筋1〜{width}、段 a〜{last} の順に書いてください（例："
        "{example}）"
    ),
    "rules.examples": (
        "。指し手の書き方の例：{japanese}（日本式）、{western}（西洋式）、{usi}（USI）"
    ),
    "rules.examples.drop": "。打つ手：{drop}",
    "rules.unknown_piece.piece_name_missing": "駒の名前、漢字、文字またはコードを書いてください。",
    "rules.unknown_piece.close_names": "{query!r} という駒はありません。もしかして：{candidates}？",
    "rules.unknown_piece.no_close_name": "{query!r} という駒はありません。",
    # --- board / moves ------------------------------------------------------------------
    "board.sente": "先手",
    "board.gote": "後手",
    "board.move": "{n}手目",
    "board.to_move": "{name}の手番",
    "board.header": "対局 #{game}：{sente} ☗ 対 {gote} ☖ · {variant} · {ply}手目",
    "board.last_move": "直前の手：{move}",
    "board.result.checkmate": "詰みで{winner}の勝ち",
    "board.result.no_legal_moves": "指し手なしで{winner}の勝ち",
    "board.result.repetition": "千日手で引き分け",
    "board.result.perpetual_check": "連続王手の千日手で{winner}の勝ち",
    "board.result.impasse": "入玉宣言で{winner}の勝ち",
    "board.result.resignation": "投了で{winner}の勝ち",
    "board.result.timeout": "時間切れで{winner}の勝ち",
    "board.result.agreed_draw": "合意により引き分け",
    "board.result.aborted": "対局中止",
    "board.result.illegal_move": "反則で{winner}の勝ち",
    "textboard.sente": "☗ 先手",
    "textboard.gote": "☖ 後手",
    "textboard.hand": "持ち駒",
    "textboard.legend": "{keys}；+X は成駒、vX は後手の駒",
    "textboard.marks.last_move": "* は直前の手のマス",
    "textboard.marks.targets": "* は駒の動ける先",
    "moves.missing": "どの駒ですか？ マスで指定してください（例：/moves 7g）。",
    "moves.bad_square": "{problem}",
    "moves.empty_square": "{square}に駒はありません。",
    "moves.none": "{owner} さんの{square}の{piece}（{color}）は今は動けません。",
    "moves.none_waiting": (
        "今は{color}の手番ではありません。手番になっても {owner} さんの{square}の{piece}"
        "（{color}）は動けません。"
    ),
    "moves.list": "{owner} さんの{square}の{piece}（{color}）の動ける先：{moves}。",
    "moves.list_waiting": (
        "今は{color}の手番ではありません。手番なら {owner} さんの{square}の{piece}"
        "（{color}）の動ける先：{moves}。"
    ),
    # --- resign / draw / abort / takeback / impasse --------------------------------------
    "resign.confirm": (
        "{opponent} さんとの対局 #{game} を本当に投了しますか？「投了」を押すか、"
        "/resign yes と書いてください。"
    ),
    "resign.bad_arg": "/resign で確認が出ます。確定するには /resign yes と書いてください。",
    "resign.done": "{name} さんが投了しました。",
    "button.resign": "投了",
    "draw.offered": (
        "{name} さんが対局 #{game} で引き分けを提案しました。{opponent} さん、受けますか？"
    ),
    "draw.already": "すでに引き分けを提案しています。{opponent} さんの返事を待ってください。",
    "draw.none_to_answer": "{opponent} さんからの引き分けの提案はありません。",
    "draw.declined": "{name} さんが対局 #{game} の引き分けを断りました。対局は続きます。",
    "draw.agreed": "{name} さんが引き分けを受けました。",
    "draw.bad_arg": (
        "/draw（提案）、/draw accept、/draw decline のいずれかを書いてください。"
        "{word!r} はどれでもありません。"
    ),
    "button.draw_accept": "引き分けを受ける",
    "button.draw_decline": "引き分けを断る",
    "abort.too_late": (
        "対局 #{game} はもう中止できません。双方が指しました。投了するか引き分けを提案してください"
        "。"
    ),
    "abort.done": "{name} さんが対局 #{game} を中止しました。",
    "takeback.nothing": "対局 #{game} で待ったできる手がありません。",
    "takeback.asked": (
        "{name} さんが対局 #{game} で待った（{moves}）を頼んでいます。{opponent} さん、"
        "同意しますか？"
    ),
    "takeback.already": "すでに頼んでいます。{opponent} さんの返事を待ってください。",
    "takeback.none_to_answer": "{opponent} さんからの待ったの依頼はありません。",
    "takeback.declined": "{name} さんが対局 #{game} の待ったを断りました。",
    "takeback.done": "{name} さんが同意しました：{moves} を戻しました。",
    "takeback.bad_arg": (
        "/takeback（依頼）、/takeback accept、/takeback decline のいずれかを書いてください。"
        "{word!r} はどれでもありません。"
    ),
    "button.takeback_accept": "待ったを認める",
    "button.takeback_decline": "断る",
    "impasse.not_your_turn": "入玉宣言は自分の手番にします。今は {name} さんの手番です。",
    "impasse.none": "{variant}には入玉宣言の規定がありません。",
    "impasse.refused": "入玉宣言は認められません：{reasons}。",
    "impasse.unmet.king_in_zone": "玉が敵陣に入っていません",
    "impasse.unmet.pieces_in_zone": (
        "玉以外の自分の駒が敵陣に{pieces}枚しかありません（{pieces_needed}枚以上必要）"
    ),
    "impasse.unmet.not_in_check": "王手がかかっています",
    "impasse.unmet.points": "点数が{points}です（{needed}点必要）",
    "impasse.done": "{name} さんが{points}で入玉宣言をしました。",
    # --- games --------------------------------------------------------------------------
    "games.none": "進行中の対局はありません。/challenge で始めてください。",
    "games.title": "進行中の対局：",
    "games.line": "#{game} 対 {opponent} · {variant} · {n}手目 · {turn}{deadline} · {where}",
    "games.your_turn": "あなたの手番",
    "games.their_turn": "{name} さんの手番",
    "games.here": "このチャット",
    "games.elsewhere": "チャット {chat}",
    # --- export -------------------------------------------------------------------------
    "export.event": "Komabot 対局 #{game}",  # the record's event (棋戦) field
    "export.bad_format": (
        "{fmt!r} は出力できる形式ではありません。{formats} のいずれかを使ってください。"
    ),
    "export.none": "このチャットに出力する対局がありません。対局番号を指定してください。",
    "export.done": "対局 #{game}（{fmt}）。",
    "export.not_for_variant": (
        "{variant}の対局は {fmt} では書けません。{formats} のいずれかを使ってください。"
    ),
    "export.unavailable": "{fmt} の出力はできません：{problem}",
    "export.too_big": (
        "対局 #{game} のアニメーションは大きすぎて送れません。KIF か CSA をお試しください。"
    ),
    "export.busy": (
        "ほかのアニメーションを作成中です。1分ほどしてからもう一度 /export gif {game} を"
        "どうぞ（KIF などの棋譜はすぐに出せます）。"
    ),
    "export.replaced": (
        "Shift-JIS では {chars} を表せないため、この {fmt} ファイルでは ? に置き換えました。"
        "/export kifu {game}（UTF-8）ならそのまま残ります。"
    ),
    # --- piece / cheatsheet -------------------------------------------------------------
    "piece.missing": "どの駒ですか？ 例：/piece 飛、/piece 飛車、/piece SP",
    "piece.not_found": "{problem}（{sheets} ですべての駒を表示します。）",
    "piece.caption": (
        "{name}（{kanji}、{romaji}）— {variant}。動き：{moves}（ベッツァ記法：{betza}）。{promotes}"
    ),
    "piece.which": (
        "{query!r} に当てはまる駒が複数あります：{names}。どれですか？"
        "（{sheets} ですべての駒を表示します。）"
    ),
    "describe.step": "{directions}に1マス",
    "describe.slide": "{directions}に何マスでも",
    "describe.range": "{directions}に{limit}マスまで",
    "describe.jump": "{directions}に{n}マス先へ跳ぶ（間の駒を跳び越える）",
    "describe.knight": "{along}に{long}マス、{across}に{short}マスのマスへ跳ぶ",
    "describe.knight_wide": "{across}に{long}マス、{along}に{short}マスのマスへ跳ぶ",
    "describe.repeat": "{move}、マスが空いている限り一直線に何度でも",
    "describe.repeat_up_to": "{move}、マスが空いている限り一直線に{limit}回まで",
    "describe.or": "または",
    "describe.list": "、",
    "describe.parts": "；",
    "describe.dir.any": "全方向",
    "describe.dir.forward": "前",
    "describe.dir.backward": "後ろ",
    "describe.dir.sideways": "横",
    "describe.dir.left": "左",
    "describe.dir.right": "右",
    "describe.dir.diagonal": "斜め",
    "describe.dir.diagonally_forward": "斜め前",
    "describe.dir.diagonally_backward": "斜め後ろ",
    "describe.dir.forward_left": "左斜め前",
    "describe.dir.forward_right": "右斜め前",
    "describe.dir.backward_left": "左斜め後ろ",
    "describe.dir.backward_right": "右斜め後ろ",
    "describe.along.forward": "前",
    "describe.along.backward": "後ろ",
    "describe.across.side": "横",
    "describe.across.left": "左",
    "describe.across.right": "右",
    "describe.n.1": "1",
    "describe.n.2": "2",
    "describe.n.3": "3",
    "describe.n.4": "4",
    "piece.promotes": "成ると{name}になります。",
    "piece.promoted_from": "{name}の成駒です。",
    "variant.unknown": "{word!r} は将棋の種類ではありません。shogi、wa、wa-drops のいずれかです。",
    "cheatsheet.caption": "{variant}の全駒。",
    "diagram.pieces_and_promotions": "駒と成り",
    "diagram.promoted": "成 {name}",
    "diagram.does_not_promote": "成らない",
    "diagram.king": "玉将",
    "diagram.one_step": "1マス",
    "diagram.jump": "駒を跳び越える",
    "diagram.slide": "何マスでも",
    "diagram.slide_at_most": "{n}マスまで",
    # --- settings -----------------------------------------------------------------------
    "settings.show": (
        "このチャットの設定：\n"
        "• language：{language}（en 英語、ru ロシア語、ja 日本語、pl ポーランド語）\n"
        "• notation：{notation}（western、japanese、usi）\n"
        "• style：{style}（kanji、international）\n"
        "• perspective：{perspective}（mover：手番の側を下に、sente：常に先手を下に）\n"
        "• bare：{bare}（on：7g7f のように指し手だけのメッセージで指せる。テキストコマンドの"
        "ある Discord チャンネル）\n"
        "• threads：{threads}（on：申し込みと対局ごとにスレッドを作る。Discord チャンネル）\n"
        "あなた個人の設定（全チャット共通）：\n"
        "• reminders：{reminders}（chat：対局のチャットに、dm：ボットからの個人メッセージで）\n"
        "変更の例：/settings language en、/settings notation western、/settings bare on、"
        "/settings reminders dm..."
    ),
    "settings.changed": "設定を変更しました：{changes}。",
    "settings.bad_key": (
        "{word!r} は設定ではありません。設定は language、notation、style、perspective、bare、"
        "threads、reminders です。"
    ),
    "settings.which_key": (
        "{word!r} は {keys} のどれにも当てはまります。先に設定名を書いてください"
        "（例：/settings threads {word}）。"
    ),
    "settings.not_admin": (
        "このチャットの設定を変えられるのは管理者だけです。/settings reminders dm|chat は"
        "どこでも自分で選べます。"
    ),
    "settings.admin_unknown": (
        "このグループの管理者かどうか確認できませんでした。少ししてからもう一度お試しください。"
    ),
    "settings.bad_value": "{value!r} は {key} の値ではありません。{choices} から選んでください。",
    "settings.missing_value": "{key} の値を指定してください：{choices} のいずれか。",
    # --- clocks -------------------------------------------------------------------------
    "clock.reminder": (
        "⏰ {name} さん、{opponent} さんとの対局 #{game} はあなたの手番です。残り{left}です。"
    ),
    "clock.timeout": "{name} さんが時間切れになりました。",
    # --- playing the bot ----------------------------------------------------------------
    "bot.brand": "Komabot",
    "bot.name": "Komabot（レベル{level}）",
    "bot.mention": "私へのメンション",
    "bot.started": (
        "{name}は数秒以内に指し、時間切れにはなりません。1手の持ち時間はあなただけのものです。"
    ),
    "bot.to_move": "{name}（{color}）が考えています…",
    "bot.thinking": "{name}が対局 #{game} の次の手を考えています。数秒で指します。",
    "bot.no_draw": (
        "{name}は対局 #{game} の引き分けを断ります：どの対局も最後まで指します。"
        "続けるか、/resign してください。"
    ),
    "bot.failed": (
        "{name}は対局 #{game} で指せませんでした：エンジンに問題が起きました。何も失われて"
        "いません。{delay}後に（再起動後にも）もう一度指します。"
    ),
    "bot.level_range": (
        "{word!r} はレベルではありません。{low}（最弱）から{high}（最強）まで選んでください"
        "（例：/play wa level 4）。"
    ),
    "bot.level_missing": "{word!r} の後に私のレベルを1〜8の数字で書いてください：/play wa level 4",
    "bot.level_for_bot": (
        "レベル{level}は私との対局用です：/play level {level} または /challenge bot level "
        "{level}。1手の持ち時間は 1d、3d、7d と書きます。"
    ),
    "play.bad_arg": (
        "/play の {word!r} が読めません。/play [shogi|wa|wa-drops] [level 1-8] "
        "[random|sente|gote] [1d|3d|7d|none] と書いてください（例：/play wa level 4 sente）。"
    ),
    "play.person": (
        "/play は私との対局です。{name} さんと指すなら /challenge で相手を指定してください。"
    ),
    "button.play_bot": "ボットと対局",
    "help.play_bot": "今すぐ私と指すには：/play [種類] [level 1-8]、または下のボタン。",
    # --- front ends ---------------------------------------------------------------------
    "button.not_yours": "このボタンはほかの人のためのものです。",
    "console.only_you": "（あなたにだけ表示）",
    "console.image": "画像：{path}",
    "console.file": "ファイル：{path}",
    "console.banner": (
        "Komabot コンソール：どのユーザーとしても発言できます。\n"
        "  @alice /challenge @bob wa     alice（名前は自由）として発言し、bob に和将棋を申し込む\n"
        "  @bob /accept                  bob が受ける；  @alice /move 8h8g  alice が指す\n"
        "  /play wa level 4              ボットと対局（または /challenge @komabot wa level 4）\n"
        "  /as bob                       以後 bob として発言（現在：{user}）\n"
        "  /chat 名前                    別のチャットへ移る（現在：{chat}）\n"
        "  /help                         ボットのコマンド；  /quit または Ctrl-D で終了\n"
        "ボタンは [ラベル: /コマンド] と表示されます。押すにはそのコマンドを入力してください。\n"
        "画像とファイルの保存先：{out}"
    ),
    "console.say_something": "（{user} として何か入力してください。例：@{user} /board）",
    "console.not_a_command": (
        "（コマンドではありません：{line}。コマンドは / で始まります。例：/help）"
    ),
    "console.write_as": "（/as 名前 と入力してください）",
    "console.write_chat": "（/chat 名前 と入力してください）",
    "console.you_are": "（現在のあなた：{user}）",
    "console.in_chat": "（現在のチャット：{chat}）",
    "console.to_chat": "[ボット → チャット {chat}]",
    "console.to_user": "[ボット → @{user} 個人あて]",
    "console.updates": "[ボットがチャット {chat} の {card} を更新]",
    "discord.activity": "/shogi help",
    "discord.group": "本将棋と和将棋を通信対局で",
    "slash.command.challenge": "申し込む",
    "slash.command.play": "ボット対局",
    "slash.command.accept": "承諾",
    "slash.command.decline": "断る",
    "slash.command.cancel": "取り下げ",
    "slash.command.move": "指す",
    "slash.command.board": "盤面",
    "slash.command.moves": "利き",
    "slash.command.resign": "投了",
    "slash.command.draw": "引き分け",
    "slash.command.abort": "中止",
    "slash.command.takeback": "待った",
    "slash.command.impasse": "入玉宣言",
    "slash.command.games": "対局一覧",
    "slash.command.rating": "レーティング",
    "slash.command.leaderboard": "ランキング",
    "slash.command.history": "対局履歴",
    "slash.command.export": "棋譜",
    "slash.command.piece": "駒",
    "slash.command.cheatsheet": "駒一覧",
    "slash.command.settings": "設定",
    "slash.command.help": "ヘルプ",
    "slash.option.opponent": "相手",
    "slash.option.variant": "種類",
    "slash.option.color": "手番",
    "slash.option.time": "持ち時間",
    "slash.option.rating": "レーティング",
    "slash.option.level": "レベル",
    "slash.option.challenge": "申し込み",
    "slash.option.move": "指し手",
    "slash.option.game": "対局",
    "slash.option.square": "マス",
    "slash.option.answer": "返答",
    "slash.option.user": "プレイヤー",
    "slash.option.page": "ページ",
    "slash.option.format": "形式",
    "slash.option.name": "名前",
    "slash.option.language": "言語",
    "slash.option.notation": "表記",
    "slash.option.style": "駒の字体",
    "slash.option.perspective": "盤の向き",
    "slash.option.bare": "指し手だけ",
    "slash.option.threads": "スレッド",
    "slash.option.reminders": "リマインダー",
    "slash.option.command": "コマンド",
    "discord.bad_option": "オプション {option!r} を読めませんでした：{problem}",
    "discord.too_big": "（{files}：このチャットの上限 {limit} を超えるため送れませんでした。）",
    "discord.intent_missing": (
        "Discord が Message Content インテントを拒否しました。開発者ポータル（アプリケーション、"
        "Bot、Privileged Gateway Intents）で有効にするか、DISCORD_MESSAGE_CONTENT=0 を"
        "設定してください。"
    ),
    "challenge.thread_name": "将棋：{name} さんの申し込み",
    "discord.thread_opened": "申し込みを {thread} に投稿しました。対局はそちらで行います。",
    # --- Telegram: the bot's profile (setMyDescription, setMyShortDescription) ---------------
    "telegram.description": (
        "Komabot です。本将棋と和将棋の通信対局ができます（この個人チャットでもグループでも）。"
        "/challenge で相手に申し込むか、/play で私と対局してください。指し手は ７六歩、P-7f、7g7f "
        "のように書き、一手ごとに盤面が届きます。/piece と /cheatsheet で駒の動きを、/help ですべて"
        "のコマンドを表示します。"
    ),
    "telegram.short_description": (
        "本将棋と和将棋の通信対局：対局の申し込み、盤面画像、レーティング。"
    ),
    # --- slash-command options and the names of their choices (Discord) ------------------
    "arg.game": "対局番号（複数の対局があるときや観戦するとき）",
    "arg.challenge.opponent": "申し込む相手（私でも可）。誰でもよければ省略",
    "arg.challenge.variant": "本将棋、和将棋（持ち駒なし）、和将棋（持ち駒あり）",
    "arg.challenge.color": "自分の手番：ランダム、先手、後手",
    "arg.challenge.time": "1手の持ち時間",
    "arg.challenge.rating": "レーティング対局（既定）か非レーティング",
    "arg.challenge.level": "私に申し込むとき：私の強さ（1〜8）",
    "arg.play.level": "私の強さ：1（最弱）〜8（最強）",
    "arg.play.time": "あなたの1手の持ち時間",
    "arg.challenge": "申し込み番号",
    "arg.move.move": "指し手：７六歩、P-7f、7g7f、SP-6h など",
    "arg.moves.square": "駒のあるマス（例：7g）",
    "arg.draw.answer": "提案、承諾、拒否",
    "arg.takeback.answer": "依頼、承諾、拒否",
    "arg.rating.user": "誰のレーティングか（省略時は自分）",
    "arg.rating.variant": "この種類だけ",
    "arg.leaderboard.variant": "どの種類か（省略時はここで最後に指された種類）",
    "arg.leaderboard.page": "ページ番号（1ページ10人）",
    "arg.history.user": "誰の対局か（省略時は自分）",
    "arg.history.page": "ページ番号（1ページ10局）",
    "arg.export.format": "ファイル形式",
    "arg.piece.name": "駒の名前、コード、漢字：飛車、SP、飛、萑歩",
    "arg.piece.variant": "どの種類で探すか",
    "arg.cheatsheet.variant": "どの種類か",
    "arg.settings.language": "このチャットでのボットの言語",
    "arg.settings.notation": "指し手の表記",
    "arg.settings.style": "駒の見た目",
    "arg.settings.perspective": "盤の向き：手番の側から、または常に先手から",
    "arg.settings.bare": "指し手だけのメッセージで指す",
    "arg.settings.threads": "このチャンネルで対局ごとにスレッドを作る",
    "arg.settings.reminders": "リマインダーの送り先：対局のチャットか個人メッセージ",
    "arg.help.command": "コマンド名",
    "choice.variant.shogi": "本将棋",
    "choice.variant.wa": "和将棋（持ち駒なし）",
    "choice.variant.wa-drops": "和将棋（持ち駒あり）",
    "choice.color.random": "ランダム",
    "choice.color.sente": "先手",
    "choice.color.gote": "後手",
    "choice.time.1d": "1手1日",
    "choice.time.3d": "1手3日",
    "choice.time.7d": "1手7日",
    "choice.time.none": "持ち時間なし",
    "choice.rating.rated": "レーティング対局",
    "choice.rating.casual": "非レーティング",
    "choice.answer.offer": "提案する",
    "choice.answer.ask": "頼む",
    "choice.answer.accept": "承諾する",
    "choice.answer.decline": "断る",
    "choice.language.en": "英語",
    "choice.language.ru": "ロシア語",
    "choice.language.ja": "日本語",
    "choice.language.pl": "ポーランド語",
    "choice.notation.western": "西洋式（P-7f）",
    "choice.notation.japanese": "日本式（７六歩）",
    "choice.notation.usi": "USI（7g7f）",
    "choice.style.kanji": "漢字",
    "choice.style.international": "国際式（西洋の記号）",
    "choice.perspective.mover": "手番の側を下に",
    "choice.perspective.sente": "常に先手を下に",
    "choice.bare.on": "オン",
    "choice.bare.off": "オフ",
    "choice.threads.on": "オン",
    "choice.threads.off": "オフ",
    "choice.reminders.chat": "対局のチャット",
    "choice.reminders.dm": "個人メッセージ",
    # --- help ---------------------------------------------------------------------------
    "help.title": "Komabot は本将棋と和将棋の通信対局ができます。コマンド：",
    "help.footer": "詳しくは /help コマンド名。指し手は ７六歩、P-7f、7g7f のどれでも書けます。",
    # the placeholders of a command's syntax in /help (the words a player types stay)
    "syntax.user": "相手",
    "syntax.challenge": "申し込み番号",
    "syntax.game": "対局番号",
    "syntax.page": "ページ",
    "syntax.command": "コマンド",
    "syntax.move": "指し手",
    "syntax.square": "マス",
    "syntax.name": "駒名",
    "help.command": "/{name} {syntax}\n{summary}\n例：{example}{aliases}",
    "help.aliases": "\n別名：{aliases}",
    "help.unknown": "{word!r} というコマンドはありません。/help ですべて表示します。",
    "help.move_extra": (
        "\n書き方：日本式（７六歩、同　歩、２二角成）、西洋式（P-7f、Bx2b+、S*5e、SP-6h）、"
        "USI（7g7f、P*5e、8h2b+）。"
    ),
}

# Counted messages: Japanese has one plural category.
JA_PLURAL: dict[str, dict[str, str]] = {
    "unit.d": {"other": "{n}日"},
    "unit.h": {"other": "{n}時間"},
    "unit.m": {"other": "{n}分"},
    "rating.streak.wins": {"other": "{n}連勝"},
    "rating.streak.losses": {"other": "{n}連敗"},
    "rating.streak.draws": {"other": "{n}局連続引き分け"},
    "impasse.points": {"other": "{n}点"},
}
