"""Importer for RJUA-SPs standardized-patient CSV files (one patient per file).

Columns: 类目大项 (category), 类目子项 (item), 结果 (result), 约束 (constraint: timing or
qualifier), 备注 (note: score weight), 上位词 (hypernyms: words that point to the row,
kept as synonyms), 得分项分类 (score tag: 诊断相关/治疗相关/过程相关).

Conventions read from the published file:
- A row with only a category (e.g. 确诊疾病的反问的关键要素和正确顺序, 治疗方案的关键要素)
  opens a section; the rows after it are that section's key elements.
- 正确顺序 gives the order of inquiry for the diagnosis section: '>' separates ranks and
  '=' joins names of equal rank (their order among themselves is free). Names are item
  names or category names. We flatten it to InquiryStep (symptoms of the section first,
  then the ranks in order, then diagnosis and treatment) and keep the raw string in
  truth.extra['正确顺序'] because InquiryStep cannot express ties.
- 备注 weights: 重要得分项 → 2.0, 得分项 → 1.0 (RJUA's two levels; the ratio is ours).
- A blank category continues the previous row's category (merged cells in the source sheet).
- The public sample has 年龄 and 性别 swapped; whichever value looks like an age is the age.
- 手术史 rows: the operation and its timing stay in the patient's history; a result that
  describes what was found or done during it (the operative record) goes to the examiner
  as "<operation>术中所见" (synonyms: the operation's name, 术中所见, 手术记录).
- The patient's opening (首发问题) may name the diagnosis — RJUA's patients come for
  treatment of a known disease. That is kept, with a warning naming the leaked names.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path
from typing import Any

from core.case import Case
from core.errors import InputError
from core.importers.base import (
    ImportResult,
    build_case,
    leak_warning,
    looks_like_age,
    looks_like_sex,
    read_text,
    safe_id,
)

REQUIRED = ("类目大项", "类目子项", "结果")
OPTIONAL = ("约束", "备注", "上位词", "得分项分类")
WEIGHT_IMPORTANT, WEIGHT_SCORED = 2.0, 1.0

TEST_CATEGORIES = {"检验", "检查", "病理", "影像", "影像学检查", "实验室检查", "辅助检查"}
EXAM_CATEGORIES = {"体检", "查体", "体格检查", "专科检查", "专科查体"}
HISTORY_CATEGORIES = {
    "既往病史": "past_medical", "既往史": "past_medical", "手术史": "surgical",
    "用药史": "medication", "过敏史": "allergy", "个人史": "social", "吸烟史": "social",
    "饮酒史": "social", "婚育史": "social", "家族史": "family", "月经史": "menstrual_obstetric",
    "生育史": "menstrual_obstetric", "一般情况": "review_of_systems",
}
_NEGATIVE = {"无", "否", "没有", "阴性", "不详"}
_OBJECTIVE = "一位患者前来泌尿外科就诊。请通过问诊和检查作出诊断，并给出治疗方案。"


def split_synonyms(text: str) -> list[str]:
    """Split a 上位词 cell on 、 , ， ; ； and line breaks."""
    return [p.strip() for p in re.split(r"[、,，;；\n]", text) if p.strip()]


def weight_of(note: str) -> float | None:
    """重要得分项 → 2.0, 得分项 → 1.0, else None."""
    if "重要得分项" in note:
        return WEIGHT_IMPORTANT
    return WEIGHT_SCORED if "得分项" in note else None


def read_rows(path: Path) -> list[tuple[int, dict[str, str]]]:
    """(first line of the row, row) for every non-empty CSV row; checks the header."""
    text = read_text(path)
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = [h.strip() for h in next(reader)]
    except StopIteration:
        raise InputError("empty file", path=str(path), line=1) from None
    except csv.Error as err:
        raise InputError(f"bad CSV ({err})", path=str(path), line=1) from None
    for col in REQUIRED:
        if col not in header:
            shown = ", ".join(header)
            shown = "".join(ch if ch.isprintable() else "?" for ch in shown)
            shown = shown if len(shown) <= 80 else shown[:77] + "..."
            raise InputError(f"missing required column (header: {shown})", path=str(path),
                             line=1, field=col)
    rows, start = [], reader.line_num + 1
    try:
        for cells in reader:
            _check_cells(cells, len(header), path, start)
            row = {h: (cells[i].strip() if i < len(cells) else "") for i, h in enumerate(header)}
            if any(row.values()):
                rows.append((start, row))
            start = reader.line_num + 1
    except csv.Error as err:
        raise InputError(f"bad CSV ({err})", path=str(path), line=start) from None
    return rows


def _check_cells(cells: list[str], columns: int, path: Path, line: int) -> None:
    """Every row of the sheet has a cell per column (a spreadsheet writes the empty ones): a
    shorter row is a file cut short or a row broken in two, a longer one would lose cells."""
    filled = [c for c in cells if c.strip()]
    if filled and len(cells) < columns:
        raise InputError(f"the row has {len(cells)} of the header's {columns} cells (is the "
                         "file cut short, or a line break outside quotes?)", path=str(path),
                         line=line)
    if any(c.strip() for c in cells[columns:]):
        raise InputError(f"the row has {len(cells)} cells, the header {columns} columns",
                         path=str(path), line=line)


class _Builder:
    """Accumulates the case fields row by row."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.warnings: list[str] = []
        self.patient: dict[str, Any] = {"primary_symptoms": [], "secondary_symptoms": [],
                                        "history": [], "demographics": {}}
        self.exam: list[dict[str, Any]] = []
        self.tests: list[dict[str, Any]] = []
        self.truth: dict[str, Any] = {"synonyms": [], "other_diagnoses": [], "extra": {}}
        self.treatments: list[str] = []
        self.rounds: int | None = None
        self.section = ""
        self.order_text = ""
        self.section_steps: list[tuple[str, str]] = []  # (category, name) in row order
        self.names: dict[str, tuple[str, str]] = {}      # item name → (step category, name)
        self.age_sex: dict[str, tuple[int, str]] = {}
        self.score_tags: dict[str, list[str]] = {}

    def warn(self, line: int, message: str) -> None:
        """Record a warning naming file and line."""
        self.warnings.append(f"{self.path}:{line}: {message}")

    def add(self, line: int, row: dict[str, str]) -> None:
        """Route one row."""
        cat, item, result = row["类目大项"], row["类目子项"], row["结果"]
        timing, note = row.get("约束", ""), row.get("备注", "")
        label = f"{cat}/{item}" if item else cat
        if note and note not in ("重要得分项", "得分项"):
            self.truth["extra"][f"{label} 备注"] = note  # e.g. 患者首发问题, 一级指标
        if tag := row.get("得分项分类", ""):
            self.score_tags.setdefault(tag, []).append(label)
        extra_cols = {k: v for k, v in row.items() if k not in REQUIRED + OPTIONAL and v}
        for k, v in extra_cols.items():
            self.truth["extra"][f"{label} {k}"] = v
        if not item and not result and not timing:
            self._heading(line, cat)
        elif cat == "首发问题":
            self.patient["opening"] = self.patient["chief_complaint"] = result
        elif cat == "患者意图":
            self.patient["persona"] = f"就诊意图：{result}"
        elif cat == "预计轮次":
            self._rounds(line, result)
        elif cat in ("年龄", "性别"):
            self.age_sex[cat] = (line, result)
        elif cat == "职业":
            self.patient["demographics"]["occupation"] = result
        elif cat == "诊断":
            self._diagnosis(line, item, result, timing, row.get("上位词", ""))
        elif cat == "治疗":
            self._treatment(result or item, timing, row.get("上位词", ""))
        elif cat == "正确顺序":
            self.order_text = result
            self.truth["extra"]["正确顺序"] = result
        elif cat == "现病史":
            self.patient["history_of_present_illness"] = result
        else:
            self._finding(line, cat, item, result, timing, row)

    def _heading(self, line: int, cat: str) -> None:
        if "确诊" in cat or "顺序" in cat:
            self.section = "diagnosis"
        elif "治疗" in cat:
            self.section = "treatment"
        else:
            self.section = cat
            self.warn(line, f"unknown section heading '{cat}'")
        self.truth["extra"].setdefault("sections", "")
        self.truth["extra"]["sections"] = "；".join(
            p for p in (self.truth["extra"]["sections"], cat) if p)

    def _rounds(self, line: int, text: str) -> None:
        m = re.search(r"\d+", text)
        if m and int(m.group()) >= 1:
            self.rounds = int(m.group())
        else:
            self.warn(line, f"预计轮次 '{text}' has no number; kept in truth.extra")
            self.truth["extra"]["预计轮次"] = text

    def _diagnosis(self, line: int, item: str, result: str, timing: str, syn: str) -> None:
        if not result:
            self.warn(line, f"诊断 row '{item}' has no result")
            return
        if "diagnosis" not in self.truth and (not item or "核心" in item or "主" in item):
            self.truth["diagnosis"] = result
            self.truth["synonyms"] = split_synonyms(syn)
        else:
            self.truth["other_diagnoses"].append(result)
            if syn:
                self.truth["extra"][f"诊断同义词.{result}"] = syn
        if timing:
            self.truth["extra"][f"诊断约束.{result}"] = timing  # e.g. TNM stage

    def _treatment(self, text: str, qualifier: str, syn: str) -> None:
        self.treatments.append(f"{text}（{qualifier}）" if qualifier else text)
        if syn:
            self.truth["extra"][f"治疗同义词.{text}"] = syn

    def _finding(self, line: int, cat: str, item: str, result: str, timing: str,
                 row: dict[str, str]) -> None:
        weight, syn = weight_of(row.get("备注", "")), split_synonyms(row.get("上位词", ""))
        name = item or cat
        if cat == "症状":
            negative = not result and timing in _NEGATIVE or result in _NEGATIVE
            sym = {"name": name, "description": result or None, "weight": weight,
                   "synonyms": syn, "present": not negative,
                   "duration": timing if timing and timing not in _NEGATIVE else None}
            key = "primary_symptoms" if self.section == "diagnosis" else "secondary_symptoms"
            self.patient[key].append(sym)
            self._note_step("symptom", name)
        elif cat in TEST_CATEGORIES or cat in EXAM_CATEGORIES:
            entry = {"name": name, "value": result or None, "timing": timing or None,
                     "weight": weight, "synonyms": syn,
                     "relevant": True if weight is not None else None}
            (self.exam if cat in EXAM_CATEGORIES else self.tests).append(entry)
            self._note_step("exam" if cat in EXAM_CATEGORIES else "test", name)
        elif cat in HISTORY_CATEGORIES:
            if HISTORY_CATEGORIES[cat] == "surgical" and _operative_findings(item, result):
                self._operation(line, item, result, timing)
                result = ""  # the patient knows the operation and when, not what was seen
            self._history(HISTORY_CATEGORIES[cat], cat, item, result, timing, weight, syn)
            self.names.setdefault(cat, ("history", HISTORY_CATEGORIES[cat]))
        else:
            self.warn(line, f"unknown category '{cat}' kept as history kind 'other'")
            self._history("other", cat, item, result, timing, weight, syn)

    def _operation(self, line: int, item: str, findings: str, timing: str) -> None:
        """The operative findings of a 手术史 row, as an examiner item (the record)."""
        # Weight 0: RJUA scores the 手术史 row (history), so this copy must not add a
        # test to information completeness (missing weights count as 1 there).
        self.tests.append({"name": f"{item}术中所见", "value": findings,
                           "timing": timing or None, "weight": 0.0,
                           "synonyms": [item, "术中所见", "手术记录"], "relevant": None})
        self.warn(line, f"手术史 '{item}': the operative findings go to the examiner, "
                  "the operation itself stays in the patient's history")

    def _history(self, kind: str, cat: str, item: str, result: str, timing: str,
                 weight: float | None, syn: list[str]) -> None:
        text = "：".join(p for p in (item, result) if p) or cat
        if timing:
            text = f"{text}（{timing}）"
        name = item or cat if kind != "other" else (f"{cat}/{item}" if item else cat)
        self.patient["history"].append({"kind": kind, "name": name, "text": text,
                                        "weight": weight, "synonyms": syn})
        if self.section == "diagnosis":
            self.section_steps.append(("history", kind))

    def _note_step(self, category: str, name: str) -> None:
        self.names.setdefault(name, (category, name))
        if self.section == "diagnosis":
            self.section_steps.append((category, name))

    def demographics(self) -> None:
        """Set age and sex, fixing the swap seen in the public sample."""
        age = self.age_sex.get("年龄", (0, ""))
        sex = self.age_sex.get("性别", (0, ""))
        if looks_like_sex(age[1]) and looks_like_age(sex[1]):
            self.warn(age[0], f"年龄 '{age[1]}' and 性别 '{sex[1]}' look swapped; fixed")
            age, sex = sex, age
        demo = self.patient["demographics"]
        if age[1]:
            demo["age"] = re.sub(r"\s*岁$", "", age[1])
        if sex[1]:
            demo["sex"] = sex[1]

    def inquiry_order(self) -> list[dict[str, Any]]:
        """Section symptoms, then the 正确顺序 ranks (else section rows), then diagnosis."""
        steps = [(c, n) for c, n in self.section_steps if c == "symptom"]
        if self.order_text:
            for token in re.split(r"[>=＞＝]", self.order_text):
                token = token.strip()
                if not token:
                    continue
                if token in self.names:
                    steps.append(self.names[token])
                elif token in TEST_CATEGORIES:
                    steps.append(("test", ""))
                else:
                    self.warnings.append(f"{self.path}: 正确顺序 names '{token}', which no "
                                         "row has; kept only in truth.extra['正确顺序']")
        else:
            steps += [(c, n) for c, n in self.section_steps if c != "symptom"]
        out, seen = [], set()
        for cat, name in steps:
            if (cat, name) not in seen:
                seen.add((cat, name))
                out.append({"category": cat, "name": name or None})
        if out:
            out.append({"category": "diagnosis"})
            if self.treatments:
                out.append({"category": "treatment"})
        return out

    def finish(self, path: Path) -> dict[str, Any]:
        """The case dict, once every row has been added."""
        if "diagnosis" not in self.truth:
            raise InputError("no diagnosis row with a result", path=str(path),
                             field="诊断")
        self.demographics()
        if self.treatments:
            self.truth["treatment"] = "；".join(self.treatments)
        for tag, labels in self.score_tags.items():
            self.truth["extra"][f"得分项分类.{tag}"] = "、".join(labels)
        demo = self.patient["demographics"]
        who = "，".join(p for p in (demo.get("sex"), demo.get("age") and f"{demo['age']}岁") if p)
        present = [s["name"] for s in self.patient["primary_symptoms"] if s["present"]]
        symptoms = "、".join(present[:3])
        title = f"{who}：{symptoms}" if who and symptoms else who or symptoms or path.stem
        return {
            "id": safe_id("rjua", path.stem), "title": title, "language": "zh-Hans",
            "specialty": "urology", "source": "rjua", "licence": "CC-BY-NC-SA-4.0",
            "objective": _OBJECTIVE, "patient": self.patient, "physical_exam": self.exam,
            "tests": _merge_duplicates(self.tests, self.warnings, path),
            "expected_inquiry_order": self.inquiry_order(),
            "expected_rounds": self.rounds, "truth": self.truth,
        }


