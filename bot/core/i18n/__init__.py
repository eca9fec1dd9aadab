"""The message catalogues as gettext ``.po`` files, one per language, beside this module.

``en.po`` is the source: each entry's ``msgctxt`` is the message's dotted key (``game.started``)
and its ``msgid`` the English text, a ``str.format`` template (``{game}``).  Every other file
(``ru.po``, ``ja.po``, ``pl.po``...) repeats the English text it translates as ``msgid`` and the
translation as ``msgstr``; counted messages have ``msgid_plural`` and one ``msgstr[N]`` per form
of the file's ``Plural-Forms`` header.  Adding a language is adding one file
(``docs/translators.md``).  The files are read with Babel when the bot starts; nothing is
compiled.

- :mod:`.pofiles` finds, reads and writes the files;
- :mod:`.plurals` maps Babel's CLDR plural categories to a file's ``msgstr[N]`` indices;
- :mod:`.tables` turns the files into the lookup tables :mod:`bot.core.messages` serves;
- :mod:`.checks` finds what a translator must fix (``scripts/i18n check``, the tests);
- :mod:`.sync` marks translations stale when English changes and imports keys from the
  former Python dict catalogues (``scripts/i18n update``, ``scripts/i18n import-dicts``).
"""
