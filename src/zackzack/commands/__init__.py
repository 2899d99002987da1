"""Commands of no front end of their own: ``zackzack ratings``, ``replay``, ``moderation``
and ``demo`` (the server's, the terminal's and the simulator's are in their packages)."""
