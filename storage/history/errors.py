"""The history store's errors. All derive from `HistoryError`; bad input also from `ValueError`."""

from __future__ import annotations


class HistoryError(Exception):
    """Base class of history store errors."""


class HistoryUnavailableError(HistoryError):
    """The history database cannot be reached; nothing was read or written."""


class HistoryConfigError(HistoryError, ValueError):
    """`MONGODB_URI` (or the uri given) is not a MongoDB URI; refused before any connection."""


class ConversationNotFoundError(HistoryError, LookupError):
    """No such conversation for this user (it never existed, was deleted, or is someone else's)."""


class InvalidMessageIdError(HistoryError, ValueError):
    """A message or conversation id is not in the expected format."""


class MessageTooLargeError(HistoryError, ValueError):
    """A message is over the size limit; nothing was written."""


class InvalidHistoryInputError(HistoryError, ValueError):
    """Other bad input (unknown role, empty user id, reserved field name, ...)."""
