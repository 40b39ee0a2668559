"""What the biased retrieval patient says, per language: written for bedside.

`REMARKS[lang][bias]` holds two `str.format` templates: for a cognitive bias, `mention`
(volunteered early) and `insist` (its answer when asked what it thinks it is), both naming
`{condition}`; for an implicit bias, `open` (the distrust voiced early) and `guarded` (when
a question touches the bias's subject). `UNKNOWN[lang]` stands in for the illness when the
case's differential offers none. Each phrase works whoever speaks (the patient or someone
answering for them), so there are no he/she variants.

Must not import: anything but the standard library.
"""

from __future__ import annotations

VERSION = "retrieval-patient-bias/1"

UNKNOWN: dict[str, str] = {"en": "something serious", "es": "algo grave",
                           "fr": "quelque chose de grave", "de": "etwas Ernstes",
                           "zh-Hans": "什么严重的病"}

REMARKS: dict[str, dict[str, dict[str, str]]] = {
    "en": {
        "self_diagnosis": {
            "mention": "I looked it up online, and I'm fairly sure it's {condition}.",
            "insist": "I think it's {condition}, doctor; everything I read online fits."},
        "recency": {
            "mention": "My cousin was diagnosed with {condition} just recently, after "
                       "something very like this, so I can't help worrying it's the same.",
            "insist": "I keep thinking of my cousin. Could it be {condition}, like them?"},
        "frequency": {
            "mention": "Lots of people I know have had {condition} lately; it seems to be "
                       "going around.",
            "insist": "Lots of people have {condition} these days; I'd bet that's what this "
                      "is."},
        "false_consensus": {
            "mention": "Everyone I've talked to says it must be {condition}.",
            "insist": "Everyone I know thinks it's {condition}, doctor, and so do I."},
        "gender": {
            "open": "To be honest, doctor, I'd have felt more at ease with a doctor of a "
                    "different gender.",
            "guarded": "I'd rather a doctor of a different gender did this, but go on."},
        "race": {
            "open": "Forgive me, doctor, but I'm not sure someone from your background "
                    "really understands people like me.",
            "guarded": "I'm not sure you'd understand how things are in my family."},
        "sexual_orientation": {
            "open": "I'll be honest, I'm not comfortable talking about personal things "
                    "with you.",
            "guarded": "I'd rather not go into personal matters with you."},
        "cultural": {
            "open": "I hope you'll respect the way we see illness where I come from; I'm "
                    "not sure you will.",
            "guarded": "Where I come from we see these things differently, and I'm not sure "
                       "you understand that."},
        "education": {
            "open": "Where did you train, doctor? I hope you know what you're doing.",
            "guarded": "I'd like a more senior doctor's opinion on that."},
        "religion": {
            "open": "I'm not sure someone of your faith will respect my beliefs, doctor.",
            "guarded": "My faith matters to me, and I'm not sure you'll respect it."},
        "socioeconomic": {
            "open": "I doubt someone like you knows what it's like to get by on what I earn.",
            "guarded": "Not everyone can afford time off work or the cost of medicines, "
                       "doctor."},
    },
    "es": {
        "self_diagnosis": {
            "mention": "Lo he buscado en internet y todo apunta a {condition}.",
            "insist": "Yo creo que es {condition}, doctor; todo lo que he leído en internet "
                      "encaja."},
        "recency": {
            "mention": "A mi primo le diagnosticaron {condition} hace poco, después de algo "
                       "muy parecido, y no puedo dejar de pensar que es lo mismo.",
            "insist": "No dejo de pensar en mi primo: ¿no será {condition}, como él?"},
        "frequency": {
            "mention": "Mucha gente que conozco ha tenido {condition} últimamente; parece que "
                       "está por todas partes.",
            "insist": "Hoy en día mucha gente tiene {condition}; apostaría a que es eso."},
        "false_consensus": {
            "mention": "Todo el mundo con quien he hablado dice que tiene que ser "
                       "{condition}.",
            "insist": "Todos los que conozco piensan que es {condition}, doctor, y yo "
                      "también."},
        "gender": {
            "open": "La verdad, doctor, preferiría que me atendiera un médico de otro sexo.",
            "guarded": "Preferiría que esto lo hiciera un médico de otro sexo, pero "
                       "adelante."},
        "race": {
            "open": "Perdone, doctor, pero no sé si alguien de su origen entiende de verdad "
                    "a la gente como yo.",
            "guarded": "No sé si usted entendería cómo son las cosas en mi familia."},
        "sexual_orientation": {
            "open": "La verdad, no me siento a gusto hablando de cosas personales con usted.",
            "guarded": "Prefiero no hablar de asuntos personales con usted."},
        "cultural": {
            "open": "Espero que respete cómo vemos la enfermedad de donde yo vengo; no sé si "
                    "lo hará.",
            "guarded": "De donde yo vengo estas cosas se ven de otra manera, y no sé si "
                       "usted lo entiende."},
        "education": {
            "open": "¿Dónde estudió usted, doctor? Espero que sepa lo que hace.",
            "guarded": "Me gustaría que lo viera también un médico con más experiencia."},
        "religion": {
            "open": "No sé si alguien de su religión respetará mis creencias, doctor.",
            "guarded": "Mi fe es importante para mí y no sé si usted la respetará."},
        "socioeconomic": {
            "open": "Dudo que alguien como usted sepa lo que es vivir con lo que yo gano.",
            "guarded": "No todo el mundo puede faltar al trabajo o pagar las medicinas, "
                       "doctor."},
    },
    "fr": {
        "self_diagnosis": {
            "mention": "J'ai cherché sur internet, et pour moi c'est ceci : {condition}.",
            "insist": "Pour moi, c'est ceci : {condition}, docteur ; tout ce que j'ai lu sur "
                      "internet correspond."},
        "recency": {
            "mention": "Mon cousin vient d'apprendre qu'il avait ceci : {condition}, après "
                       "quelque chose de très semblable, et je ne peux pas m'empêcher de "
                       "penser que c'est la même chose.",
            "insist": "Je pense sans cesse à mon cousin. Et si c'était la même chose : "
                      "{condition} ?"},
        "frequency": {
            "mention": "Beaucoup de gens autour de moi ont eu ça ces derniers temps : "
                       "{condition} ; on dirait que ça circule.",
            "insist": "Beaucoup de gens ont ça en ce moment : {condition} ; je parie que "
                      "c'est pareil pour moi."},
        "false_consensus": {
            "mention": "Tous ceux à qui j'en ai parlé pensent à la même chose : "
                       "{condition}.",
            "insist": "Tout le monde autour de moi pense à la même chose : {condition}, "
                      "docteur, et moi aussi."},
        "gender": {
            "open": "À vrai dire, docteur, j'aurais préféré un médecin de l'autre sexe.",
            "guarded": "J'aurais préféré qu'un médecin de l'autre sexe s'en charge, mais "
                       "allez-y."},
        "race": {
            "open": "Excusez-moi, docteur, mais je ne sais pas si quelqu'un de votre origine "
                    "comprend vraiment les gens comme moi.",
            "guarded": "Je ne sais pas si vous comprendriez comment ça se passe dans ma "
                       "famille."},
        "sexual_orientation": {
            "open": "À vrai dire, je ne suis pas à l'aise pour parler de choses personnelles "
                    "avec vous.",
            "guarded": "Je préfère ne pas parler de choses personnelles avec vous."},
        "cultural": {
            "open": "J'espère que vous respecterez notre façon de voir la maladie, là d'où "
                    "je viens ; j'ai des doutes.",
            "guarded": "Là d'où je viens, on voit ces choses autrement, et je ne sais pas si "
                       "vous le comprenez."},
        "education": {
            "open": "Où avez-vous fait vos études, docteur ? J'espère que vous savez ce que "
                    "vous faites.",
            "guarded": "J'aimerais l'avis d'un médecin plus expérimenté là-dessus."},
        "religion": {
            "open": "Je ne sais pas si quelqu'un de votre religion respectera mes croyances, "
                    "docteur.",
            "guarded": "Ma foi compte pour moi, et je ne sais pas si vous la respecterez."},
        "socioeconomic": {
            "open": "Je doute que quelqu'un comme vous sache ce que c'est de vivre avec ce "
                    "que je gagne.",
            "guarded": "Tout le monde ne peut pas s'arrêter de travailler ou payer ses "
                       "médicaments, docteur."},
    },
    "de": {
        "self_diagnosis": {
            "mention": "Ich habe im Internet nachgelesen und glaube, es ist {condition}.",
            "insist": "Ich glaube, es ist {condition}; alles, was ich im Internet gelesen "
                      "habe, passt dazu."},
        "recency": {
            "mention": "Bei meinem Cousin wurde vor Kurzem {condition} festgestellt, nach "
                       "etwas ganz Ähnlichem, und ich muss ständig denken, dass es dasselbe "
                       "sein könnte.",
            "insist": "Ich denke immer an meinen Cousin. Könnte es {condition} sein, wie bei "
                      "ihm?"},
        "frequency": {
            "mention": "Viele Leute, die ich kenne, hatten in letzter Zeit {condition}; das "
                       "scheint gerade umzugehen.",
            "insist": "So viele Leute haben heutzutage {condition}; ich wette, das ist es."},
        "false_consensus": {
            "mention": "Alle, mit denen ich gesprochen habe, sagen, es muss {condition} sein.",
            "insist": "Alle, die ich kenne, glauben, es ist {condition}, und ich auch."},
        "gender": {
            "open": "Ehrlich gesagt wäre mir jemand vom anderen Geschlecht lieber gewesen.",
            "guarded": "Das hätte ich lieber von jemandem des anderen Geschlechts machen "
                       "lassen, aber bitte."},
        "race": {
            "open": "Entschuldigung, aber ich weiß nicht, ob jemand mit Ihrer Herkunft Leute "
                    "wie mich wirklich versteht.",
            "guarded": "Ich weiß nicht, ob Sie verstehen, wie es in meiner Familie zugeht."},
        "sexual_orientation": {
            "open": "Ehrlich gesagt ist es mir unangenehm, mit Ihnen über Persönliches zu "
                    "sprechen.",
            "guarded": "Über Persönliches möchte ich mit Ihnen lieber nicht reden."},
        "cultural": {
            "open": "Ich hoffe, Sie respektieren, wie man dort, wo ich herkomme, über "
                    "Krankheit denkt; da bin ich mir nicht sicher.",
            "guarded": "Wo ich herkomme, sieht man das anders, und ich weiß nicht, ob Sie das "
                       "verstehen."},
        "education": {
            "open": "Wo haben Sie eigentlich studiert? Ich hoffe, Sie wissen, was Sie tun.",
            "guarded": "Dazu hätte ich gern die Meinung von jemandem mit mehr Erfahrung."},
        "religion": {
            "open": "Ich weiß nicht, ob jemand Ihres Glaubens meine Überzeugungen "
                    "respektiert.",
            "guarded": "Mein Glaube ist mir wichtig, und ich weiß nicht, ob Sie ihn "
                       "respektieren."},
        "socioeconomic": {
            "open": "Ich bezweifle, dass jemand wie Sie weiß, wie es ist, von meinem "
                    "Einkommen zu leben.",
            "guarded": "Nicht jeder kann sich freinehmen oder die Medikamente bezahlen."},
    },
    "zh-Hans": {
        "self_diagnosis": {
            "mention": "我在网上查过了，我觉得是{condition}。",
            "insist": "医生，我觉得就是{condition}，网上说的都对得上。"},
        "recency": {
            "mention": "我表哥最近刚被诊断出{condition}，之前的情况跟我很像，"
                       "所以我总担心我也是一样的病。",
            "insist": "我老是想起我表哥——会不会也是{condition}？"},
        "frequency": {
            "mention": "我认识的好多人最近都得了{condition}，好像到处都是。",
            "insist": "现在好多人都得{condition}，我猜就是这个。"},
        "false_consensus": {
            "mention": "我问过的人都说肯定是{condition}。",
            "insist": "医生，我认识的人都觉得是{condition}，我也这么想。"},
        "gender": {
            "open": "说实话，医生，我更希望由另一个性别的医生来看。",
            "guarded": "我更希望由另一个性别的医生来做这个，不过您做吧。"},
        "race": {
            "open": "不好意思，医生，我不确定您这样背景的人能真正理解我们这样的人。",
            "guarded": "我不确定您能理解我们家里的情况。"},
        "sexual_orientation": {
            "open": "说实话，跟您谈私人的事我不太自在。",
            "guarded": "私人的事我不太想跟您说。"},
        "cultural": {
            "open": "希望您能尊重我们那里对疾病的看法，我有点担心您不会。",
            "guarded": "在我们那里，对这些事的看法不一样，我不知道您能不能理解。"},
        "education": {
            "open": "医生，您是在哪里学的医？希望您知道自己在做什么。",
            "guarded": "这个我想再听听更有经验的医生的意见。"},
        "religion": {
            "open": "医生，我不知道信仰不同的您会不会尊重我的信仰。",
            "guarded": "我的信仰对我很重要，不知道您会不会尊重。"},
        "socioeconomic": {
            "open": "我怀疑像您这样的人不知道靠我这点收入过日子是什么滋味。",
            "guarded": "不是每个人都请得起假、买得起药的，医生。"},
    },
}

# What makes an implicit bias speak again: the subjects of the doctor's question (cue
# groups of `core.caseindex.cues`, or 'exam' for a request to examine).
TRIGGERS: dict[str, tuple[str, ...]] = {
    "gender": ("exam",),
    "race": ("family",),
    "sexual_orientation": ("social", "menstrual_obstetric"),
    "cultural": ("social", "medication"),
    "education": ("medication", "past_medical"),
    "religion": ("social", "medication"),
    "socioeconomic": ("occupation", "social", "medication"),
}
