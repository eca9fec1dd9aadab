// Reads record files with tsshogi and json-kifu-format and prints what each reader saw, as
// JSON on stdout: the start SFEN, the moves in USI, whether every move was legal (replayed in
// a fresh tsshogi position), the special move that ends the game and the side to move there.
// Run by bench/record_readers.py:  node bench/record_readers.mjs <modules dir> <manifest.json>

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const [modules, manifestPath] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(modules), "index.js"));
const tsshogi = require("tsshogi");
const { JKFPlayer } = require("json-kifu-format");

const COLORS = { black: "sente", white: "gote" };
const JKF_PIECES = { FU: "P", KY: "L", KE: "N", GI: "S", KI: "G", KA: "B", HI: "R" };
const RANKS = "abcdefghi";

function replayLegal(sfen, usiMoves) {
  const position = tsshogi.Position.newBySFEN(sfen);
  if (!position) return false;
  for (const usi of usiMoves) {
    const move = position.createMoveByUSI(usi);
    if (!move || !position.isValidMove(move)) return false;
    position.doMove(move);
  }
  return true;
}

function readTsshogi(text, format) {
  const record = format === "csa" ? tsshogi.importCSA(text) : tsshogi.importKIF(text);
  if (record instanceof Error) throw record;
  const sfen = record.initialPosition.sfen;
  const moves = [];
  let special = "none";
  const position = tsshogi.Position.newBySFEN(sfen);
  for (const node of record.moves.slice(1)) {
    if (node.move instanceof tsshogi.Move) {
      moves.push(node.move.usi);
      position.doMove(node.move, { ignoreValidation: true });
    } else {
      special = node.move.type === "any" ? `any:${node.move.name}` : node.move.type;
      break;
    }
  }
  return { sfen, moves, special, toMove: COLORS[position.color] };
}

function jkfSquare(square) {
  return `${square.x}${RANKS[square.y - 1]}`;
}

function readJkf(text, format) {
  const player = format === "csa" ? JKFPlayer.parseCSA(text) : JKFPlayer.parseKIF(text);
  const moves = [];
  let special = "none";
  player.goto(0);
  const sfen = player.shogi.toSFENString(1);
  for (const entry of player.kifu.moves.slice(1)) {
    if (entry.move) {
      const m = entry.move;
      const to = jkfSquare(m.to);
      moves.push(m.from ? `${jkfSquare(m.from)}${to}${m.promote ? "+" : ""}` : `${JKF_PIECES[m.piece]}*${to}`);
    } else {
      special = entry.special ?? "unknown";
      break;
    }
  }
  player.goto(moves.length);
  const toMove = player.shogi.turn === 0 ? "sente" : "gote";
  return { sfen, moves, special, toMove };
}

const READERS = { tsshogi: readTsshogi, "json-kifu-format": readJkf };
const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
const out = [];
for (const file of manifest) {
  const text = new TextDecoder(file.encoding).decode(readFileSync(file.path));
  for (const [reader, read] of Object.entries(READERS)) {
    try {
      const seen = read(text, file.format);
      out.push({ ...file, reader, ...seen, legal: replayLegal(seen.sfen, seen.moves) });
    } catch (error) {
      out.push({ ...file, reader, error: String(error?.message ?? error).slice(0, 200) });
    }
  }
}
process.stdout.write(JSON.stringify(out));
