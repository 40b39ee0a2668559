"""Multilingual vocabulary of imaging and examinations, written for bedside (data only).

Imaging and examination names are recognised by composition rather than listed whole: a
modality word ("ultrasound", "ecografía", "超声") or an examination word ("exam",
"exploración", "检查") plus a region word ("abdominal", "tórax", "腹部") gives a tag such as
`us:abdomen` or `exam:abdomen`. Regions form a small hierarchy (`PARENTS`), so a request
for an abdominal ultrasound finds a stored renal ultrasound and the other way round.
Explicit concepts cover what composition cannot (CXR, echo, CTPA, vital signs). Format as
in `core.caseindex.vocab_tests`: "|"-separated names per language, "!name" for one language.

Hindi, Persian and Korean names live in `vocab_imaging_hi_fa_ko` and are merged in below,
as are the later explicit names of `vocab_tests_extra`.

Must not import: anything but the standard library and its companion data module.
"""

from __future__ import annotations

from core.caseindex import vocab_imaging_hi_fa_ko as _more
from core.caseindex.vocab_tests import merged
from core.caseindex.vocab_tests_extra import EXPLICIT as _EXTRA_EXPLICIT, appended

Names = dict[str, str]

MODALITIES: dict[str, Names] = {
    "us": {"en": "ultrasound|us|uss|sonography|sonogram|ultrasonography|doppler|duplex",
           "es": "ecografía|eco|ultrasonido|ecodoppler|doppler",
           "fr": "échographie|!echo|doppler|écho doppler",
           "de": "ultraschall|sonographie|sonografie|sono|doppler|duplexsonographie",
           "zh": "超声|b超|彩超|多普勒"},
    "ct": {"en": "ct|cat scan|ct scan|computed tomography|cta|ct angiogram|ct angiography",
           "es": "tac|tc|tomografía|tomografía computarizada|angiotac",
           "fr": "scanner|tdm|tomodensitométrie|angioscanner|uroscanner",
           "de": "computertomographie|computertomografie|ct angiographie",
           "zh": "计算机断层|增强ct|平扫ct"},
    "xr": {"en": "x ray|xray|x rays|radiograph|radiography|plain film|film|rx",
           "es": "radiografía|placa|radiología simple",
           "fr": "radiographie|radio",
           "de": "röntgen|röntgenaufnahme|röntgenbild",
           "zh": "x线|x光|平片|拍片"},
    "mri": {"en": "mri|mr|magnetic resonance|mra",
            "es": "resonancia|resonancia magnética|rm|rmn",
            "fr": "irm|imagerie par résonance magnétique",
            "de": "mrt|kernspin|kernspintomographie|magnetresonanztomographie",
            "zh": "磁共振|核磁"},
}

