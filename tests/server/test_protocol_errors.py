"""Which error code a malformed client frame gets (docs/protocol.md, "Errors and limits").

Only a frame that is not a JSON object at all is ``bad_json``; an object without a ``type`` or
with a ``type`` this protocol does not have is ``unknown_type``; a missing, unknown or wrongly
typed field at any depth is ``bad_field``, and its reason names the field.
"""

from __future__ import annotations

import json

import pytest

from server.kit import World
from zackzack.server.protocol import MAX_MESSAGE_CHARS, Act, ProtocolError, decode
from zackzack.store import Store


def nested(depth: int) -> str:
    """``depth`` arrays, one inside the other."""
    return "[" * depth + "]" * depth


FRAMES: list[tuple[str, str | bytes, str, str | None]] = [
    # (what, frame, code, a word the reason must contain)
    # not a JSON object at all
    ("an array", "[1, 2]", "bad_json", None),
    ("a number", "7", "bad_json", None),
    ("a string", '"act"', "bad_json", None),
    ("null", "null", "bad_json", None),
    ("not JSON", '{"type": "act",', "bad_json", None),
    ("a wrong field, then not JSON", '{"type": "act", "ref": [], %', "bad_json", "JSON"),
    ("an unknown type, then not JSON", '{"type": "dance", %', "bad_json", "JSON"),
    ("a wrong nested field, then not JSON",
     '{"type": "create", "game": "x", "seats": [1], ]', "bad_json", "JSON"),
    ("a binary frame", b'{"type": "ping"}', "bad_json", None),
    ("too deep for msgspec", nested(5000), "bad_json", None),
    ("an act nested too deeply", '{"type": "act", "ref": 3, "action": ' + nested(1000) + "}",
     "bad_json", None),
    ("an unknown type nested too deeply", '{"type": "dance", "x": ' + nested(1000) + "}",
     "bad_json", None),
    ("too long", json.dumps({"type": "hello", "name": "x" * MAX_MESSAGE_CHARS}), "too_large",
     None),
    # the type
    ("no type", "{}", "unknown_type", "type"),
    ("no type but fields", '{"ref": 1, "action": {}}', "unknown_type", "type"),
    ("an unknown type", '{"type": "dance"}', "unknown_type", "dance"),
    ("an unknown type after other fields", '{"x": 1, "type": "dance"}', "unknown_type", "dance"),
    ("a type that is not a string", '{"type": 5}', "bad_field", "type"),
    ("a null type", '{"type": null}', "bad_field", "type"),
    # a field of a known type
    ("action a string", '{"type": "act", "ref": 7, "action": "draw"}', "bad_field", "action"),
    ("action a string, no ref", '{"type": "act", "action": "draw"}', "bad_field", "action"),
    ("action an array", '{"type": "act", "ref": 1, "action": [1]}', "bad_field", "action"),
    ("action null", '{"type": "act", "ref": 1, "action": null}', "bad_field", "action"),
    ("action missing", '{"type": "act", "ref": 1}', "bad_field", "action"),
    ("ref a string", '{"type": "act", "ref": "x", "action": {}}', "bad_field", "ref"),
    ("ref negative", '{"type": "act", "ref": -1, "action": {}}', "bad_field", "ref"),
    ("an unknown field", '{"type": "join", "code": "K7M2QX", "extra": 1}', "bad_field",
     "extra"),
    ("code a number", '{"type": "join", "code": 5}', "bad_field", "code"),
    ("ready a string", '{"type": "ready", "ready": "yes"}', "bad_field", "ready"),
    ("seats of numbers", '{"type": "create", "game": "schnelllauf", "seats": [1, 2]}',
     "bad_field", "seats[0]"),
    ("a seat of the wrong kind",
     '{"type": "create", "game": "schnelllauf", "seats": [{"kind": "robot"}]}',
     "bad_field", "seats[0].kind"),
    ("a seat's bot a number",
     '{"type": "create", "game": "schnelllauf", "seats": [{"kind": "bot", "bot": 3}]}',
     "bad_field", "seats[0].bot"),
    ("an unknown field in a seat",
     '{"type": "create", "game": "schnelllauf", "seats": [{"kind": "open", "x": 1}]}',
     "bad_field", "seats[0]"),
    ("options an array", '{"type": "create", "game": "schnelllauf", "options": []}',
     "bad_field", "options"),
    ("seek players a string", '{"type": "seek", "game": "schnelllauf", "players": "2"}',
     "bad_field", "players"),
]


@pytest.mark.parametrize(("frame", "code", "word"), [f[1:] for f in FRAMES],
                         ids=[f[0] for f in FRAMES])
def test_a_malformed_frame_gets_its_code(frame: str | bytes, code: str, word: str | None) -> None:
    with pytest.raises(ProtocolError) as refused:
        decode(frame)
    assert refused.value.code == code, refused.value
    if word is not None:
        assert word in refused.value.reason


@pytest.mark.parametrize(("frame", "ref"), [
    ('{"type": "act", "ref": 7, "action": "draw"}', 7),
    ('{"action": [1], "ref": 12, "type": "act"}', 12),
    ('{"type": "act", "ref": 3, "action": {}, "id": 5}', 3),
    ('{"type": "act", "ref": 3, "action": {}, "surprise": true}', 3),
    ('{"type": "dance", "ref": 4}', 4),
    ('{"type": "act", "ref": -1, "action": "draw"}', None),  # not a ref: none to name
    ('{"type": "act", "ref": true, "action": "draw"}', None),
    ("[1, 2]", None),
])
def test_the_ref_of_a_malformed_act_is_recovered(frame: str, ref: int | None) -> None:
    with pytest.raises(ProtocolError) as refused:
        decode(frame)
    assert refused.value.ref == ref


def test_a_well_formed_act_with_any_action_object_is_decoded() -> None:
    assert decode('{"type": "act", "ref": 1, "action": {"kind": "draw"}}') \
        == Act(ref=1, action={"kind": "draw"})


def test_the_session_answers_a_nested_wrong_type_with_bad_field_and_the_ref(store: Store) -> None:
    anna = World(store).client("Anna")
    replies = anna.send(type="act", ref=9, action=["draw"])
    assert [(m["type"], m["code"], m["ref"]) for m in replies] == [("error", "bad_field", 9)]
    assert "action" in replies[0]["reason"]
