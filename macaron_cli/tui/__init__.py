"""`macaron memory`: a Textual browser for the person's memory (see app.py)."""
