"""Players in the store: tokens, claimed names (unique by key), renames and deleted accounts."""

from __future__ import annotations

import pytest

from store.kit import Wall, guest
from zackzack.store import MatchStart, NameTaken, PlayerRecord, SeatRecord, Status, Store


def test_a_guest_is_found_by_token_and_id(store: Store) -> None:
    anna = guest(store, "p_anna", "Anna")
    assert store.find_token("h-p_anna") == anna == store.find_player("p_anna")
    assert store.find_token("h-unknown") is None and store.find_player("p_nobody") is None


def test_tokens_are_added_and_dropped(store: Store) -> None:
    guest(store, "p_anna")
    store.add_token("p_anna", "laptop")
    store.add_token("p_anna", "phone")
    assert store.drop_tokens("p_anna", keep="phone") == ["h-p_anna", "laptop"]
    assert store.find_token("laptop") is None and store.find_token("phone") is not None
    store.drop_token("phone")
    assert store.find_token("phone") is None
    assert store.drop_tokens("p_anna") == []


def test_a_claimed_name_is_unique_by_its_key(store: Store, wall: Wall) -> None:
    guest(store, "p_anna")
    guest(store, "p_anne")
    store.claim("p_anna", "Anna", "anna", "hash-1")
    found = store.account("anna")
    assert found == (PlayerRecord("p_anna", "Anna", claimed=True), "hash-1")
    with pytest.raises(NameTaken):
        store.claim("p_anne", "ANNA", "anna", "hash-2")
    assert store.find_player("p_anne") == PlayerRecord("p_anne", "Gast")  # nothing changed
    store.claim("p_anne", "Anne", "anne", "hash-2")
    with pytest.raises(NameTaken):
        store.rename_player("p_anne", "Anna", "anna")
    assert store.account("anne") is not None and store.account("anna") is not None
    profile = store.profile("p_anna")
    assert profile is not None and profile.claimed_at == wall.ms()


def test_a_rename_keeps_the_old_name_in_past_matches(store: Store) -> None:
    guest(store, "p_anna", "Anna")
    store.claim("p_anna", "Anna", "anna", "x")
    store.begin_match(MatchStart("m1", "ABCDEF", "schnelllauf", "t", {"players": 2}, {}, 1,
                                 None, (SeatRecord(0, "Anna", "p_anna"),
                                        SeatRecord(1, "Bot", bot="normal")), False, 0))
    store.finish_match("m1", Status.ABANDONED, 5, None)
    store.rename_player("p_anna", "Annika", "annika")
    assert store.account("anna") is None
    account = store.account("annika")
    assert account is not None and account[0].name == "Annika"
    record = store.match("m1")
    assert record is not None and record.seats[0].name == "Anna"
    store.rename_player("p_anna", "Annika!")  # the name only, the key stays
    account = store.account("annika")
    assert account is not None and account[0].name == "Annika!"


def test_the_password_hash_is_replaced(store: Store) -> None:
    guest(store, "p_anna")
    store.claim("p_anna", "Anna", "anna", "old")
    store.set_password_hash("p_anna", "new")
    assert store.account("anna") == (PlayerRecord("p_anna", "Anna", claimed=True), "new")


def test_a_deleted_player_leaves_neutral_seats_and_frees_the_name(store: Store,
                                                                  wall: Wall) -> None:
    guest(store, "p_anna", "Anna")
    guest(store, "p_ben", "Ben")
    store.claim("p_anna", "Anna", "anna", "x")
    store.add_token("p_anna", "phone")
    seats = (SeatRecord(0, "Anna", "p_anna"), SeatRecord(1, "Ben", "p_ben"))
    store.begin_match(MatchStart("m1", "ABCDEF", "schnelllauf", "t", {"players": 2}, {}, 1,
                                 None, seats, False, 0))
    store.finish_match("m1", Status.OVER, 5,
                       {"placings": [{"seat": 0, "place": 1}, {"seat": 1, "place": 2}]})
    wall.now += 60
    store.delete_player("p_anna")
    assert store.find_token("h-p_anna") is None and store.find_token("phone") is None
    assert store.find_player("p_anna") == PlayerRecord("p_anna", "", deleted=True)
    assert store.account("anna") is None
    assert store.profile("p_anna") is None and store.ratings_of("p_anna") == {}
    record = store.match("m1")
    assert record is not None
    assert [seat.to_json() for seat in record.seats] == [
        {"seat": 0, "name": "", "player": "p_anna", "bot": None, "deleted": True},
        {"seat": 1, "name": "Ben", "player": "p_ben", "bot": None}]
    log = store.log_json("m1")
    assert log is not None and log["players"] == ["", "Ben"]
    guest(store, "p_new")
    store.claim("p_new", "Anna", "anna", "y")  # the name is free again
