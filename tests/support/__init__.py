"""Reusable test support: isolated Hermes homes, a stub model endpoint, Hermes drivers.

Importable as ``support.…`` because pytest puts ``tests/`` on ``sys.path``
(``pythonpath = ["tests"]``). Nothing here imports Hermes at module import time,
so the bootstrap home (see :mod:`support.hermes_home`) is always set first.
"""
