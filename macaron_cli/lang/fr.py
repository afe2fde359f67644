"""French: only secrets ("mon code PIN est 4821"). See __init__.py for SCOPE."""

SCOPE = ("secret",)  # every other concept is read in en, ja, ko, zh and tl

WORDS: dict[str, str] = {
    "secret.password": r"mot de passe|mdp",
    "secret.pin": r"code pin|code secret|digicode|code d['’](?:accès|entrée)|code de (?:la )?porte|"
    r"code de déverrouillage|code de l['’]alarme|code du (?:portail|cadenas)",
    "secret.code": "",
    "secret.api-key": r"clé (?:api|secrète|privée)|jeton",
    "secret.key": "",
    "secret.cvv": r"cryptogramme(?: visuel)?|code de sécurité",
    "secret.national-id": r"numéro de (?:sécurité sociale|sécu|passeport)|nir|numéro fiscal",
    **{f"secret.{kind}.glued": "" for kind in ("password", "pin", "code", "api-key", "key", "cvv", "national-id")},
    "secret.is": r"est",
    "secret.verb": r"était|c['’]est",
    "secret.now": r"maintenant",
    "secret.particle": "",
    "secret.amount": r"chiffres|caractères",
    "secret.changed_to": "",
    "secret.qualifier": r"carte|porte|portail|immeuble",
    "secret.stand_in": "",
    "secret.filler": "",
    "secret.also_a_word": "",
    "secret.card": r"carte",
    "secret.not_a_card": r"commande|suivi",
    # ── memory's grammar words (when.py, chatter.py, units.py, secrets/) ──
    "secret.backup": r"secours|récupération",
    "secret.codes": r"codes?",
    "secret.backup_codes": r"codes? de (?:secours|récupération)",
    "secret.codes_are": "",
    "secret.second_factor": "",
    "secret.seed_phrase": r"phrase de récupération|phrase secrète",
    "secret.value_end": "",
    "secret.copula": "",
    "secret.prose": "|".join(
        """
        sur sous dans derrière avec pas ne plus très trop toujours mon ma mes ton ta son sa notre votre leur
        écrit noté collé changé oublié faux court long sûr nouveau ancien même quelque part
        """.split()
    ),
    "secret.article": r"le|la|les",
    "secret.conjunction": r"et|mais|ou",
}
