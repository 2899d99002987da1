"""The terminal client, ``zackzack play``: a keyboard-first Textual app for both games.

One small module per concept: ``texts`` (German and English), ``keys`` (the key schemes),
``cards`` (cards drawn as text), ``session`` (the one interface the screens talk to) with
``offline`` (a local table and bots) and ``remote`` (a websocket client), ``online`` (a
server's lobby and a new table), the ``boards`` of both games, the ``results``, the
``screens`` and the ``app``; ``cli`` is the ``play`` command.
"""
