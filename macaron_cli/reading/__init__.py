"""Reading what people say: ideas, change requests and chat lines, by rules (no store, no model)."""
