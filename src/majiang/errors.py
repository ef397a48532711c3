"""The one exception hierarchy of majiang.

Every error a user can cause is a :class:`MajiangError`. Front ends catch it and print its message;
nothing else escapes as a traceback.
"""

from __future__ import annotations


class MajiangError(ValueError):
    """Base class of every error caused by bad input."""


class InvalidHandError(MajiangError):
    """Tiles that cannot form the hand asked for (syntax, counts, copies, melds)."""


class NotationError(InvalidHandError):
    """A hand string that does not follow the notation; ``position`` is the 0-based offset."""

    def __init__(self, message: str, text: str = "", position: int | None = None) -> None:
        self.text = text
        self.position = position
        where = f" at position {position + 1} of {text!r}" if position is not None else ""
        super().__init__(f"{message}{where}")


class NotWinningError(InvalidHandError):
    """Fourteen tiles that form none of the winning shapes."""


class SituationError(MajiangError):
    """A win context that contradicts itself or the hand (e.g. robbing a kong of a held tile)."""


class OptionError(MajiangError):
    """An unknown rule option or a value of the wrong type."""


class MissingExtraError(ImportError, MajiangError):
    """A feature whose optional dependencies (an extra of the package) are not installed."""

    def __init__(self, extra: str, what: str) -> None:
        self.extra = extra
        super().__init__(
            f"{what} needs the {extra} extra: pip install '.[{extra}]' in majiang's clone"
        )


class InputError(MajiangError):
    """A file or stream that cannot be read as the text it should be (not UTF-8, binary)."""


def not_utf8(name: str, error: UnicodeDecodeError) -> InputError:
    """The error for ``name`` (a file, or stdin) that failed to decode as UTF-8."""
    data = bytes(error.object)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        kind = "UTF-16 text (as PowerShell's > writes it)"
    else:
        kind = f"not UTF-8 text (byte {data[error.start]:#04x} at offset {error.start})"
    return InputError(f"{name} is {kind}; save it as UTF-8")


class UsageError(OptionError):
    """A command line that cannot be run as written (a missing or contradictory argument): the
    command line reports it as a usage error, exit status 2."""
