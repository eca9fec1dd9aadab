#!/usr/bin/env python3
"""Build the font subsets in ``data/fonts/`` from the Noto CJK fonts.

Needs fontTools, the Noto CJK collections and the Noto Sans and Serif fonts (Debian:
``apt-get install fonts-noto-cjk fonts-noto-core``).  Writes three OpenType files that cover
every character of ``data/variants/*.toml`` plus what the renderer draws (see
``render/charset.py``) and the OFL licence.  Noto CJK has no Polish letters (ą ć ę ł ś ź ż):
the characters it lacks are taken from Noto Sans or Serif, the same family's Latin faces.  To
hold glyphs from both, the subset's outlines are converted from CFF to TrueType (quadratic)
curves, as the Latin faces are.

    .venv/bin/python scripts/make_font_subset.py [--source-dir /usr/share/fonts/opentype/noto]
        [--latin-dir /usr/share/fonts/truetype/noto]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from fontTools import subset
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.recordingPen import DecomposingRecordingPen
from fontTools.pens.transformPen import TransformPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTCollection, TTFont, newTable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from render.charset import label_chars, required_chars  # noqa: E402

OUT_DIR = ROOT / "data" / "fonts"
DEBIAN_COPYRIGHT = Path("/usr/share/doc/fonts-noto-cjk/copyright")


@dataclass(frozen=True)
class Target:
    out_name: str  # file written in data/fonts/
    collection: str  # .ttc file in the source folder
    latin: str  # .ttf in the Latin folder: the letters the CJK face lacks
    labels: bool  # cover the label set (with kana) rather than the required set


TARGETS = (
    Target("KomabotSerif-Bold.otf", "NotoSerifCJK-Bold.ttc", "NotoSerif-Bold.ttf", labels=False),
    Target(
        "KomabotSans-Regular.otf", "NotoSansCJK-Regular.ttc", "NotoSans-Regular.ttf", labels=True
    ),
    Target("KomabotSans-Bold.otf", "NotoSansCJK-Bold.ttc", "NotoSans-Bold.ttf", labels=True),
)


def japanese_face(path: Path) -> TTFont:
    """The proportional Japanese face ("... CJK JP") of a Noto CJK collection."""
    collection = TTCollection(str(path))
    for font in collection.fonts:
        name = font["name"].getDebugName(4) or ""
        if " CJK JP" in name and "Mono" not in name:
            return font
    raise SystemExit(f"{path}: no Japanese face found")


def make_subset(font: TTFont, chars: set[str]) -> TTFont:
    """``font`` cut down to ``chars`` (all of which it has)."""
    options = subset.Options()
    options.layout_features = []  # no GSUB/GPOS features: the renderer lays out glyph by glyph
    options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 7, 13, 14]
    options.name_languages = [0x409]
    options.hinting = False
    options.desubroutinize = True
    options.notdef_outline = True
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=[ord(c) for c in chars])
    subsetter.subset(font)
    for tag in ("BASE", "VORG", "vhea", "vmtx", "GDEF", "GSUB", "GPOS"):
        if tag in font:
            del font[tag]
    return font


def to_truetype(font: TTFont) -> None:
    """Convert ``font``'s CFF outlines to TrueType ones in place (cubic curves approximated
    by quadratic ones within a thousandth of the em)."""
    order = font.getGlyphOrder()
    glyphs = font.getGlyphSet()
    glyf = newTable("glyf")
    glyf.glyphOrder = order
    glyf.glyphs = {}
    for name in order:
        pen = TTGlyphPen(None)
        glyphs[name].draw(Cu2QuPen(pen, max_err=1.0, reverse_direction=True))
        glyf[name] = pen.glyph()
    del font["CFF "]
    font["glyf"] = glyf
    font["loca"] = newTable("loca")
    font["head"].glyphDataFormat = 0
    maxp = font["maxp"]
    maxp.tableVersion = 0x00010000
    for field in (
        "maxZones",
        "maxTwilightPoints",
        "maxStorage",
        "maxFunctionDefs",
        "maxInstructionDefs",
        "maxStackElements",
        "maxSizeOfInstructions",
        "maxComponentElements",
        "maxComponentDepth",
    ):
        setattr(maxp, field, 1 if field == "maxZones" else 0)
    for field in ("maxPoints", "maxContours", "maxCompositePoints", "maxCompositeContours"):
        setattr(maxp, field, 0)  # recalculated when the font is saved
    font["post"].formatType = 3.0  # no glyph names: the renderer maps characters only
    font.sfntVersion = "\x00\x01\x00\x00"


def borrow(font: TTFont, donor: TTFont, chars: set[str]) -> None:
    """Add ``donor``'s glyphs of ``chars`` to ``font`` (TrueType outlines, scaled to its em),
    with their advance widths, mapped in every Unicode cmap subtable."""
    scale = font["head"].unitsPerEm / donor["head"].unitsPerEm
    donor_cmap = donor.getBestCmap()
    donor_glyphs = donor.getGlyphSet()
    order = list(font.getGlyphOrder())
    glyf, hmtx = font["glyf"], font["hmtx"]
    for c in sorted(chars):
        source = donor_cmap[ord(c)]
        recording = DecomposingRecordingPen(donor_glyphs)  # accents drawn into one outline
        donor_glyphs[source].draw(recording)
        pen = TTGlyphPen(None)
        recording.replay(TransformPen(pen, (scale, 0, 0, scale, 0, 0)))
        name = f"uni{ord(c):04X}"
        glyph = pen.glyph()
        glyf.glyphs[name] = glyph
        order.append(name)
        glyph.recalcBounds(glyf)
        advance = round(donor["hmtx"][source][0] * scale)
        hmtx[name] = (advance, getattr(glyph, "xMin", 0))
        for table in font["cmap"].tables:
            if table.isUnicode():
                table.cmap[ord(c)] = name
    font.setGlyphOrder(order)
    glyf.glyphOrder = order


def licence_text(copyright_notice: str) -> str:
    """The OFL 1.1 text from the Debian copyright file, under the fonts' copyright notice."""
    lines = DEBIAN_COPYRIGHT.read_text(encoding="utf-8").splitlines()
    start = lines.index("License: SIL-1.1", lines.index("Files: debian/*"))
    body: list[str] = []
    for line in lines[start + 1 :]:
        if line and not line.startswith(" "):
            break
        body.append("" if line.strip() == "." else line[1:])
    return f"{copyright_notice}\n\n" + "\n".join(body).strip() + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source-dir", type=Path, default=Path("/usr/share/fonts/opentype/noto"))
    parser.add_argument("--latin-dir", type=Path, default=Path("/usr/share/fonts/truetype/noto"))
    parser.add_argument("--out-dir", type=Path, default=OUT_DIR)
    args = parser.parse_args()
    args.out_dir.mkdir(parents=True, exist_ok=True)
    notices: list[str] = []
    for target in TARGETS:
        source = args.source_dir / target.collection
        if not source.exists():
            raise SystemExit(f"{source} not found: apt-get install fonts-noto-cjk")
        latin_path = args.latin_dir / target.latin
        if not latin_path.exists():
            raise SystemExit(f"{latin_path} not found: apt-get install fonts-noto-core")
        font = japanese_face(source)
        latin = TTFont(str(latin_path))
        chars = label_chars() if target.labels else required_chars()
        own = {c for c in chars if ord(c) in font.getBestCmap()}
        borrowed = chars - own
        lacking = sorted(c for c in borrowed if ord(c) not in latin.getBestCmap())
        if lacking:
            raise SystemExit(f"source fonts lack: {''.join(lacking)}")
        for used in (font, latin) if borrowed else (font,):
            notice = used["name"].getDebugName(0) or ""
            if notice not in notices:
                notices.append(notice)
        subsetted = make_subset(font, own)
        to_truetype(subsetted)
        borrow(subsetted, latin, borrowed)
        out = args.out_dir / target.out_name
        subsetted.recalcTimestamp = False  # same input, same bytes
        subsetted.save(str(out))
        print(
            f"{out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}: "
            f"{len(chars)} characters, {out.stat().st_size // 1024} KB"
        )
    (args.out_dir / "OFL.txt").write_text(licence_text("\n".join(notices)), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
