"""Who is using the app: the OIDC-signed-in user (`st.login`) when `[auth]` is configured in
`.streamlit/secrets.toml`, otherwise one local user. History is keyed by `user_id`."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

import streamlit as st
from streamlit.errors import StreamlitSecretNotFoundError
from storage.settings import get_settings



@dataclass(frozen=True)
class Identity:
    user_id: str
    display_name: str
    signed_in: bool  # True for an OIDC user; False for the local user


def auth_configured() -> bool:
    """True when `.streamlit/secrets.toml` has an `[auth]` section (OIDC sign-in)."""
    try:
        return "auth" in st.secrets
    except StreamlitSecretNotFoundError:  # no secrets file at all, or an unreadable one
        return False


def current_identity() -> Identity | None:
    """The current user; None while OIDC is configured but nobody is signed in yet."""
    if not auth_configured():
        return Identity(get_settings().history.local_user, "Local user", False)
    if not st.user.get("is_logged_in", False):  # absent until a sign-in attempt
        return None
    # Prefer the provider's stable subject; e-mail is a fallback. Issuer keeps providers apart.
    subject = str(st.user.get("sub") or st.user.get("email") or "")
    issuer = str(st.user.get("iss") or "")
    user_id = "oidc-" + hashlib.sha256(f"{issuer}|{subject}".encode()).hexdigest()[:24]
    name = str(st.user.get("name") or st.user.get("email") or "Signed-in user")
    return Identity(user_id, name, True)


def require_identity() -> Identity:
    """The current user, or a sign-in screen (and stop) when OIDC is configured and nobody is in."""
    identity = current_identity()
    if identity is None:
        st.title("PDF chat")
        st.write("Sign in to see your documents and conversations.")
        st.button("Sign in", on_click=st.login, type="primary", icon=":material/login:")
        st.stop()
    return identity
