"""Alembic's environment: migrate the connection ``Store`` hands over in ``config.attributes``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from zackzack.store.schema import metadata


def run(connection: Connection) -> None:
    """Run the migrations asked for on ``connection`` (SQLite ALTERs in batch mode)."""
    context.configure(connection=connection, target_metadata=metadata,
                      render_as_batch=connection.dialect.name == "sqlite")
    with context.begin_transaction():
        context.run_migrations()


def main() -> None:
    """The connection ``Store`` passed, else one to ``-x url=…`` (the ``alembic`` command)."""
    given = context.config.attributes.get("connection")
    if isinstance(given, Connection):
        run(given)
        return
    url = context.get_x_argument(as_dictionary=True).get("url")
    if not url:
        raise SystemExit("name the database: alembic -x url=sqlite:///file.db …")
    with create_engine(url).connect() as connection:
        run(connection)


if hasattr(context, "config"):  # run by alembic, not imported (doctest collection)
    main()
