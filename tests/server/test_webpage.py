"""The page as served: every module preloaded (no import waterfall), files versioned and kept.

The preload list is worked out from the ``import`` lines of ``web/js/*.js`` whenever the
client changes, so a module added today needs no list to be kept by hand; these tests check
that the real client's modules are all preloaded (or loaded on demand on purpose), that
nothing imports a module by a second address, and how the files are cached.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from zackzack.games import registered
from zackzack.server.app import WEB_DIR, Config, create_app
from zackzack.server.webpage import FOREVER, WebClient, closure, game_folders, imports
from zackzack.words import catalogue

JS = WEB_DIR / "js"
SRC_GAMES = WEB_DIR.parent / "games"
DYNAMIC = re.compile(r"""\bimport\(\s*["']\./([^"']+)["']\s*\)""")


def test_every_module_of_the_client_is_preloaded_or_loaded_on_demand() -> None:
    built = WebClient(WEB_DIR).current()
    assert built is not None
    modules = {f"js/{path.name}" for path in JS.glob("*.js")}
    on_demand = {f"js/{name}" for path in JS.glob("*.js")
                 for name in DYNAMIC.findall(path.read_text(encoding="utf-8"))}
    on_demand |= {f"js/{Path(name).name}" for folder in game_folders().values()  # with a board
                  for path in folder.glob("*.js")
                  for name in imports(path.read_text(encoding="utf-8"))}
    entry = {"js/app.js"}
    assert set(built.preloaded) <= modules
    missing = modules - set(built.preloaded) - entry - on_demand
    assert not missing, f"neither imported by app.js (at any depth) nor on demand: {missing}"
    html = built.html.decode()
    games = WebClient(WEB_DIR).game_modules()
    assert {"games/schnelllauf/cards.js", "games/unter-spannung/learn.js"} <= set(games)
    for name in [*built.preloaded, *games]:
        assert f'<link rel="modulepreload" href="/static/v/{built.version}/{name}">' in html
    assert html.index("modulepreload") < html.index('<script type="module"')


def test_modules_import_each_other_by_relative_address_only() -> None:
    """A module imported as ``/static/js/x.js`` by one and ``./x.js`` by another would run
    twice (two addresses, two modules); the page's versioned addresses make that likelier."""
    for path in JS.glob("*.js"):
        for specifier in imports(path.read_text(encoding="utf-8")):
            assert specifier.startswith("./") and specifier.endswith(".js"), (path.name, specifier)
            assert (JS / specifier).resolve().is_file(), (path.name, specifier)


def test_each_games_board_is_served_from_its_folder_under_the_version(tmp_path: Path) -> None:
    """A game's web board (``games/<pkg>/web/board.js``) imports the client's modules as
    ``../../js/x.js`` (the same addresses as theirs), is in the version's hash, and is served
    under ``/static/games/NAME/`` and ``/static/v/VERSION/games/NAME/`` like the rest."""
    folders = game_folders()
    assert set(folders) >= {"games/unter-spannung", "games/schnelllauf"}
    for place, folder in folders.items():
        for path in folder.glob("*.js"):
            for specifier in imports(path.read_text(encoding="utf-8")):
                assert specifier.startswith(("./", "../../js/")), (path, specifier)
                target = (WEB_DIR / place / specifier).resolve() if specifier.startswith(
                    "../../js/") else folder / specifier
                assert (WEB_DIR / "js" / Path(specifier).name).is_file() or target.is_file()
    client = WebClient(WEB_DIR)
    built = client.current()
    assert built is not None
    board = folders["games/schnelllauf"] / "board.js"
    assert any(path == str(board.resolve()) for path, _, _ in built.signature)
    with TestClient(create_app(Config(db=str(tmp_path / "z.db")))) as app:
        version = version_of(app.get("/").text)
        plain = app.get("/static/games/schnelllauf/board.js")
        assert plain.status_code == 200 and plain.headers["cache-control"] == "no-cache"
        assert "SchnelllaufBoard" in plain.text
        kept = app.get(f"/static/v/{version}/games/unter-spannung/board.js")
        assert kept.status_code == 200 and kept.headers["cache-control"] == FOREVER
        assert "javascript" in kept.headers["content-type"]
        assert app.get("/static/games/schnelllauf/../../../__init__.py").status_code == 404
        assert app.get("/static/games/nothing/board.js").status_code == 404
        games = app.get("/api/games").json()["games"]
        assert [g["name"] for g in games][:2] == ["unter-spannung", "schnelllauf"]
        assert games[0]["board"] == "/static/games/unter-spannung/board.js"
        assert games[0]["rules"] == "/rules/unter-spannung"
        players = games[0]["options"][0]
        assert players["name"] == "players" and players["default"] == 4


