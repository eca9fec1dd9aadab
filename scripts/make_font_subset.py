#!/usr/bin/env python3
"""Build the font subsets in ``data/fonts/`` from the Noto CJK fonts.

Needs fontTools and the Noto CJK collections (Debian: ``apt-get install fonts-noto-cjk``).
Writes three OpenType (CFF) files that cover every character of ``data/variants/*.toml`` plus
what the renderer draws (see ``render/charset.py``), the OFL licence and the list of covered
characters (``coverage.txt``, read by the renderer to avoid drawing missing-glyph boxes).

    .venv/bin/python scripts/make_font_subset.py [--source-dir /usr/share/fonts/opentype/noto]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTCollection, TTFont

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from render.charset import label_chars, required_chars  # noqa: E402

OUT_DIR = ROOT / "data" / "fonts"
DEBIAN_COPYRIGHT = Path("/usr/share/doc/fonts-noto-cjk/copyright")


@dataclass(frozen=True)
class Target:
    out_name: str  # file written in data/fonts/
    collection: str  # .ttc file in the source folder
    labels: bool  # cover the label set (with kana) rather than the required set


TARGETS = (
    Target("KomabotSerif-Bold.otf", "NotoSerifCJK-Bold.ttc", labels=False),
    Target("KomabotSans-Regular.otf", "NotoSansCJK-Regular.ttc", labels=True),
    Target("KomabotSans-Bold.otf", "NotoSansCJK-Bold.ttc", labels=True),
)


def japanese_face(path: Path) -> TTFont:
    """The proportional Japanese face ("... CJK JP") of a Noto CJK collection."""
    collection = TTCollection(str(path))
    for font in collection.fonts:
        name = font["name"].getDebugName(4) or ""
        if " CJK JP" in name and "Mono" not in name:
            return font
    raise SystemExit(f"{path}: no Japanese face found")


def make_subset(font: TTFont, chars: set[str]) -> tuple[TTFont, set[str]]:
    cmap = font.getBestCmap()
    missing = sorted(c for c in chars if ord(c) not in cmap)
    if missing:
        raise SystemExit(f"source font lacks: {''.join(missing)}")
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
    return font, chars


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
    parser.add_argument("--out-dir", type=Path, default=OUT_DIR)
    args = parser.parse_args()
    args.out_dir.mkdir(parents=True, exist_ok=True)
    notices: list[str] = []
    for target in TARGETS:
        source = args.source_dir / target.collection
        if not source.exists():
            raise SystemExit(f"{source} not found: apt-get install fonts-noto-cjk")
        font = japanese_face(source)
        notice = font["name"].getDebugName(0) or ""
        if notice not in notices:
            notices.append(notice)
        chars = label_chars() if target.labels else required_chars()
        subsetted, _ = make_subset(font, chars)
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
