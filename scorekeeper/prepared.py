"""A query that the ORM writes once per database and that runs with each user's id.

Building a query costs the ORM time in Python for every lookup, join and subquery it
resolves; for the header's notice (three counts over clubs, roles and answers, on every
page) that took longer than drawing a score sheet's rows, while the database answered in
a fraction of a millisecond. ``ForUser`` keeps the SQL and its parameters, as a prepared
statement would, and puts the user's id in.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet

# Two ids no user has: the queries are built for both, and compared.
STAND_INS = (-70_001, -70_002)
USER_ID = object()  # where the user's id goes among a statement's parameters


class ForUser:
    """The SQL of ``build(user)``, a query of one row, written once per database.

    It is written for two stand-in users; the user's id must be the only thing that
    differs between the two. Where anything else does (a date taken at build time,
    another value of the user's), nothing is kept and each call builds the query anew, as
    the ORM would: a wrong count is never the price of speed.
    """

    def __init__(self, build: Callable[[Any], QuerySet]):
        self.build = build
        self.statements: dict[tuple[str, str], tuple[str, tuple] | None] = {}

    def first(self, user, using: str = DEFAULT_DB_ALIAS) -> dict[str, Any] | None:
        """The query's first row for the user, as a dict by column; None: no row."""
        connection = connections[using]
        key = (using, connection.vendor)
        if key not in self.statements:
            self.statements[key] = self._prepare(using)
        statement = self.statements[key]
        if statement is None:  # not preparable: the ORM's way
            return self.build(user).using(using).first()
        sql, params = statement
        with connection.cursor() as cursor:
            cursor.execute(sql, [user.pk if p is USER_ID else p for p in params])
            row = cursor.fetchone()
            names = [column[0] for column in cursor.description]
        return None if row is None else dict(zip(names, row, strict=True))

    def _prepare(self, using: str) -> tuple[str, tuple] | None:
        """The statement, with USER_ID where the user's id goes; None if not preparable."""
        user_model = get_user_model()
        built = [
            self.build(user_model(pk=stand_in)).query.get_compiler(using).as_sql()
            for stand_in in STAND_INS
        ]
        (sql, params), (other_sql, other_params) = built
        if sql != other_sql or len(params) != len(other_params):
            return None
        first, second = STAND_INS
        prepared = []
        for value, other in zip(params, other_params, strict=True):
            if value == first and other == second:
                prepared.append(USER_ID)
            elif value == other and value not in STAND_INS:
                prepared.append(value)
            else:
                return None
        return sql, tuple(prepared)
