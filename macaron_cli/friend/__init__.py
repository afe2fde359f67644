"""`macaron chat`: the friend who remembers (persona, onboarding, conversation, recall, router)."""
