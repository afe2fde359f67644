"""`macaron make`: one sentence in, a personal mini-app in its own git repo out.

brief → choose → scaffold → (agent session → verify → fix)* → summary. The pipeline
(`pipeline.make_app`) is shared by the CLI (`commands.make`) and `macaron chat`.
"""
