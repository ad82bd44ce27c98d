"""Queries that the ORM writes once per database and that run with each request's ids.

Building a query costs the ORM time in Python for every lookup, join and subquery it
resolves; for the header's notice (three counts over clubs, roles and answers, on every
page) that took longer than drawing a score sheet's rows, while the database answered in
a fraction of a millisecond. ``ForUser`` keeps the SQL and its parameters, as a prepared
statement would, and puts the user's id in. ``Prepared`` does the same for a query of
model instances (its joined objects, annotations and prefetches included) and any ids:
the access check that fetches a partie with the user's role in its club, on every page
and every hand, cost the ORM more to build than the database to answer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, NamedTuple
from weakref import WeakKeyDictionary

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Model, QuerySet, prefetch_related_objects
from django.db.models.query import ModelIterable, get_related_populators
from django.db.models.sql.compiler import SQLCompiler
from django.db.transaction import TransactionManagementError

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


# What a database's integer column holds: an id beyond it is no id (the ORM finds nothing
# there without asking; a driver would refuse to send it).
BIGGEST_ID = 2**63 - 1


class _Id(NamedTuple):
    """Where the id ``name`` goes among a statement's parameters."""

    name: str


class _Statement(NamedTuple):
    compiler: SQLCompiler  # the written query: its columns, joins and converters
    sql: str
    params: tuple
    prefetches: tuple


class Prepared:
    """The SQL of ``build(**ids)``, a query of model instances, written once per database
    connection (the compiler that wrote it belongs to that connection's thread).

    As ``ForUser``: it is written for two sets of stand-in ids, and kept only where the
    ids are all that differs between the two; otherwise, and for an id no column holds,
    each call builds the query anew, as the ORM would. The rows become instances as the
    ORM's own iterable makes them (``select_related`` objects, annotations), and the
    query's ``prefetch_related`` lookups are then fetched by the ORM. A locking query
    (``select_for_update``) is refused outside a transaction, as the ORM refuses it.
    """

    def __init__(self, build: Callable[..., QuerySet]):
        self.build = build
        self.statements: WeakKeyDictionary = WeakKeyDictionary()

    def all(self, using: str = DEFAULT_DB_ALIAS, **ids: int) -> list[Model]:
        connection = connections[using]
        kept = self.statements.setdefault(connection, {})
        names = tuple(sorted(ids))
        if names not in kept:
            kept[names] = self._prepare(using, names)
        statement = kept[names]
        if statement is None or any(abs(value) > BIGGEST_ID for value in ids.values()):
            return list(self.build(**ids).using(using))
        if statement.compiler.query.select_for_update and _outside_transaction(connection):
            raise TransactionManagementError(
                "select_for_update cannot be used outside of a transaction."
            )
        params = [ids[p.name] if isinstance(p, _Id) else p for p in statement.params]
        with connection.cursor() as cursor:
            cursor.execute(statement.sql, params)
            rows = cursor.fetchall()
        if statement.compiler.has_extra_select:  # ordered by what it does not select
            rows = [row[: statement.compiler.col_count] for row in rows]
        things = list(_instances(statement.compiler, rows, using))
        if things and statement.prefetches:
            prefetch_related_objects(things, *statement.prefetches)
        return things

    def _prepare(self, using: str, names: tuple[str, ...]) -> _Statement | None:
        stand_ins = [
            {name: -71_000 - i for i, name in enumerate(names)},
            {name: -72_000 - i for i, name in enumerate(names)},
        ]
        querysets = [self.build(**values).using(using) for values in stand_ins]
        if any(
            qs._iterable_class is not ModelIterable or qs._known_related_objects for qs in querysets
        ):
            return None  # rows as values, or objects the ORM sets from elsewhere
        compilers = [qs.query.get_compiler(using) for qs in querysets]
        (sql, params), (other_sql, other_params) = [c.as_sql() for c in compilers]
        if sql != other_sql or len(params) != len(other_params):
            return None
        every_stand_in = {*stand_ins[0].values(), *stand_ins[1].values()}
        by_value = {value: name for name, value in stand_ins[0].items()}
        prepared = []
        for value, other in zip(params, other_params, strict=True):
            name = by_value.get(value)
            if name is not None and stand_ins[1][name] == other:
                prepared.append(_Id(name))
            elif value == other and value not in every_stand_in:
                prepared.append(value)
            else:
                return None
        prefetches = tuple(querysets[0]._prefetch_related_lookups)
        return _Statement(compilers[0], sql, tuple(prepared), prefetches)


def _outside_transaction(connection: BaseDatabaseWrapper) -> bool:
    """Where the ORM refuses a locking query: a database that locks rows, in autocommit."""
    features = connection.features
    return (
        features.has_select_for_update
        and features.supports_transactions
        and connection.get_autocommit()
    )


def _instances(compiler: SQLCompiler, rows: list, using: str) -> Iterator[Model]:
    """The rows as model instances, as django.db.models.query.ModelIterable makes them."""
    select, klass_info = compiler.select, compiler.klass_info
    fields = klass_info["select_fields"]
    start, end = fields[0], fields[-1] + 1
    init_list = [column[0].target.attname for column in select[start:end]]
    populators = get_related_populators(klass_info, select, using)
    model = klass_info["model"]
    for row in compiler.results_iter([rows]):
        thing = model.from_db(using, init_list, row[start:end])
        for populator in populators:
            populator.populate(row, thing)
        for name, position in compiler.annotation_col_map.items():
            setattr(thing, name, row[position])
        yield thing
