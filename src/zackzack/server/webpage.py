"""The web client as served: its page with every module preloaded, its files cached for good.

There is no build step. The page (``web/index.html``) is served with a
``<link rel="modulepreload">`` for every module its module scripts import, directly or not,
read from the ``import`` lines of ``web/js/*.js``: the browser fetches them all at once
instead of discovering them one level of imports after another. The page names the files
under ``/static/v/VERSION/``, VERSION being a hash of everything in ``web/``; files there may
be kept by browsers for a year without asking again (a new version is a new address), while
plain ``/static/`` answers ``no-cache`` (always revalidated, by ``ETag``). Both are worked
out again whenever a file under ``web/`` changes (its time or size), so an edited client is
served as it is now, without a restart.

Each game brings its web board in its own folder (``games/<pkg>/web/``): it is served as
``/static/games/NAME/`` (and under the version), hashed into VERSION and cached like the rest;
its modules import the client's as ``../../js/x.js`` (never ``js/cards.js`` or ``js/games.js``,
whose top-level await imports them), and the page preloads them, with what they import. Its
stylesheets (``web/*.css``) are linked by the page after the shared ones, so a game's board
brings its own styles.

The page also carries what the client needs before it can show anything, as
``<script type="application/json">`` blocks read synchronously: the words (``id="zz-words"``,
what ``/words.json`` sends) and the games (``id="zz-games"``, what ``/api/games`` sends). So the
first page waits for no further request; the page changes (and its ``ETag``) when they do.

>>> graph = {"app.js": "import { h } from './dom.js';\\nimport * as t from \\"./table.js\\";",
...          "table.js": 'import {\\n  a,\\n} from "./dom.js";\\nconst later = import("./x.js");',
...          "dom.js": "export const h = 1;"}
>>> imports(graph["table.js"])
['./dom.js']
>>> closure(["js/app.js"], lambda name: graph.get(name.removeprefix("js/")))
['js/dom.js', 'js/table.js']
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import mimetypes
import os
import posixpath
import re
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import anyio
import msgspec
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from zackzack.games import registered
from zackzack.words import browser_json

PREFIX = "/static/"
VERSIONED = "/static/v/"
FOREVER = "public, max-age=31536000, immutable"
STATIC_IMPORT = re.compile(
    r"""(?:^|[;\n])\s*(?:import|export)\b(?:[^;"'`()]*?\bfrom)?\s*["']([^"']+)["']""")
"""``import x from "./x.js"``, ``import "./x.js"``, ``export { y } from "./y.js"`` (over
several lines too); not ``import("./z.js")``: a module loaded on demand stays on demand."""
PAGE_DATA = ("zz-words", "zz-games")
"""The ids of the JSON blocks in the page (read by js/i18n.js and js/games.js)."""
ENTRY = re.compile(r"""<script\b[^>]*\btype=["']module["'][^>]*\bsrc=["']/static/([^"']+)["']""")
STATIC_URL = re.compile(r"""(\b(?:href|src)=["'])/static/(?!v/)""")


def game_folders() -> dict[str, Path]:
    """Where each registered game's web files are: ``games/NAME`` → its ``web`` folder."""
    return {f"games/{found.name}": web for found in registered()
            if (web := found.web) is not None}


def page_data() -> dict[str, bytes]:
    """The JSON the page carries, by block id: the words (``/words.json``) and the games
    (``/api/games``)."""
    games = {"games": [found.describe() for found in registered()]}
    return {"zz-words": browser_json()[0], "zz-games": msgspec.json.encode(games)}


def json_blocks(data: Mapping[str, bytes]) -> str:
    r"""``data`` as ``<script type="application/json">`` blocks; a ``<`` is written ``\u003c``
    (still the same JSON), so no text in it can close the script.

    >>> json_blocks({"zz-x": b'{"a": "</script>"}'})
    '<script type="application/json" id="zz-x">{"a": "\\u003c/script>"}</script>\n  '
    """
    return "".join(f'<script type="application/json" id="{name}">'
                   f'{body.decode().replace("<", chr(92) + "u003c")}</script>\n  '
                   for name, body in data.items())


def locate(path: str, root: Path, folders: Mapping[str, Path]) -> Path | None:
    """The file a path under ``/static/`` names: in a game's folder (``games/NAME/...``) or
    under ``root``; ``None`` for one that climbs out of its folder."""
    parts = path.replace(os.sep, "/").lstrip("/").split("/")
    base, rest = root, parts
    if len(parts) > 2 and f"{parts[0]}/{parts[1]}" in folders:
        base, rest = folders[f"{parts[0]}/{parts[1]}"], parts[2:]
    real = os.path.realpath(base)
    full = os.path.realpath(os.path.join(real, *rest))
    return Path(full) if os.path.commonpath([full, real]) == real else None


