"""The server: an ASGI app with a JSON API, the web client and one websocket per browser tab."""
