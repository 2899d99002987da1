"""A user-space TCP proxy for fault tests: ``pause`` makes it stop forwarding without closing
anything (as a network partition or a hung load balancer would: the connections stay open,
nothing answers), ``resume`` forwards what waited and goes on."""

from __future__ import annotations

import selectors
import socket
import threading


class Proxy:
    """Forwards ``127.0.0.1:port`` to ``target`` (host, port) in a thread of its own."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.paused = threading.Event()
        self._stop = threading.Event()
        self._pairs: dict[socket.socket, socket.socket] = {}
        self._thread = threading.Thread(target=self._run, name="tcp-proxy", daemon=True)
        self._thread.start()

    def pause(self) -> None:
        """Stop forwarding (connections are still accepted, and stay open)."""
        self.paused.set()

    def resume(self) -> None:
        self.paused.clear()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        for sock in list(self._pairs):
            sock.close()
        self.listener.close()

    def _run(self) -> None:
        selector = selectors.DefaultSelector()
        selector.register(self.listener, selectors.EVENT_READ)
        reading = True
        while not self._stop.is_set():
            if self.paused.is_set() == reading:  # stop (or start again) reading the streams
                reading = not reading
                for sock in self._pairs:
                    if reading:
                        selector.register(sock, selectors.EVENT_READ)
                    else:
                        selector.unregister(sock)
            for key, _ in selector.select(0.05):
                sock = key.fileobj
                assert isinstance(sock, socket.socket)
                if sock is self.listener:
                    client, _ = self.listener.accept()
                    upstream = socket.create_connection(self.target)
                    self._pairs[client], self._pairs[upstream] = upstream, client
                    if reading:
                        selector.register(client, selectors.EVENT_READ)
                        selector.register(upstream, selectors.EVENT_READ)
                    continue
                other = self._pairs.get(sock)
                if other is None:
                    continue
                try:
                    data = sock.recv(65536)
                    if data:
                        other.sendall(data)
                        continue
                except OSError:
                    pass
                for end in (sock, other):  # one side closed: close both
                    self._pairs.pop(end, None)
                    selector.unregister(end)
                    end.close()
        selector.close()
