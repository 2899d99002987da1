"""The terminal client, ``zackzack play``: a keyboard-first Textual app for both games.

One small module per concept: ``texts`` (German and English), ``keys`` (the key schemes),
``cards`` (cards drawn as text), ``session`` (the one interface the screens talk to) with
``offline`` (a local table and bots) and ``remote`` (a websocket client), the ``boards`` of
both games, the ``screens`` and the ``app``; ``cli`` is the ``play`` command.
"""
