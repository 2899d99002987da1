"""Alembic migrations of the store's schema, run by ``Store`` itself (no ``alembic.ini``).

Revision 0001 is the schema of release 0.1 exactly (its databases have no ``alembic_version``:
``Store`` stamps them with it before upgrading); each later revision changes it, and
``zackzack.store.schema`` describes the newest. A new revision, written against a database at
the newest one::

    from alembic import command
    from sqlalchemy import create_engine
    from zackzack.store import alembic_config

    with create_engine("sqlite:///current.db").begin() as conn:
        command.revision(alembic_config(conn), "what changes", autogenerate=True,
                         rev_id="0005")

(or the ``alembic`` command with ``-x url=…`` and this folder as ``script_location``).
"""
