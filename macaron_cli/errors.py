"""The two ways a command fails, mapped to exit codes by cli.py.

UserError: bad input or environment (exit 2). Its message is one line that says what
is wrong and how to fix it; nothing has been written when it is raised.
WorkFailed: the input was fine but the work did not succeed (exit 1): tests red,
budget hit, a model error.
"""


class MacaronError(Exception):
    exit_code = 1


class UserError(MacaronError):
    exit_code = 2


class WorkFailed(MacaronError):
    exit_code = 1
