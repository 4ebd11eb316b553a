"""``python -m hermes_gbrain.emulator``: same as ``hermes-gbrain emulator``."""

from hermes_gbrain.emulator.cli import run

raise SystemExit(run())
