"""German, read for one family of concepts only: the secrets a sentence names ("Die PIN
lautet 1234", memory/secrets/phrases.py). Every other rule reads the five languages of the house."""

SCOPE = ("secret",)

WORDS: dict[str, str] = {
    "secret.password": r"passwort|kennwort",
    "secret.pin": r"geheimzahl|geheimnummer|(?:haus)?t[üu]rcode|torcode|zugangscode|entsperrcode|alarmcode|tresorcode|"
    r"schlosscode",
    "secret.code": "",
    "secret.api-key": r"api-schlüssel|(?:geheimer )?schlüssel",
    "secret.key": "",
    "secret.cvv": r"(?:karten)?prüf(?:nummer|ziffer)|sicherheitscode",
    "secret.national-id": r"steuer-?id|steueridentifikationsnummer|steuernummer|sozialversicherungsnummer|"
    r"(?:personal)?ausweisnummer|reisepassnummer",
    **{f"secret.{kind}.glued": "" for kind in ("password", "pin", "code", "api-key", "key", "cvv", "national-id")},
    "secret.is": r"ist|lautet",
    "secret.verb": r"lauten|war|heißt|sind",
    "secret.now": r"jetzt",
    "secret.particle": "",
    "secret.amount": r"stellen|ziffern",
    "secret.changed_to": "",
    "secret.qualifier": r"t[üu]r|tor\b|tresor|karte",
    "secret.stand_in": "",
    "secret.filler": "",
    "secret.also_a_word": "",
    "secret.card": r"karte",
    "secret.not_a_card": r"bestell|sendung",
    # ── memory's grammar words (when.py, chatter.py, units.py, secrets/) ──
    "secret.backup": r"sicherungs|wiederherstellungs",
    "secret.codes": r"codes?",
    "secret.backup_codes": "",
    "secret.codes_are": "",
    "secret.second_factor": "",
    "secret.seed_phrase": r"wiederherstellungs",
    "secret.value_end": "",
    "secret.copula": "",
    "secret.prose": "|".join(
        """
        zu auf unter neben hinter im in am an bei mit nicht kein keine noch sehr ganz immer jetzt mein meine
        dein sein ihr unser steht liegt hängt klebt gespeichert geändert vergessen falsch kurz lang sicher
        neu alt gleich dasselbe irgendwo
        """.split()
    ),
    "secret.article": r"der|die|das",
    "secret.conjunction": r"und|aber|oder",
}
