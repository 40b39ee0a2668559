"""Records of the doctor tools that cross the store boundary: corpus documents and the
passages a search returns (`db.corpus`), and the notebook versions a run stored."""

from __future__ import annotations

from pydantic import BaseModel, Field


class CorpusDocument(BaseModel):
    """One document of the local search corpus (`bedside corpus add DIR`)."""

    id: str = Field(description="Its id in the corpus.")
    path: str = Field(description="The absolute path it was read from (its source).")
    title: str = Field(description="Its title (first heading, <title>, or the file name).")
    kind: str = Field(description="'text', 'markdown' or 'html'.")
    sha256: str = Field(description="sha256 of the file's bytes when it was added.")
    chars: int = Field(0, description="Characters of text indexed.")
    passages: int = Field(0, description="How many passages it was cut into.")
    added_at: str | None = Field(None, description="ISO UTC time it was added or updated.")


class NewDocument(BaseModel):
    """A document read and cut into passages, ready to be stored."""

    path: str = Field(description="The absolute path it was read from.")
    title: str = Field(description="Its title.")
    kind: str = Field(description="'text', 'markdown' or 'html'.")
    sha256: str = Field(description="sha256 of the file's bytes.")
    passages: list[str] = Field(description="Its text in passages, in order.")


class Passage(BaseModel):
    """One passage a search returned, with where it came from."""

    text: str = Field(description="The passage (untrusted text).")
    title: str = Field(description="The title of its document or web page.")
    source: str = Field(description="Its document's path, or the web page's URL.")
    provider: str = Field(description="'corpus' or 'web'.")
    document_id: str | None = Field(None, description="Its corpus document, if any.")
    position: int | None = Field(None, description="Its place in the document (0-based).")
    sha256: str | None = Field(None, description="Its corpus document's hash when added.")
    score: float | None = Field(None, description="The provider's rank score, if any "
                                "(bm25 for the corpus: lower is better).")


class NotebookVersion(BaseModel):
    """A notebook version a consultation of a run wrote (its `notebook_write` turn)."""

    consultation_id: str = Field(description="The consultation that wrote it.")
    case_id: str = Field(description="Its case.")
    config_key: str = Field(description="Its configuration's key (one notebook each).")
    status: str = Field(description="How that consultation ended: finished or failed.")
    text: str = Field(description="The notebook as written.")
    version: int | None = Field(None, description="Its number in the chain (1 = first).")
