"""Every write to parties, hands, evenings and players, by subject: ``parties`` (parties
and hands), ``evenings``, ``players``, ``sharing`` and ``repair``. Keyword-only,
transactional, replayed by the engine.

The names below are re-exported for the tests and benches that call
``services.<name>``; code in the apps imports from the module that holds the service.
"""

from .evenings import (
    EveningFullError,
    EveningHeldError,
    evening_payment_paid,
    evening_settle,
    evening_start,
    partie_evening_set,
)
from .parties import (
    DealerError,
    hand_delete,
    hand_edit,
    hand_record,
    partie_end_early,
    partie_first_dealer_change,
    partie_import,
    partie_replay,
    partie_rules_change,
    partie_start,
    partie_time_call,
)
from .players import (
    PlayerChangeError,
    player_add,
    player_link,
    player_merge,
    player_merge_undo,
    player_rename,
    roster_join,
)
from .repair import RepairError, evening_reopen, partie_delete, partie_restore
from .sharing import evening_share, partie_share

__all__ = [
    "DealerError",
    "EveningFullError",
    "EveningHeldError",
    "PlayerChangeError",
    "RepairError",
    "evening_payment_paid",
    "evening_reopen",
    "evening_settle",
    "evening_share",
    "evening_start",
    "hand_delete",
    "hand_edit",
    "hand_record",
    "partie_delete",
    "partie_end_early",
    "partie_evening_set",
    "partie_first_dealer_change",
    "partie_import",
    "partie_replay",
    "partie_restore",
    "partie_rules_change",
    "partie_share",
    "partie_start",
    "partie_time_call",
    "player_add",
    "player_link",
    "player_merge",
    "player_merge_undo",
    "player_rename",
    "roster_join",
]
