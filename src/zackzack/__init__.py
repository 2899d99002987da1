"""zackzack: two real-time card games, *Unter Spannung* and *Schnelllauf*."""

__version__ = "0.1.0"
