"""A learned bot: a linear policy over hand-made features, trained by the cross-entropy method.

``policy`` holds and loads the weights (one ``policy.json`` per game), ``train`` improves them
by playing matches (how: ``settings``), ``cli`` is ``zackzack train``. The features are each
game's own (``games/<pkg>/features.py``); the strategy is ``learned`` (``normal:learned``).
"""