def imports(source: str) -> list[str]:
    """The specifiers of a module's static imports and re-exports, in order."""
    return [match.group(1) for match in STATIC_IMPORT.finditer(source)]


def closure(entries: list[str], read: Callable[[str], str | None]) -> list[str]:
    """Every module the ``entries`` import, directly or not (paths relative to ``web/``,
    breadth first, entries left out); ``read`` gives a module's text (``None``: none)."""
    seen = set(entries)
    order: list[str] = []
    queue = list(entries)
    while queue:
        name = queue.pop(0)
        source = read(name)
        if source is None:
            continue
        for specifier in imports(source):
            if not specifier.startswith("."):
                continue  # absolute or bare: not ours to preload (tests/server forbid them)
            found = posixpath.normpath(posixpath.join(posixpath.dirname(name), specifier))
            if found not in seen:
                seen.add(found)
                order.append(found)
                queue.append(found)
    return order


@dataclass(frozen=True, slots=True)
class Built:
    """The page and the version, as of one state of ``web/``."""

    signature: tuple[tuple[str, int, int], ...]
    stamps: frozenset[tuple[str, int, int]]
    version: str
    html: bytes
    etag: str
    preloaded: tuple[str, ...]
    data: Mapping[str, bytes]
    """The JSON blocks the page carries (``page_data``)."""


class WebClient:
    """The files of ``web_dir`` as served: the page and the current version."""

    def __init__(self, web_dir: Path,
                 games: Callable[[], Mapping[str, Path]] = game_folders,
                 data: Callable[[], Mapping[str, bytes]] = page_data) -> None:
        self.web_dir = web_dir
        self.games = games
        """The games' web folders by their place under ``/static/`` (asked each time: a game
        registered later is served too)."""
        self.data = data
        """The JSON blocks for the page (asked each time it is served: new words or games
        make a new page)."""
        self._built: Built | None = None

    def _signature(self) -> tuple[tuple[str, int, int], ...]:
        found = []
        roots = [self.web_dir, *(folder for _, folder in sorted(self.games().items()))]
        for root in roots:
            for folder, folders, files in os.walk(os.path.realpath(root)):
                folders.sort()
                for name in sorted(files):
                    path = os.path.join(folder, name)
                    try:
                        info = os.stat(path)
                    except OSError:
                        continue
                    found.append((path, info.st_mtime_ns, info.st_size))
        return tuple(found)

    def locate(self, path: str) -> Path | None:
        """The file that ``path`` (relative to ``/static/``) names."""
        return locate(path, self.web_dir, self.games())

    def current(self) -> Built | None:
        """The page as of now (``None``: there is no ``index.html``)."""
        signature = self._signature()
        data = dict(self.data())
        if (self._built is None or self._built.signature != signature
                or self._built.data != data):
            self._built = self._build(signature, data)
        return self._built if self._built.html else None

    @property
    def version(self) -> str:
        """The hash of everything in ``web/`` when the page was last served (the files are
        looked at again for the page only: its requests for files come right after it)."""
        built = self._built or self.current()
        return built.version if built is not None else ""

    def unchanged(self, path: str, info: os.stat_result) -> bool:
        """Whether the file at ``path`` is as it was when the version was worked out."""
        built = self._built
        stamp = (os.path.realpath(path), info.st_mtime_ns, info.st_size)
        return built is not None and stamp in built.stamps

    def game_modules(self) -> list[str]:
        """Each game's web modules (``games/NAME/x.js``): the client imports them all as soon
        as it has the list of games (js/games.js), so the page preloads them (and what they
        import) too."""
        return [f"{place}/{path.name}" for place, folder in sorted(self.games().items())
                for path in sorted(folder.glob("*.js"))]

    def game_styles(self) -> list[str]:
        """Each game's stylesheets (``games/NAME/x.css``), linked after the shared ones."""
        return [f"{place}/{path.name}" for place, folder in sorted(self.games().items())
                for path in sorted(folder.glob("*.css"))]

    def _read(self, name: str) -> str | None:
        found = self.locate(name)
        try:
            return found.read_text(encoding="utf-8") if found is not None else None
        except (OSError, UnicodeDecodeError):
            return None

    def _build(self, signature: tuple[tuple[str, int, int], ...],
               data: Mapping[str, bytes]) -> Built:
        digest = hashlib.sha256()
        for path, _, _ in signature:
            digest.update(path.encode())
            with contextlib.suppress(OSError):
                digest.update(Path(path).read_bytes())
        version = digest.hexdigest()[:12]
        page = self._read("index.html")
        if page is None:
            return Built(signature, frozenset(signature), version, b"", "", (), data)
        entries = ENTRY.findall(page)
        preloaded = closure(entries, self._read)
        games = [name for name in self.game_modules() if name not in preloaded]
        wanted = [*preloaded, *games,
                  *(name for name in closure([*entries, *games], self._read)
                    if name not in preloaded and name not in games
                    and self._read(name) is not None)]
        links = "".join(f'<link rel="stylesheet" href="{PREFIX}{name}">\n  '
                        for name in self.game_styles())
        links += "".join(f'<link rel="modulepreload" href="{PREFIX}{name}">\n  '
                         for name in wanted)
        entry = ENTRY.search(page)
        if entry is not None:
            page = page[:entry.start()] + json_blocks(data) + links + page[entry.start():]
        page = STATIC_URL.sub(rf"\g<1>{VERSIONED}{version}/", page)
        html = page.encode()
        etag = '"' + hashlib.sha256(html).hexdigest()[:16] + '"'
        return Built(signature, frozenset(signature), version, html, etag, tuple(preloaded),
                     data)