@pytest.fixture
def web(tmp_path: Path) -> Path:
    """A small client: app.js imports a.js (over several lines) which imports b.js; c.js is
    loaded on demand."""
    folder = tmp_path / "web"
    (folder / "js").mkdir(parents=True)
    (folder / "css").mkdir()
    (folder / "index.html").write_text(
        '<!doctype html><title>zackzack</title>\n<link rel="stylesheet" href="/static/css/x.css">'
        '\n<script type="module" src="/static/js/app.js"></script>')
    (folder / "css" / "x.css").write_text("body { color: red; }\n" * 100)
    (folder / "js" / "app.js").write_text(
        'import {\n  a,\n} from "./a.js";\nconst later = () => import("./c.js");\n')
    (folder / "js" / "a.js").write_text('export { b as a } from "./b.js";\n')
    (folder / "js" / "b.js").write_text("export const b = 1;\n")
    (folder / "js" / "c.js").write_text("export const c = 1;\n")
    return folder


@pytest.fixture
def client(tmp_path: Path, web: Path) -> Iterator[TestClient]:
    with TestClient(create_app(Config(db=str(tmp_path / "z.db"), web_dir=web))) as test_client:
        yield test_client


def version_of(page: str) -> str:
    found = re.search(r"/static/v/([0-9a-f]+)/js/app\.js", page)
    assert found is not None, page
    return found.group(1)


def test_the_page_preloads_the_imported_modules_under_the_current_version(
        client: TestClient) -> None:
    response = client.get("/")
    assert response.headers["cache-control"] == "no-cache"
    page = response.text
    version = version_of(page)
    links = re.findall(r'<link rel="modulepreload" href="([^"]+)">', page)
    games = [f"/static/v/{version}/{name}" for name in WebClient(WEB_DIR).game_modules()]
    assert links == [f"/static/v/{version}/js/a.js", f"/static/v/{version}/js/b.js", *games]
    assert f'href="/static/v/{version}/css/x.css"' in page
    for url in (*links, f"/static/v/{version}/js/app.js", f"/static/v/{version}/css/x.css"):
        file = client.get(url)
        assert file.status_code == 200 and file.headers["cache-control"] == FOREVER
    assert client.get("/", headers={"If-None-Match": response.headers["etag"]}).status_code == 304