REGIONS: dict[str, Names] = {
    "head": {"en": "head|brain|cranial|skull|cerebral|intracranial",
             "es": "cabeza|cráneo|craneal|cerebral|cerebro",
             "fr": "tête|crâne|cérébral|cérébrale|encéphale",
             "de": "kopf|schädel|kranial|kraniale|hirn|gehirn", "zh": "头颅|颅脑|头部|脑部"},
    "neck": {"en": "neck", "es": "cuello", "fr": "cou", "de": "hals", "zh": "颈部"},
    "thyroid": {"en": "thyroid", "es": "tiroides|tiroidea", "fr": "thyroïde|thyroïdienne",
                "de": "schilddrüse", "zh": "甲状腺"},
    "chest": {"en": "chest|thorax|thoracic|lung|lungs|pulmonary|respiratory|pleural|"
                    "cardiorespiratory|cardiopulmonary",
              "es": "tórax|torácica|torácico|pulmón|pulmones|pulmonar|respiratoria|"
                    "respiratorio|cardiopulmonar",
              "fr": "thorax|thoracique|poumon|poumons|pulmonaire|respiratoire|"
                    "cardio pulmonaire|cardiopulmonaire",
              "de": "thorax|lunge|lungen|brustkorb|pulmonal|kardiopulmonal",
              "zh": "胸部|胸|肺|肺部|胸腔|心肺"},
    "heart": {"en": "heart|cardiac|cardiovascular|cardio|precordial|cardiorespiratory|"
                    "cardiopulmonary",
              "es": "corazón|cardiaca|cardíaca|cardiaco|cardíaco|cardiovascular|cardiopulmonar",
              "fr": "cœur|coeur|cardiaque|cardiovasculaire|cardio vasculaire|cardio pulmonaire|"
                    "cardiopulmonaire",
              "de": "herz|kardial|kardiale|herz kreislauf|kardiopulmonal",
              "zh": "心脏|心肺"},
    "abdomen": {"en": "abdomen|abdominal|abdo|tummy|belly",
                "es": "abdomen|abdominal|barriga", "fr": "abdomen|abdominal|abdominale|ventre",
                "de": "abdomen|bauch|abdominal|abdominelle|oberbauch",
                "zh": "腹部|腹|上腹部|肚子"},
    "liver": {"en": "liver|hepatic", "es": "hígado|hepático", "fr": "foie|hépatique",
              "de": "leber", "zh": "肝脏|肝"},
    "biliary": {"en": "gallbladder|biliary|ruq|right upper quadrant|hepatobiliary",
                "es": "vesícula|biliar|vías biliares", "fr": "vésicule|biliaire|voies biliaires",
                "de": "gallenblase|gallenwege", "zh": "胆囊|胆道|肝胆"},
    "pancreas": {"en": "pancreas|pancreatic", "es": "páncreas", "fr": "pancréas",
                 "de": "pankreas", "zh": "胰腺"},
    "kidney": {"en": "kidney|kidneys|renal", "es": "riñón|riñones|renal",
               "fr": "rein|reins|rénal|rénale", "de": "niere|nieren|renal",
               "zh": "肾脏|肾|双肾"},
    "urinary": {"en": "urinary tract|urinary|kub|urological|urography|urogram",
                "es": "vías urinarias|urinario|aparato urinario|urografía",
                "fr": "voies urinaires|urinaire|arbre urinaire|urographie",
                "de": "harnwege|harntrakt|urologisch|urographie",
                "zh": "泌尿系|泌尿系统|尿路"},
    "bladder": {"en": "bladder", "es": "vejiga", "fr": "vessie", "de": "blase|harnblase",
                "zh": "膀胱"},
    "pelvis": {"en": "pelvis|pelvic|transvaginal|gynaecological|gynecological|uterus|adnexa",
               "es": "pelvis|pélvica|pélvico|ginecológica|transvaginal",
               "fr": "pelvis|pelvien|pelvienne|endovaginale|gynécologique",
               "de": "becken|gynäkologisch|transvaginal", "zh": "盆腔|妇科|子宫|附件"},
    "obstetric": {"en": "obstetric|fetal|foetal", "es": "obstétrica|fetal",
                  "fr": "obstétricale|fœtale|foetale", "de": "geburtshilflich|fetal",
                  "zh": "产科|胎儿"},
    "prostate": {"en": "prostate", "es": "próstata", "fr": "prostate", "de": "prostata",
                 "zh": "前列腺"},
    "genital": {"en": "genital|genitalia|external genitalia", "es": "genital|genitales",
                "fr": "génital|organes génitaux", "de": "genital|genitalien",
                "zh": "外生殖器|生殖器"},
    "scrotum": {"en": "scrotal|scrotum|testicular|testis|testes|testicle",
                "es": "escroto|escrotal|testicular|testículo",
                "fr": "scrotum|scrotal|testiculaire|bourses", "de": "skrotum|hoden",
                "zh": "阴囊|睾丸"},
    "leg": {"en": "leg|legs|lower limb|lower limbs|calf|calves|lower extremity",
            "es": "pierna|piernas|miembros inferiores|extremidades inferiores",
            "fr": "jambe|jambes|membres inférieurs|mollet", "de": "bein|beine|unterschenkel|wade",
            "zh": "下肢|腿"},
    "arm": {"en": "arm|arms|upper limb", "es": "brazo|brazos", "fr": "bras", "de": "arm|arme",
            "zh": "上肢"},
    "joint": {"en": "joint|joints|articular|musculoskeletal",
              "es": "articular|articulación|articulaciones|musculoesquelética",
              "fr": "articulaire|articulations", "de": "gelenk|gelenke", "zh": "关节"},
    "foot": {"en": "foot|feet|toe|toes", "es": "pie|pies|dedo gordo", "fr": "pied|pieds|orteil",
             "de": "fuß|füße|zeh", "zh": "足部|脚"},
    "knee": {"en": "knee|knees", "es": "rodilla", "fr": "genou", "de": "knie", "zh": "膝关节"},
    "hand": {"en": "hand|hands", "es": "mano|manos", "fr": "main|mains", "de": "hand|hände",
             "zh": "手部"},
    "spine": {"en": "spine|spinal|back|lumbar spine|cervical spine|thoracic spine|vertebral",
              "es": "columna|espalda|columna lumbar", "fr": "rachis|colonne|dos",
              "de": "wirbelsäule|rücken|lws|hws", "zh": "脊柱|腰椎|颈椎|背部"},
    "skin": {"en": "skin|dermatological|cutaneous", "es": "piel|cutánea|dermatológica",
             "fr": "peau|cutané|cutanée|dermatologique", "de": "!haut|dermatologisch",
             "zh": "皮肤"},
    "eye": {"en": "eye|eyes|ocular|ophthalmic|fundi", "es": "ojo|ojos|ocular|oftalmológica",
            "fr": "œil|yeux|oculaire|ophtalmologique", "de": "auge|augen", "zh": "眼部|眼睛|眼科"},
    "ent": {"en": "ent|ear|ears|throat|nose|oropharynx|pharynx",
            "es": "orl|oído|oídos|garganta|faringe", "fr": "orl|oreille|oreilles|gorge|pharynx",
            "de": "hno|ohr|ohren|rachen", "zh": "耳鼻喉|咽喉|咽部"},
    "neuro": {"en": "neurological|neuro|neurologic|nervous system|cranial nerves",
              "es": "neurológica|neurológico|pares craneales",
              "fr": "neurologique|nerfs crâniens|paires crâniennes",
              "de": "neurologisch|neurologische|neurostatus|hirnnerven",
              "zh": "神经系统|神经科"},
    "rectal": {"en": "rectal|rectum", "es": "rectal", "fr": "rectal", "de": "rektal",
               "zh": "直肠"},
    "vascular": {"en": "vascular|pulses|peripheral pulses|peripheral vascular",
                 "es": "vascular|pulsos", "fr": "vasculaire|pouls périphériques",
                 "de": "gefäß|gefäßstatus|pulsstatus", "zh": "血管"},
    "lymph": {"en": "lymph nodes|lymph node|lymphadenopathy", "es": "ganglios|adenopatías",
              "fr": "ganglions|aires ganglionnaires|adénopathies", "de": "lymphknoten",
              "zh": "淋巴结"},
    "temporal": {"en": "temporal artery|temporal arteries", "es": "arteria temporal",
                 "fr": "artère temporale", "de": "temporalarterie|arteria temporalis",
                 "zh": "颞动脉"},
}

