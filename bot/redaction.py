"""Credentials out of any text that echoes a setting, whatever the shape of the URL holding them.

A URL's password is what stands between ``USER:`` and the last ``@`` before the host, in a URL
written well (``postgresql://u:pw@h/db``) or not (``postgresql:/u:pw@h/db``,
``postgresql//u:pw@h/db``, ``postgres ql://u:pw@h/db``), or the value of a ``password=``
parameter (``?password=pw``, libpq's ``password=pw host=h``).  :func:`mask_credentials` hides
them all; :func:`passwords_in` finds them, so that logs can mask them wherever they show up.
Known tokens are masked by value: :func:`bot.config.redact`.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

MASK = "***"

# USER:PASSWORD@HOST, USER and HOST as in a URL's authority, PASSWORD anything without spaces
# or quotes up to the last "@" that a host follows (a password may hold "@", ":" and "/"), not
# starting with "/" (that is a scheme's "://", the user then follows).
_USERINFO = re.compile(
    r"""(?P<user>(?:^|(?<=[\s'"/:,;(=<\[]))[^\s'"/:@]*):(?P<password>(?!/)[^\s'"]*?)@"""
    r"""(?=[^\s'"@/?#]*(?:[/\s'"?#,;)>\]]|$))"""
)
_PARAMETER = re.compile(r"""(?i)(?P<key>(?:^|(?<=[\s?&;'"]))password=)(?P<password>[^\s&;'"]*)""")


def mask_credentials(text: str) -> str:
    """``text`` with every password it holds in a URL or a ``password=`` parameter replaced by
    ``***``; text without one comes back unchanged."""
    if "@" in text:
        text = _USERINFO.sub(lambda m: f"{m['user']}:{MASK}@" if m["password"] else m[0], text)
    if "=" in text:
        text = _PARAMETER.sub(lambda m: f"{m['key']}{MASK}" if m["password"] else m[0], text)
    return text


def passwords_in(text: str) -> tuple[str, ...]:
    """The passwords ``text`` holds (as written and URL-decoded), for log redaction."""
    found: set[str] = set()
    for pattern in (_USERINFO, _PARAMETER):
        for match in pattern.finditer(text):
            if match["password"]:
                found.update({match["password"], unquote(match["password"])})
    return tuple(sorted(found, key=len, reverse=True))