def test_versioned_files_are_compressed_once_and_revalidate(client: TestClient) -> None:
    version = version_of(client.get("/").text)
    css = client.get(f"/static/v/{version}/css/x.css", headers={"Accept-Encoding": "gzip"})
    assert css.headers["content-encoding"] == "gzip" and css.text.startswith("body")
    assert css.headers["content-type"].startswith("text/css")
    raw = client.get(f"/static/v/{version}/css/x.css", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in raw.headers and raw.content.startswith(b"body")
    again = client.get(f"/static/v/{version}/css/x.css",
                       headers={"If-None-Match": css.headers["etag"]})
    assert again.status_code == 304
    assert client.get(f"/static/v/{version}/js/nothing.js").status_code == 404
    assert client.get(f"/static/v/{version}/../../z.db").status_code == 404


def test_plain_and_old_addresses_are_always_revalidated(client: TestClient) -> None:
    plain = client.get("/static/js/app.js")
    assert plain.status_code == 200 and plain.headers["cache-control"] == "no-cache"
    old = client.get("/static/v/0123456789ab/js/app.js")
    assert old.status_code == 200 and old.headers["cache-control"] == "no-cache"


def test_a_changed_client_is_served_as_it_is_now(client: TestClient, web: Path) -> None:
    before = client.get("/").text  # (new file, new size: noticed even on coarse clocks)
    (web / "js" / "d.js").write_text("export const d = 1;\n")
    (web / "js" / "b.js").write_text('import { d } from "./d.js";\nexport const b = d;\n')
    after = client.get("/").text
    version = version_of(after)
    assert version != version_of(before)
    assert f'<link rel="modulepreload" href="/static/v/{version}/js/d.js">' in after
    file = client.get(f"/static/v/{version}/js/b.js")
    assert "./d.js" in file.text and file.headers["cache-control"] == FOREVER


def test_a_file_changed_after_the_page_is_not_kept_under_its_version(client: TestClient,
                                                                     web: Path) -> None:
    version = version_of(client.get("/").text)
    (web / "js" / "b.js").write_text("export const b = 2; // changed after the page\n")
    file = client.get(f"/static/v/{version}/js/b.js")
    assert "changed" in file.text and file.headers["cache-control"] == "no-cache"
    fresh = client.get(f"/static/v/{version_of(client.get('/').text)}/js/b.js")
    assert "changed" in fresh.text and fresh.headers["cache-control"] == FOREVER


def test_the_client_names_no_game_each_game_brings_its_web_modules() -> None:
    """The client's own modules (``web/js/``) name no game outside their comments: a game's
    card art, rules page, tutorial and words come from its folder (``web/cards.js``,
    ``rules.js``, ``learn.js``), listed by ``/api/games`` under ``web``; the keys those name
    are in the catalogue."""
    comment = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
    found = registered()
    for path in JS.glob("*.js"):
        code = comment.sub("", path.read_text(encoding="utf-8"))
        for game in found:
            assert f'"{game.name}"' not in code and f"'{game.name}'" not in code, path.name
            assert game.name not in re.findall(r"[\w-]+", code), (path.name, game.name)
    for game in found:
        web = game.describe()["web"]
        assert set(web) >= {"board", "cards", "rules", "learn"}, game.name
        assert web["cards"] == f"/static/games/{game.name}/cards.js"
    web_words = set(catalogue("en")["web"])
    for path in SRC_GAMES.glob("*/web/*.js"):
        if path.stem in {"rules", "learn"}:  # their snake_case literals are catalogue keys
            keys = re.findall(r"""["']([a-z]+(?:_[a-z0-9]+)+)["']""", path.read_text("utf-8"))
            assert keys and set(keys) <= web_words, (path, set(keys) - web_words)


def page_json(page: str, name: str) -> object:
    found = re.search(rf'<script type="application/json" id="{name}">(.*?)</script>', page, re.S)
    assert found is not None, name
    return json.loads(found.group(1))


def test_the_page_carries_the_words_and_the_games(tmp_path: Path) -> None:
    """The client reads the words and the games from the page (js/i18n.js, js/games.js), with
    no request of its own before the first page shows; /words.json and /api/games stay for
    other clients and say the same."""
    with TestClient(create_app(Config(db=str(tmp_path / "z.db")))) as app:
        page = app.get("/").text
        assert page_json(page, "zz-words") == app.get("/words.json").json()
        assert page_json(page, "zz-games") == app.get("/api/games").json()
        assert page.index('id="zz-games"') < page.index('<script type="module"')


def test_the_page_changes_when_the_words_or_the_games_do(web: Path) -> None:
    data = {"zz-words": b'{"en": {"web": {"a": "</script><b>"}}}', "zz-games": b'{"games": []}'}
    client = WebClient(web, data=lambda: dict(data))
    first = client.current()
    assert first is not None
    assert "</script><b>" not in first.html.decode()
    assert page_json(first.html.decode(), "zz-words") == {"en": {"web": {"a": "</script><b>"}}}
    data["zz-games"] = b'{"games": [{"name": "x"}]}'
    second = client.current()
    assert second is not None and second.etag != first.etag
    assert client.current() is second  # unchanged: built once


def test_a_games_modules_never_wait_for_the_module_that_imports_them() -> None:
    """js/games.js imports each game's cards, rules and learn modules inside its top-level
    await; one that imported js/games.js back, even through js/cards.js (or any module that
    does), would wait for it for ever and the page would never show. So no game module imports
    js/cards.js or js/games.js, and what the awaited ones import never reaches js/games.js."""
    client = WebClient(WEB_DIR)
    awaited: list[str] = []
    for place, folder in game_folders().items():
        for path in folder.glob("*.js"):
            for specifier in imports(path.read_text(encoding="utf-8")):
                assert Path(specifier).name not in ("cards.js", "games.js") \
                    or not specifier.startswith("../../js/"), (path, specifier)
            if path.stem != "board":  # boards load later, outside the await
                awaited.append(f"{place}/{path.name}")
    reached = closure(awaited, client._read)
    assert "js/games.js" not in reached and "js/cards.js" not in reached, reached


def test_the_game_modules_are_preloaded_with_what_they_import() -> None:
    built = WebClient(WEB_DIR).current()
    assert built is not None
    html = built.html.decode()
    for name in ("js/sightings.js", "js/art.js", "games/schnelllauf/board.js"):
        assert f'<link rel="modulepreload" href="/static/v/{built.version}/{name}">' in html
