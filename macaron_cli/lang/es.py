"""Spanish words, for secrets alone (scope: "secret"): "la contraseña es …"."""

# Read for no concept outside this family; the completeness test asks only for these.
SCOPE = ("secret",)

WORDS: dict[str, str] = {
    "secret.password": r"contraseña|contrasena|(?<!palabra )clave",
    "secret.pin": r"c[óo]digo pin|n[úu]mero pin|c[óo]digo de (?:la )?(?:puerta|alarma)|"
    r"c[óo]digo de (?:acceso|desbloqueo)|c[óo]digo del (?:portal|candado)",
    "secret.code": r"c[óo]digos?",
    "secret.api-key": r"clave (?:api|secreta|privada)",
    "secret.key": "",
    "secret.cvv": r"c[óo]digo de seguridad|c[óo]digo cvv",
    "secret.national-id": r"dni|nie|nif|número de (?:la )?seguridad social|número de pasaporte",
    **{f"secret.{kind}.glued": "" for kind in ("password", "pin", "code", "api-key", "key", "cvv", "national-id")},
    "secret.is": r"es|era",
    "secret.verb": r"son",
    "secret.now": r"ahora",
    "secret.particle": "",
    "secret.amount": r"dígitos|caracteres",
    "secret.changed_to": "",
    "secret.qualifier": r"puerta|portal|tarjeta|candado",
    "secret.stand_in": "",
    "secret.filler": "",
    "secret.also_a_word": r"clave",
    "secret.card": r"tarjeta",
    "secret.not_a_card": r"pedido|seguimiento",
    # ── memory's grammar words (when.py, chatter.py, units.py, secrets/) ──
    "secret.backup": r"respaldo|recuperación",
    "secret.codes": r"c[óo]digos?",
    "secret.backup_codes": r"(?:codes?|c[óo]digos?) de (?:respaldo|recuperación)",
    "secret.codes_are": "",
    "secret.second_factor": "",
    "secret.seed_phrase": r"frase (?:semilla|de recuperación)",
    "secret.value_end": "",
    "secret.copula": "",
    "secret.prose": "|".join(
        """
        en sobre bajo detrás con muy demasiado siempre mi mis tu su nuestro escrito anotado pegado cambiado
        olvidado incorrecta corta larga segura nueva vieja mismo igual algún
        """.split()
    ),
    "secret.article": r"el|los|las",
    "secret.conjunction": r"y|pero|o",
}
