"""The scoring and card engine of Scorekeeper: pure Python, no Django.

Value types and pure functions for the rules of RULES.md: cards, rulesets and
presets, one hand, a game to the target with its end bonuses and money, the
kinds of session (two-player, Hollywood, match, partnership, chouette,
three-player rotation) behind one interface, settling up an evening in the
fewest transfers, the game record format of FORMAT.md, and the hand evaluator:
melds and deadwood of a hand, the best discard, a knock played out with lay-offs.
"""

from .cards import Card, CardError, Suit, parse_cards
from .chouette import TEAM, Chouette, ChouetteLine
from .evaluator import Discard, Evaluation, Meld, best_discard, evaluate
from .game import Final, Game, Payment, Tally, TwoPlayerLine, final_tally, money
from .hand import Hand, HandError, HandKind, HandScore, Outcome, knock_limit, score_hand
from .hollywood import Hollywood, HollywoodLine
from .knock import KnockOutcome, Layoff, knock_outcome
from .league import HeadToHead, LeagueBook, LeaguePoints, Rater, Rating, Standings, standings
from .match import Match, MatchOverError
from .partnership import Partnership, Round, RoundLine, TableLine, team_name
from .roles import NotAtTableError, Roles
from .rules import (
    PARAMETERS,
    PRESETS,
    UPCARD,
    DealerRule,
    OklahomaAce,
    RulesError,
    Ruleset,
    Shutout,
    SpadeDouble,
    preset,
)
from .seating import PlayerError, next_dealer, score_seated
from .session import GameClosedError, GameResult, HandStats, Session, Standing, Turn
from .sessions import KINDS, SESSION_KINDS, KindError, seats, session_class
from .settlement import Transfer, balances_of, points_of, settle_up
from .sheet import (
    Cell,
    Column,
    EntryRow,
    Foot,
    FootLine,
    GameSheet,
    Part,
    Play,
    Side,
    Who,
    foot_lines,
)
from .three_player import ThreePlayer, ThreePlayerLine

__all__ = [
    "KINDS",
    "PARAMETERS",
    "PRESETS",
    "SESSION_KINDS",
    "TEAM",
    "UPCARD",
    "Card",
    "Cell",
    "Column",
    "Foot",
    "FootLine",
    "GameResult",
    "GameSheet",
    "HandStats",
    "HeadToHead",
    "LeagueBook",
    "LeaguePoints",
    "Rater",
    "Rating",
    "Standings",
    "Part",
    "Play",
    "EntryRow",
    "Side",
    "Standing",
    "Turn",
    "Who",
    "foot_lines",
    "CardError",
    "Chouette",
    "ChouetteLine",
    "DealerRule",
    "Discard",
    "Evaluation",
    "Final",
    "Game",
    "GameClosedError",
    "Hand",
    "HandError",
    "HandKind",
    "HandScore",
    "Hollywood",
    "HollywoodLine",
    "KindError",
    "KnockOutcome",
    "Layoff",
    "TwoPlayerLine",
    "Match",
    "MatchOverError",
    "Meld",
    "NotAtTableError",
    "OklahomaAce",
    "Outcome",
    "Partnership",
    "Payment",
    "PlayerError",
    "Roles",
    "Round",
    "RoundLine",
    "RulesError",
    "Ruleset",
    "Session",
    "Shutout",
    "SpadeDouble",
    "Suit",
    "TableLine",
    "Tally",
    "ThreePlayer",
    "ThreePlayerLine",
    "Transfer",
    "balances_of",
    "best_discard",
    "evaluate",
    "final_tally",
    "knock_limit",
    "knock_outcome",
    "money",
    "next_dealer",
    "parse_cards",
    "points_of",
    "preset",
    "score_hand",
    "score_seated",
    "seats",
    "session_class",
    "settle_up",
    "standings",
    "team_name",
]
