"""A TCP relay in front of the server that can lose an answer: after `lose_next_answer()`, the first
bytes the server sends back are dropped and both connections closed, so the request reached the server
and was carried out, but the client never hears of it. It counts the connections, and notes the status
of each answer it passes on (a chunk that starts one: answers here are small, one chunk each)."""
from __future__ import annotations

import socket
import threading
from typing import Callable


class Relay:
    def __init__(self, target_port: int) -> None:
        self._target = ("127.0.0.1", target_port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self._listener.getsockname()[1]}"
        self._lose_next = False
        self._lock = threading.Lock()
        self.answers_lost = 0
        #: Connections the relay has accepted.
        self.connections = 0
        #: The status of each answer passed on, in order.
        self.statuses: list[int] = []
        #: Called with each answer's status before the client gets any of it.
        self.on_answer: Callable[[int], None] = lambda status: None
        threading.Thread(target=self._accept, daemon=True).start()

    def lose_next_answer(self) -> None:
        with self._lock:
            self._lose_next = True

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            self.connections += 1
            server = socket.create_connection(self._target)
            threading.Thread(target=self._pipe, args=(client, server, False), daemon=True).start()
            threading.Thread(target=self._pipe, args=(server, client, True), daemon=True).start()

    def _pipe(self, source: socket.socket, sink: socket.socket, answers: bool) -> None:
        try:
            while chunk := source.recv(65536):
                if answers:
                    with self._lock:
                        lose, self._lose_next = self._lose_next, False
                    if lose:
                        self.answers_lost += 1
                        break
                    if chunk.startswith(b"HTTP/1.1 "):
                        status = int(chunk[9:12])
                        self.statuses.append(status)
                        self.on_answer(status)
                sink.sendall(chunk)
        except OSError:
            pass
        for end in (source, sink):
            try:
                end.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            end.close()

    def close(self) -> None:
        self._listener.close()
