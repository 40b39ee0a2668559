"""The doctor tools' store: the local search corpus and the notebook versions of a run.

The corpus is two tables (`m220_corpus`): `corpus_documents` (one row per file added, by
path) and `corpus_passages`, an FTS5 index of each document's passages (unicode61 words,
diacritics folded). A search turns the doctor's query into plain words, each quoted, any
of which may match (FTS5 query syntax in a query is never interpreted), and ranks by bm25.

Notebook versions are not a table of their own: each is the `notebook_write` turn of the
consultation that wrote it, committed with the turn like every turn.
"""

from __future__ import annotations

import re

from sqlite_utils import Database

from core.ids import new_id
from core.records.tools import CorpusDocument, NewDocument, NotebookVersion, Passage
from core.transcript import utc_now
from db.jsoncol import loads

_WORD = re.compile(r"\w+", re.UNICODE)
# Words that would match nearly every passage and rank nothing.
_STOP = frozenset("""a an and are as at be by do does for from has have how i in is it its of
on or that the their there these this to was what when where which who why with""".split())
_DOC_COLUMNS = "id, path, title, kind, sha256, chars, passages, added_at"


def _document(row: tuple[object, ...]) -> CorpusDocument:
    return CorpusDocument.model_validate(dict(zip(_DOC_COLUMNS.split(", "), row, strict=True)))


def corpus_documents(db: Database) -> list[CorpusDocument]:
    """Every document, by path."""
    rows = db.execute(f"SELECT {_DOC_COLUMNS} FROM corpus_documents ORDER BY path").fetchall()
    return [_document(r) for r in rows]


def corpus_hashes(db: Database) -> dict[str, str]:
    """path → sha256 of every document."""
    return dict(db.execute("SELECT path, sha256 FROM corpus_documents").fetchall())


def _delete(db: Database, doc_id: str) -> None:
    db.execute("DELETE FROM corpus_passages WHERE document_id = ?", [doc_id])
    db.execute("DELETE FROM corpus_documents WHERE id = ?", [doc_id])


def save_document(db: Database, doc: NewDocument) -> CorpusDocument:
    """Add a document (replacing one read from the same path) and its passages, in one
    transaction."""
    with db.atomic():
        old = db.execute("SELECT id FROM corpus_documents WHERE path = ?",
                         [doc.path]).fetchone()
        if old is not None:
            _delete(db, old[0])
        record = CorpusDocument(id=new_id("doc-"), path=doc.path, title=doc.title,
                                kind=doc.kind, sha256=doc.sha256,
                                chars=sum(len(p) for p in doc.passages),
                                passages=len(doc.passages), added_at=utc_now())
        db.execute(f"INSERT INTO corpus_documents ({_DOC_COLUMNS}) VALUES"
                   " (?, ?, ?, ?, ?, ?, ?, ?)",
                   [record.id, record.path, record.title, record.kind, record.sha256,
                    record.chars, record.passages, record.added_at])
        db.conn.executemany(
            "INSERT INTO corpus_passages (text, title, document_id, position) VALUES"
            " (?, ?, ?, ?)", [(text, doc.title, record.id, i)
                              for i, text in enumerate(doc.passages)])
    return record


def remove_documents(db: Database, ids: list[str]) -> int:
    """Remove documents and their passages; return how many documents were removed."""
    removed = 0
    with db.atomic():
        for doc_id in ids:
            if db.execute("SELECT 1 FROM corpus_documents WHERE id = ?", [doc_id]).fetchone():
                _delete(db, doc_id)
                removed += 1
    return removed


def match_expression(query: str) -> str | None:
    """The FTS5 expression of a free-text query: its words, each quoted, any may match
    (None when it has no word worth searching for)."""
    words = [w for w in _WORD.findall(query.lower()) if w not in _STOP and len(w) > 1]
    words = list(dict.fromkeys(words))[:32]
    return " OR ".join(f'"{w}"' for w in words) or None


def search(db: Database, query: str, limit: int) -> list[Passage]:
    """The best `limit` passages for `query`, best first (bm25)."""
    expression = match_expression(query)
    if expression is None or limit < 1:
        return []
    rows = db.execute(
        "SELECT p.text, p.title, p.document_id, p.position, d.path, d.sha256,"
        " bm25(corpus_passages) AS score FROM corpus_passages p"
        " JOIN corpus_documents d ON d.id = p.document_id"
        " WHERE corpus_passages MATCH ? ORDER BY score LIMIT ?",
        [expression, limit]).fetchall()
    return [Passage(text=text, title=title, source=path, provider="corpus",
                    document_id=doc_id, position=int(position), sha256=sha,
                    score=round(float(score), 4))
            for text, title, doc_id, position, path, sha, score in rows]


def notebook_versions(db: Database, run_id: str) -> list[NotebookVersion]:
    """The notebook versions written by the run's finished or failed consultations, in the
    order they were written."""
    rows = db.execute(
        "SELECT c.id, c.case_id, c.config_key, c.status, t.content, t.meta"
        " FROM turns t JOIN consultations c ON c.id = t.consultation_id"
        " WHERE c.run_id = ? AND t.role = 'tool' AND t.kind = 'notebook_write'"
        " AND c.status IN ('finished', 'failed') ORDER BY t.ended_at, c.id, t.idx",
        [run_id]).fetchall()
    out = []
    for cid, case_id, key, status, text, meta in rows:
        version = (loads(meta) or {}).get("version")
        out.append(NotebookVersion(consultation_id=cid, case_id=case_id,
                                   config_key=key or "", status=status, text=text or "",
                                   version=version if isinstance(version, int) else None))
    return out
