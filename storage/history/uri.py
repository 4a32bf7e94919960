"""MongoDB URIs: checked before any connection, shown without credentials, and what to say when the
server refuses them."""

from __future__ import annotations

from pymongo.errors import ConfigurationError, OperationFailure
from pymongo.uri_parser import parse_uri

from storage.history.errors import HistoryConfigError


def redact_uri(uri: str) -> str:
    """`mongodb://user:secret@host/db?x` -> `mongodb://host` (for messages and logs)."""
    try:
        nodes = parse_uri(uri, validate=False, warn=True).get("nodelist") or []
        hosts = ",".join(f"{h}:{p}" for h, p in nodes)
    except Exception:  # noqa: BLE001 - whatever the parser raises, a bad URI must never leak through a message
        hosts = "<unparsable uri>"
    scheme = "mongodb+srv" if uri.startswith("mongodb+srv") else "mongodb"
    return f"{scheme}://{hosts}"


def check_uri(uri: str) -> None:
    """Raise HistoryConfigError, saying what is wrong but never the password, for a malformed URI.

    A `mongodb+srv://` URI is checked for syntax only: resolving its DNS records is the
    connection's job (a failure there is an outage, not bad configuration)."""
    srv = uri.startswith("mongodb+srv://")
    authority = uri.split("://", 1)[-1].split("/", 1)[0]
    userinfo, _, hosts = authority.rpartition("@")
    reason = "a mongodb+srv:// URI names one host, without a port" if srv and (":" in hosts or "," in hosts) else None
    try:
        parse_uri("mongodb://" + uri[len("mongodb+srv://"):] if srv else uri, validate=True, warn=False)
    except (ConfigurationError, ValueError) as exc:
        reason = str(exc)
        for secret in filter(None, (userinfo, userinfo.partition(":")[2])):
            reason = reason.replace(secret, "***")
    if reason:
        raise HistoryConfigError(f"MONGODB_URI is not a valid MongoDB URI ({reason}). Chat history is off until it "
                                 "is fixed (mongodb://user:password@host:port/, password URL-encoded) and the app "
                                 "restarted.")


def refusal(exc: OperationFailure) -> str | None:
    """What to tell the user when the server refuses the credentials or the rights; None otherwise."""
    if exc.code == 18:  # AuthenticationFailed
        return "refused the user name or password in MONGODB_URI (authentication failed)"
    if exc.code == 13:  # Unauthorized
        return "does not let the user in MONGODB_URI read and write the history (not authorized)"
    return None