# region → its broader regions (a region may sit under several).
PARENTS: dict[str, tuple[str, ...]] = {
    "thyroid": ("neck",), "liver": ("abdomen",), "biliary": ("abdomen",),
    "pancreas": ("abdomen",), "kidney": ("urinary", "abdomen"), "urinary": ("abdomen",),
    "bladder": ("urinary", "pelvis"), "pelvis": ("abdomen",), "obstetric": ("pelvis",),
    "prostate": ("pelvis",), "scrotum": ("genital",), "foot": ("leg", "joint"),
    "knee": ("leg", "joint"), "hand": ("arm", "joint"),
}

# Words that make a region name an examination ("abdominal" + "exam").
EXAM_WORDS: Names = {
    "en": "exam|examination|examine|assessment|inspection|palpation|auscultation|percussion|"
          "check",
    "es": "exploración|examen|auscultación|palpación|inspección",
    "fr": "examen|auscultation|palpation|inspection",
    "de": "untersuchung|status|auskultation|palpation|inspektion",
    "zh": "检查|查体|体检|触诊|听诊|视诊",
}

# Explicit concepts that composition cannot build.
EXPLICIT: dict[str, Names] = {
    "exam:vitals": {"en": "vitals|vital signs|observations|obs|vital observations|"
                          "basic observations",
                    "es": "constantes vitales|signos vitales|constantes",
                    "fr": "constantes|signes vitaux|paramètres vitaux|constantes vitales",
                    "de": "vitalparameter|vitalzeichen|vitalwerte", "zh": "生命体征"},
    "exam:general": {"en": "general examination|general appearance|general inspection|"
                           "general condition",
                     "es": "aspecto general|estado general|exploración general",
                     "fr": "aspect général|état général|examen général",
                     "de": "allgemeinzustand|allgemeiner eindruck",
                     "zh": "一般情况|一般状况|全身情况|一般检查"},
    "exam:mental": {"en": "mental state examination|mental status examination|mse|"
                          "psychiatric assessment",
                    "es": "examen del estado mental|exploración psicopatológica",
                    "fr": "examen de l état mental|examen psychiatrique",
                    "de": "psychopathologischer befund|psychischer befund",
                    "zh": "精神状态检查"},
    "exam:meningism": {"en": "meningism|neck stiffness|meningeal signs|kernig|brudzinski",
                       "es": "signos meníngeos|rigidez de nuca",
                       "fr": "signes méningés|raideur de nuque",
                       "de": "meningismus|nackensteifigkeit", "zh": "脑膜刺激征|颈强直"},
    "exam:rectal": {"en": "dre|digital rectal examination|pr exam|pr examination",
                    "es": "tacto rectal", "fr": "toucher rectal",
                    "de": "rektale untersuchung|digital rektale untersuchung",
                    "zh": "直肠指检|肛门指检"},
    "exam:eye": {"en": "fundoscopy|ophthalmoscopy|visual acuity|visual fields",
                 "es": "fondo de ojo", "fr": "fond d œil", "de": "augenhintergrund",
                 "zh": "眼底检查"},
    "exam:ent": {"en": "otoscopy", "es": "otoscopia", "fr": "otoscopie", "de": "otoskopie",
                 "zh": "耳镜检查"},
    "vital:bp": {"en": "blood pressure|bp|arterial pressure",
                 "es": "tensión arterial|presión arterial|!ta",
                 "fr": "pression artérielle|tension artérielle|!pa|!ta",
                 "de": "blutdruck|!rr", "zh": "血压"},
    "vital:hr": {"en": "heart rate|pulse|pulse rate|hr", "es": "frecuencia cardiaca|pulso|!fc",
                 "fr": "fréquence cardiaque|pouls|!fc", "de": "herzfrequenz|puls|!hf",
                 "zh": "心率|脉搏"},
    "vital:temp": {"en": "temperature|temp|body temperature", "es": "temperatura",
                   "fr": "température", "de": "temperatur|körpertemperatur", "zh": "体温"},
    "vital:rr": {"en": "respiratory rate|rr|resp rate|breathing rate",
                 "es": "frecuencia respiratoria|!fr", "fr": "fréquence respiratoire|!fr",
                 "de": "atemfrequenz|!af", "zh": "呼吸频率"},
    "vital:spo2": {"en": "oxygen saturation|spo2|sats|saturation|o2 sats|pulse oximetry",
                   "es": "saturación de oxígeno|saturación|sato2",
                   "fr": "saturation en oxygène|saturation",
                   "de": "sauerstoffsättigung|sättigung", "zh": "血氧饱和度|血氧|氧饱和度"},
    "us:heart": {"en": "echocardiogram|echo|tte|transthoracic echocardiogram|cardiac ultrasound|"
                       "echocardiography|tee|transoesophageal echo",
                 "es": "ecocardiograma|ecocardiografía|ecografía cardiaca",
                 "fr": "échocardiographie|échographie cardiaque|ett",
                 "de": "echokardiographie|echokardiografie|echo|herzultraschall|herzecho",
                 "zh": "超声心动图|心脏超声|心超|心脏彩超"},
    "xr:chest": {"en": "cxr|chest film|pa chest", "es": "rx de tórax|rx tórax",
                 "fr": "radio pulmonaire|radiographie pulmonaire", "de": "röntgenthorax|rö thorax",
                 "zh": "胸片"},
    "xr:abdomen": {"en": "axr", "es": "rx de abdomen", "fr": "asp|abdomen sans préparation",
                   "de": "abdomenübersicht", "zh": "腹平片"},
    "ct:chest": {"en": "ctpa|ct pulmonary angiogram|ct pulmonary angiography",
                 "es": "angiotac pulmonar", "fr": "angioscanner thoracique",
                 "de": "ct angiographie der lunge", "zh": "ct肺动脉造影"},
    "ct:head": {"en": "ct head|head ct|ct brain", "es": "tac craneal", "fr": "scanner cérébral",
                "de": "cct|schädel ct|kraniale computertomographie", "zh": "头颅ct"},
    "ct:urinary": {"en": "ct kub|ctu|ct urography|ct urogram|stone ct",
                   "es": "urotac|uro tc", "fr": "uroscanner", "de": "ct urographie",
                   "zh": "ct尿路造影"},
    "mri:head": {"en": "mri brain|mri head|brain mri", "es": "resonancia craneal",
                 "fr": "irm cérébrale", "de": "cmrt|mrt schädel", "zh": "头颅磁共振"},
    "us:leg": {"en": "compression ultrasound|dvt scan|venous duplex|leg doppler|"
                     "lower limb doppler",
               "es": "eco doppler venoso|doppler venoso", "fr": "écho doppler veineux",
               "de": "kompressionssonographie|beinvenendoppler", "zh": "下肢静脉超声"},
    "us:pelvis": {"en": "tvus|transvaginal ultrasound|transvaginal scan",
                  "es": "ecografía transvaginal", "fr": "échographie endovaginale",
                  "de": "transvaginaler ultraschall", "zh": "阴道超声|经阴道超声"},
}

# Requests for "the examination" as a whole: every examination finding.
WHOLE_EXAM = frozenset({
    "physical examination", "physical exam", "examination", "exam", "clinical examination",
    "physical", "full examination", "full physical examination", "complete examination",
    "examen physique", "examen clinique", "exploracion fisica", "exploracion",
    "examen fisico", "korperliche untersuchung", "klinische untersuchung", "untersuchung",
    "体格检查", "查体", "体检"})



MODALITIES = merged(MODALITIES, _more.MODALITIES)
REGIONS = merged(REGIONS, _more.REGIONS)
EXPLICIT = appended(merged(EXPLICIT, _more.EXPLICIT), _EXTRA_EXPLICIT)
PARENTS = {**PARENTS, **_more.PARENTS}
EXAM_WORDS = {**EXAM_WORDS, **_more.EXAM_WORDS}
# Compared with names in the matching form: Persian "معاینه‌ی" is "معاینه ی" there.
WHOLE_EXAM = WHOLE_EXAM | frozenset(_more.WHOLE_EXAM)