def _lookup(found: Path | None) -> tuple[str, os.stat_result | None]:
    """``StaticFiles.lookup_path``'s answer for the file ``found``."""
    if found is None:
        return "", None
    try:
        return str(found), os.stat(found)
    except (FileNotFoundError, NotADirectoryError):
        return "", None


class Static(StaticFiles):
    """``/static/``: the files as they are now, always revalidated (``no-cache``); a game's
    under ``/static/games/NAME/``."""

    def lookup_path(self, path: str) -> tuple[str, os.stat_result | None]:
        folders = game_folders()
        if self.directory is None or not folders:
            return super().lookup_path(path)
        return _lookup(locate(path, Path(self.directory), folders))

    def file_response(self, full_path: str | os.PathLike[str], stat_result: os.stat_result,
                      scope: Scope, status_code: int = 200) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = "no-cache"
        return response


@dataclass(frozen=True, slots=True)
class _File:
    body: bytes
    gzipped: bytes | None
    media_type: str
    etag: str
    fresh: bool
    """Still as it was when the version was worked out (else it is not kept, nor cached)."""


class VersionedStatic(StaticFiles):
    """``/static/v/VERSION/``: the same files, kept for good while VERSION is the current
    one (an older page asking for an older version gets today's files, revalidated).

    The current version's files are held in memory, compressed once: a first visit's two
    dozen requests cost the event loop no file reads, thread hops or gzip runs."""

    def __init__(self, client: WebClient) -> None:
        super().__init__(directory=client.web_dir, check_dir=False)
        self.client = client
        self._files: dict[str, _File] = {}
        self._version = ""

    async def get_response(self, path: str, scope: Scope) -> Response:
        version, _, rest = path.replace(os.sep, "/").partition("/")
        current = self.client.version
        if not version or version != current or scope["method"] not in ("GET", "HEAD"):
            response = await super().get_response(rest or ".", scope)
            response.headers["Cache-Control"] = "no-cache"
            return response
        if self._version != current:
            self._files.clear()
            self._version = current
        held = self._files.get(rest)
        if held is None:
            held = await anyio.to_thread.run_sync(self._load, rest)
            if held is None:
                raise HTTPException(status_code=404)
            if held.fresh:
                self._files[rest] = held
        headers = {"Cache-Control": FOREVER if held.fresh else "no-cache", "ETag": held.etag,
                   "Vary": "Accept-Encoding"}
        if Headers(scope=scope).get("if-none-match") == held.etag:
            return Response(status_code=304, headers=headers)
        body = held.body
        if held.gzipped is not None and "gzip" in Headers(scope=scope).get("accept-encoding", ""):
            body, headers["Content-Encoding"] = held.gzipped, "gzip"
        return Response(body, headers=headers, media_type=held.media_type)

    def lookup_path(self, path: str) -> tuple[str, os.stat_result | None]:
        return _lookup(self.client.locate(path))

    def _load(self, rest: str) -> _File | None:
        try:
            full_path, stat_result = self.lookup_path(rest)
        except (OSError, ValueError):
            return None
        if stat_result is None or not stat.S_ISREG(stat_result.st_mode):
            return None
        body = Path(full_path).read_bytes()
        media_type = mimetypes.guess_type(full_path)[0] or "application/octet-stream"
        text = media_type.startswith("text/") or media_type.endswith(
            ("javascript", "json", "svg+xml"))
        gzipped = gzip.compress(body, 9, mtime=0) if text and len(body) >= 1024 else None
        etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
        return _File(body, gzipped, media_type, etag, self.client.unchanged(full_path, stat_result))