def _operative_findings(item: str, result: str) -> bool:
    """True if a surgical-history result describes what was found or done (not 有/无)."""
    return bool(item and result and result not in _NEGATIVE
                and result not in ("有", "是", "阳性") and len(result) > 4)


def _merge_duplicates(items: list[dict[str, Any]], warnings: list[str],
                      path: Path) -> list[dict[str, Any]]:
    """Rows repeated verbatim (same name, result, timing) become one item.

    The copy keeps the higher weight and all synonyms; rows that differ (e.g. the same
    scan at two dates) stay separate.
    """
    out: list[dict[str, Any]] = []
    index: dict[tuple[Any, ...], dict[str, Any]] = {}
    for item in items:
        key = (item["name"], item["value"], item["timing"])
        if key not in index:
            index[key] = item
            out.append(item)
            continue
        first = index[key]
        weights = [w for w in (first["weight"], item["weight"]) if w is not None]
        first["weight"] = max(weights) if weights else None
        first["relevant"] = first["relevant"] or item["relevant"]
        first["synonyms"] += [s for s in item["synonyms"] if s not in first["synonyms"]]
        warnings.append(f"{path}: repeated row '{item['name']}' merged into one test")
    return out


def import_rjua(path: Path) -> ImportResult:
    """Import one RJUA standardized-patient CSV file as one case."""
    builder = _Builder(path)
    previous = ""
    for line, row in read_rows(path):
        if not row["类目大项"]:
            row["类目大项"] = previous  # merged cell in the source sheet
            if not previous:
                raise InputError("row has no category and none precedes it", path=str(path),
                                 line=line, field="类目大项")
        previous = row["类目大项"]
        builder.add(line, row)
    case: Case = build_case(builder.finish(path), path, None)
    if warning := leak_warning(case, path, None):
        # RJUA's design: the patient comes for treatment of a known diagnosis.
        builder.warnings.append(warning)
    return ImportResult(cases=[case], warnings=builder.warnings)
