"""Users (AppTest): with OIDC configured nobody gets in unsigned, and each signed-in user sees
only their own conversations; without it, one local user."""

from __future__ import annotations

from storage.history.store import HistoryStore
from tests.fixtures_ui import has_doc_picker, new_app

AUTH = {"redirect_uri": "http://localhost:8501/oauth2callback", "cookie_secret": "test-cookie-secret-123456",
        "client_id": "pdf-chat", "client_secret": "test-client-secret-abcdef",
        "server_metadata_url": "https://accounts.example.org/.well-known/openid-configuration"}


def _user(sub: str, name: str) -> dict:
    return {"is_logged_in": True, "sub": sub, "iss": "https://accounts.example.org", "name": name, "email": f"{sub}@example.org"}


def test_configured_sign_in_blocks_anonymous_visitors(ui_env):
    at = new_app()
    at.secrets["auth"] = AUTH
    at.run()
    assert not at.exception
    assert [b.label for b in at.button] == ["Sign in"]
    assert not at.chat_input and not has_doc_picker(at)
    page_text = " ".join(m.value for m in at.markdown)
    assert "test-client-secret" not in page_text and "cookie" not in page_text


def test_each_signed_in_user_has_their_own_conversations(ui_env):
    store = HistoryStore(ui_env["mongo_uri"])
    seen = {}
    for sub, name in (("ada", "Ada Lovelace"), ("bob", "Bob Builder")):
        at = new_app()
        at.secrets["auth"] = AUTH
        at.user = _user(sub, name)
        at.run()
        assert not at.exception
        at.button(key="new-chat").click().run()
        assert not at.exception
        expander = next(e for e in at.expander if e.label == "Settings")
        assert any(c.value == f"Signed in as {name}" for c in expander.caption)
        assert any(b.label == "Sign out" for b in at.button)
        seen[sub] = at.session_state["identity"].user_id
    assert seen["ada"] != seen["bob"] and all(uid.startswith("oidc-") for uid in seen.values())
    assert len(store.list_conversations(seen["ada"])) == 1
    assert len(store.list_conversations(seen["bob"])) == 1
    # Bob's page lists only Bob's conversation.
    at = new_app()
    at.secrets["auth"] = AUTH
    at.user = _user("bob", "Bob Builder")
    at.run()
    [bob_conv] = store.list_conversations(seen["bob"])
    conv_buttons = [b for b in at.button if (b.key or "").startswith("conv-")]
    assert [b.key for b in conv_buttons] == [f"conv-{bob_conv['conversation_id']}"]


def test_without_sign_in_configured_there_is_one_local_user(ui_env):
    at = new_app().run()
    assert not at.exception
    assert at.session_state["identity"].user_id == ui_env["user_id"]
    assert not any(b.label == "Sign in" for b in at.button)
