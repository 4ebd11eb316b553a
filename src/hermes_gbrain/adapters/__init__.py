"""Hermes adapters: the only code that imports Hermes (through ``compat``)."""
