"""The consultation protocols the interactive solver plays (`ConsultationConfig.protocol`).

- `agentclinic` (the default): the doctor speaks first; a test request goes to the
  examiner, who answers the doctor; a final report only when the configuration asks for
  one (`final_report`).
- `aihospital` (AI Hospital / MVME): the patient opens with its chief complaint (answering
  the opening question of its language, which nobody says aloud: the turn is the patient's,
  kind 'complaint', no doctor turn); a test request is addressed to the patient, who relays
  it to the examiner (a patient turn of kind 'relay' addressed to the examiner, as the
  patient's <对检查员讲> messages in AI Hospital's dialogues), and the examiner's results
  go to the doctor — never to the patient, who sees no result; the consultation always
  ends with the doctor's five-part report (symptoms, examinations, diagnostic results,
  rationale, treatment plan), and when the doctor never wrote `DIAGNOSIS READY:` its
  diagnosis is the report's first diagnostic result (AI Hospital evaluates the report);
  the turn budget is 10 unless `--max-turns` says otherwise (`core.factors`).
The relayed request is the doctor's test names in a fixed sentence of the case's language
rather than the patient's own paraphrase, so the examiner receives exactly the tests the
doctor named whichever patient agent plays (AI Hospital's examiner has to parse them back
out of the patient's words); the routing, the speaker and the order are AI Hospital's.
"""

from __future__ import annotations

from core.agents.base import Reply, no_delta
from core.agents.factory import Cast
from core.solvers.context import SolverContext
from core.transcript import Role

VERSION = "protocol-aihospital/1"
#: The question the patient's opening answers, by language (never said aloud).
OPENING = {"en": "What brings you in today?", "es": "¿Qué le trae hoy por aquí?",
           "fr": "Qu'est-ce qui vous amène aujourd'hui ?",
           "de": "Was führt Sie heute zu mir?", "zh": "您今天哪里不舒服？"}
#: What the patient says to the examiner when it relays the doctor's test request.
RELAY = {"en": "The doctor has asked me to have these done: {tests}.",
         "es": "El médico me ha pedido que me haga esto: {tests}.",
         "fr": "Le médecin m'a demandé de faire ceci : {tests}.",
         "de": "Der Arzt hat mich gebeten, Folgendes machen zu lassen: {tests}.",
         "zh": "医生让我做这些检查：{tests}。"}


def _lang(ctx: SolverContext) -> str:
    tag = ctx.case.language
    return tag if tag in OPENING else tag.split("-")[0] if tag.split("-")[0] in OPENING \
        else "en"


def is_aihospital(ctx: SolverContext) -> bool:
    """Whether the consultation follows AI Hospital's protocol."""
    return ctx.config.protocol == "aihospital"


async def open_consultation(ctx: SolverContext, cast: Cast) -> None:
    """AI Hospital's opening: the patient's chief complaint, before the doctor's first
    turn (nothing under AgentClinic's protocol)."""
    if not is_aihospital(ctx):
        return
    question = OPENING[_lang(ctx)]
    await ctx.speak(Role.PATIENT, "complaint",
                    lambda d: cast.patient.answer(question, [], d),
                    addressee=Role.DOCTOR, meta={"opening": question})


async def relay(ctx: SolverContext, dt: int, tests: list[str]) -> None:
    """The patient passes the doctor's test request on to the examiner (AI Hospital)."""
    joiner = "、" if _lang(ctx) == "zh" else ", "
    text = RELAY[_lang(ctx)].format(tests=joiner.join(tests) or "?")

    async def say(_: object = no_delta) -> Reply:
        return Reply(text=text, model="relay")

    await ctx.speak(Role.PATIENT, "relay", say, addressee=Role.EXAMINER, doctor_turn=dt,
                    tests=list(tests))


def wants_report(ctx: SolverContext, diagnosed: bool) -> bool:
    """Whether the doctor writes its final report now: always under AI Hospital's
    protocol, after a diagnosis when the configuration asks for one otherwise."""
    return is_aihospital(ctx) or (ctx.config.final_report and diagnosed)


def tables() -> dict[str, object]:
    """What decides the protocol's own turns, for the reproducibility hash."""
    return {"version": VERSION, "opening": OPENING, "relay": RELAY}
