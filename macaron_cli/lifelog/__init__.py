"""One life: what the person records in their apps reaches the memory and the friend.

Each app summarises its own records (its digest, run in the sandbox: sandbox/digest.py);
this package turns digests into rolling memories with the app's privacy, serves the
`macaron apps digest|privacy|refresh` commands, and re-personalises apps' settings.
"""
