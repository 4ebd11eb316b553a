"""The ``hermes-gbrain`` commands: each module is one command (or the helpers of one).

They sit on top of the client stack and the recall layers; nothing below imports them.
"""
