"""Issue 16: read-only shares (``SHARE#`` items, "shared with me" on GSI1) and a chat's document selection,
on sqlite+file, moto DynamoDB and DynamoDB Local (the ``session_store`` fixture)."""

from __future__ import annotations

import pytest

from store.errors import InvalidInput, NotFound
from store.session_shares import SessionShares
from store.sessions import SessionStore


def test_share_is_owner_only_and_readable_by_owner_and_shared_users(session_store: SessionStore) -> None:
    shares = SessionShares(session_store.items)
    sid = session_store.create_session("alice", "Leave policy")
    assert shares.readable(sid, "alice")[1] == "owner"
    with pytest.raises(NotFound):
        shares.readable(sid, "bob")
    info = shares.share(sid, "alice", "bob")
    assert info["user"] == "bob" and info["shared_at"]
    assert shares.share(sid, "alice", "bob") == info  # idempotent
    view, access = shares.readable(sid, "bob")
    assert access == "viewer" and view["title"] == "Leave policy" and view["owner"] == "alice"
    with pytest.raises(NotFound):
        shares.readable(sid, "carol")  # a third user: as if it did not exist
    with pytest.raises(NotFound):
        shares.share(sid, "bob", "carol")  # a viewer cannot re-share
    with pytest.raises(InvalidInput):
        shares.share(sid, "alice", "alice")
    for bad in ("", "   ", "a#b", "a/b", "a\tb", "u" * 129):
        with pytest.raises(InvalidInput):
            shares.share(sid, "alice", bad)
    assert [s["user"] for s in shares.list_shares(sid, "alice")] == ["bob"]
    with pytest.raises(NotFound):
        shares.list_shares(sid, "bob")
    # the item layout: in the session's partition, on the sparse GSI1 under SHARED#<uid>
    item = session_store.items.get(f"SESSION#{sid}", "SHARE#bob")
    assert item is not None and item["GSI1PK"] == "SHARED#bob" and item["owner"] == "alice"


def test_shared_with_me_is_an_index_query_and_unshare_revokes(session_store: SessionStore) -> None:
    shares = SessionShares(session_store.items)
    a = session_store.create_session("alice", "A")
    b = session_store.create_session("carol", "B")
    session_store.create_session("alice", "not shared")
    shares.share(a, "alice", "bob")
    shares.share(b, "carol", "bob")
    got = shares.shared_with("bob")
    assert {s["session_id"] for s in got} == {a, b}
    assert {s["owner"] for s in got} == {"alice", "carol"}
    # the owner's own list is untouched by share items (another partition of the same index)
    assert sorted(s["title"] for s in session_store.list_sessions("alice")["items"]) == ["A", "not shared"]
    assert session_store.list_sessions("bob")["items"] == []
    with pytest.raises(NotFound):
        shares.unshare(a, "bob", "bob")  # only the owner takes a share back
    shares.unshare(a, "alice", "bob")
    with pytest.raises(NotFound):
        shares.readable(a, "bob")
    with pytest.raises(NotFound):
        shares.unshare(a, "alice", "bob")
    assert [s["session_id"] for s in shares.shared_with("bob")] == [b]
    # deleting the session removes its shares with it
    session_store.delete_session(b, user_id="carol")
    assert shares.shared_with("bob") == []
    assert session_store.items.get(f"SESSION#{b}", "SHARE#bob") is None


def test_document_selection_is_stored_on_the_session(session_store: SessionStore) -> None:
    sid = session_store.create_session("alice")
    assert session_store.get_session(sid)["document_ids"] is None
    session_store.set_documents(sid, ["d2", "d1", "d2"], user_id="alice")
    assert session_store.get_session(sid)["document_ids"] == ["d2", "d1"]
    with pytest.raises(NotFound):
        session_store.set_documents(sid, ["d3"], user_id="bob")
    with pytest.raises(InvalidInput):
        session_store.set_documents(sid, [], user_id="alice")
    with pytest.raises(InvalidInput):
        session_store.set_documents(sid, ["bad id!"], user_id="alice")
    session_store.set_documents(sid, None, user_id="alice")
    assert session_store.get_session(sid)["document_ids"] is None
