"""The ledger: what happened, what led to it, and how well it served the person.

Nodes are named "kind:id" (memory:m_1, brief:b_1, answer:a_1, app:water, template:diary,
endpoint:https://…). Events link nodes and carry signals; rewards flow back along links.
"""

from macaron_cli.ledger.store import Ledger, node

__all__ = ["Ledger", "node"]
