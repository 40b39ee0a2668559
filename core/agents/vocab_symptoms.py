"""Multilingual vocabulary of common symptoms, written for bedside (data only).

The retrieval patient adds every name of a concept to a stored symptom that is called by
one of them, so "Avez-vous mal à la tête ?" finds a stored "maux de tête", and an English
question finds a Spanish "fiebre". Only whole stored names are tagged (never a word inside
a longer name), and CJK names are at least two characters long. Format as in
`core.caseindex.vocab_tests`: "|"-separated names per language.

Hindi, Persian and Korean names live in `vocab_symptoms_hi_fa_ko` and are merged in below.

Must not import: anything but the standard library and its companion data module.
"""

from __future__ import annotations

from core.agents import vocab_symptoms_hi_fa_ko as _more

Names = dict[str, str]

SYMPTOMS: dict[str, Names] = {
    "headache": {"en": "headache|headaches|head pain|head ache|sore head",
                 "es": "dolor de cabeza|cefalea|cefaleas",
                 "fr": "mal de tête|maux de tête|mal à la tête|céphalée|céphalées",
                 "de": "kopfschmerz|kopfschmerzen|kopfweh", "zh": "头痛|头疼"},
    "fever": {"en": "fever|temperature|feverish|pyrexia|high temperature|fevers",
              "es": "fiebre|febrícula|calentura", "fr": "fièvre|fébrile|température",
              "de": "fieber|erhöhte temperatur", "zh": "发热|发烧"},
    "chills": {"en": "chills|rigors|shivering|shivers", "es": "escalofríos|tiritona",
               "fr": "frissons", "de": "schüttelfrost|frösteln", "zh": "寒战|发冷|怕冷"},
    "nausea": {"en": "nausea|nauseous|nauseated|feeling sick|feel sick",
               "es": "náuseas|nauseas|ganas de vomitar", "fr": "nausée|nausées|envie de vomir",
               "de": "übelkeit", "zh": "恶心"},
    "vomiting": {"en": "vomiting|vomit|vomited|being sick|throwing up|threw up",
                 "es": "vómitos|vómito|vomitar", "fr": "vomissements|vomissement|vomir",
                 "de": "erbrechen", "zh": "呕吐"},
    "cough": {"en": "cough|coughing", "es": "tos", "fr": "toux", "de": "husten",
              "zh": "咳嗽"},
    "sputum": {"en": "phlegm|sputum", "es": "flemas|esputo|expectoración",
               "fr": "crachats|expectorations", "de": "auswurf", "zh": "咳痰|痰"},
    "dyspnoea": {"en": "shortness of breath|short of breath|breathless|breathlessness|"
                       "dyspnoea|dyspnea|difficulty breathing|trouble breathing|out of breath",
                 "es": "falta de aire|disnea|ahogo|dificultad para respirar",
                 "fr": "essoufflement|dyspnée|souffle court|difficulté à respirer",
                 "de": "atemnot|luftnot|kurzatmigkeit|dyspnoe",
                 "zh": "呼吸困难|气短|气促|喘不上气"},
    "chest_pain": {"en": "chest pain|pain in the chest|chest tightness|chest pressure",
                   "es": "dolor torácico|dolor en el pecho|opresión en el pecho",
                   "fr": "douleur thoracique|douleur dans la poitrine|mal à la poitrine",
                   "de": "brustschmerz|brustschmerzen|schmerzen in der brust",
                   "zh": "胸痛|胸口痛|胸闷"},
    "abdominal_pain": {"en": "abdominal pain|stomach pain|tummy pain|belly pain|stomach ache|"
                             "stomachache|tummy ache",
                       "es": "dolor abdominal|dolor de barriga|dolor de tripa|"
                             "dolor de estómago",
                       "fr": "douleur abdominale|douleurs abdominales|mal au ventre|"
                             "douleur au ventre",
                       "de": "bauchschmerz|bauchschmerzen|magenschmerzen",
                       "zh": "腹痛|肚子疼|肚子痛"},
    "back_pain": {"en": "back pain|backache", "es": "dolor de espalda|lumbalgia",
                  "fr": "mal de dos|douleur dorsale|lombalgie",
                  "de": "rückenschmerz|rückenschmerzen", "zh": "背痛"},
    "dizziness": {"en": "dizziness|dizzy|lightheaded|light headed|vertigo|giddy",
                  "es": "mareo|mareos|vértigo", "fr": "vertige|vertiges|étourdissement",
                  "de": "schwindel|schwindelig", "zh": "头晕|眩晕"},
    "syncope": {"en": "fainting|faint|passed out|blackout|syncope|loss of consciousness",
                "es": "desmayo|síncope|pérdida de conocimiento",
                "fr": "évanouissement|syncope|perte de connaissance",
                "de": "ohnmacht|synkope|bewusstlosigkeit", "zh": "晕厥|昏倒|晕倒"},
    "fatigue": {"en": "tiredness|tired|fatigue|exhausted|exhaustion|lethargy|no energy",
                "es": "cansancio|fatiga|agotamiento", "fr": "fatigue|épuisement|asthénie",
                "de": "müdigkeit|erschöpfung|abgeschlagenheit", "zh": "乏力|疲劳|疲倦"},
    "weight_loss": {"en": "weight loss|lost weight|losing weight",
                    "es": "pérdida de peso|adelgazamiento",
                    "fr": "perte de poids|amaigrissement", "de": "gewichtsverlust",
                    "zh": "体重下降|消瘦|体重减轻"},
    "diarrhoea": {"en": "diarrhoea|diarrhea|loose stools|runny stools", "es": "diarrea",
                  "fr": "diarrhée", "de": "durchfall", "zh": "腹泻|拉肚子"},
    "constipation": {"en": "constipation|constipated", "es": "estreñimiento",
                     "fr": "constipation", "de": "verstopfung", "zh": "便秘"},
    "diplopia": {"en": "double vision|diplopia|seeing double|seeing two of everything|"
                       "seeing two of things|see double",
                 "es": "visión doble|diplopía|ve doble", "fr": "vision double|diplopie|voit double",
                 "de": "doppelbilder|doppeltsehen|doppelt sehen", "zh": "复视|重影|看东西重影"},
    "rash": {"en": "rash|skin rash", "es": "erupción|sarpullido|exantema",
             "fr": "éruption|éruption cutanée", "de": "ausschlag|hautausschlag",
             "zh": "皮疹|疹子"},
    "itching": {"en": "itching|itch|itchy|pruritus", "es": "picor|picazón|prurito",
                "fr": "démangeaisons|prurit", "de": "juckreiz", "zh": "瘙痒"},
    "palpitations": {"en": "palpitations|racing heart|heart racing|pounding heart",
                     "es": "palpitaciones", "fr": "palpitations",
                     "de": "herzklopfen|herzrasen|herzstolpern|palpitationen",
                     "zh": "心悸|心慌"},
    "swelling": {"en": "swelling|oedema|edema", "es": "hinchazón|edema",
                 "fr": "gonflement|œdème|oedème", "de": "schwellung|ödem", "zh": "水肿|浮肿"},
    "sweating": {"en": "sweating|sweats|sweaty|diaphoresis", "es": "sudoración|sudores",
                 "fr": "sueurs|transpiration", "de": "schwitzen", "zh": "出汗|大汗"},
    "dysuria": {"en": "dysuria|pain on passing urine|burning when passing urine|"
                      "burning urine|painful urination",
                "es": "disuria|escozor al orinar|escuece al orinar|ardor al orinar|"
                      "dolor al orinar",
                "fr": "dysurie|brûlures urinaires|brûlure en urinant",
                "de": "dysurie|brennen beim wasserlassen", "zh": "尿痛|排尿疼痛"},
    "haematuria": {"en": "haematuria|hematuria|blood in the urine|blood in urine|red urine",
                   "es": "hematuria|sangre en la orina", "fr": "hématurie|sang dans les urines",
                   "de": "hämaturie|blut im urin", "zh": "血尿|尿血"},
    "weakness": {"en": "weakness", "es": "debilidad", "fr": "faiblesse", "de": "schwäche",
                 "zh": "无力"},
    "numbness": {"en": "numbness|tingling|pins and needles", "es": "entumecimiento|hormigueo",
                 "fr": "engourdissement|fourmillements", "de": "taubheit|kribbeln",
                 "zh": "麻木"},
    "blurred_vision": {"en": "blurred vision|blurry vision|visual disturbance|vision problems",
                       "es": "visión borrosa|problemas de vista",
                       "fr": "vision floue|troubles visuels|trouble de la vue",
                       "de": "sehstörung|sehstörungen|verschwommenes sehen",
                       "zh": "视物模糊|视力模糊"},
    "confusion": {"en": "confusion|confused", "es": "confusión", "fr": "confusion",
                  "de": "verwirrtheit", "zh": "意识模糊|糊涂"},
    "sore_throat": {"en": "sore throat|throat pain", "es": "dolor de garganta",
                    "fr": "mal de gorge|mal à la gorge", "de": "halsschmerzen",
                    "zh": "咽痛|喉咙痛"},
    "joint_pain": {"en": "joint pain|joint pains|arthralgia|painful joints",
                   "es": "dolor articular|dolores articulares|artralgias",
                   "fr": "douleurs articulaires|arthralgies", "de": "gelenkschmerzen",
                   "zh": "关节痛"},
    "neck_stiffness": {"en": "neck stiffness|stiff neck", "es": "rigidez de nuca",
                       "fr": "raideur de nuque|nuque raide", "de": "nackensteifigkeit",
                       "zh": "颈强直|脖子僵硬"},
    "jaundice": {"en": "jaundice|yellow skin|yellow eyes", "es": "ictericia|piel amarilla",
                 "fr": "jaunisse|ictère", "de": "gelbsucht|ikterus", "zh": "黄疸"},
    "haemoptysis": {"en": "haemoptysis|hemoptysis|coughing up blood",
                    "es": "hemoptisis|tos con sangre", "fr": "hémoptysie|crachats de sang",
                    "de": "hämoptyse|bluthusten", "zh": "咯血|咳血"},
    "appetite_loss": {"en": "loss of appetite|poor appetite|no appetite",
                      "es": "pérdida de apetito|falta de apetito|inapetencia",
                      "fr": "perte d appétit|anorexie", "de": "appetitlosigkeit",
                      "zh": "食欲不振|没胃口"},
    "thirst": {"en": "thirst|thirsty|polydipsia", "es": "sed|polidipsia",
               "fr": "soif|polydipsie", "de": "durst", "zh": "口渴|多饮"},
    "suicidal_thoughts": {"en": "suicidal thoughts|suicidal ideation|thoughts of suicide|"
                                "thoughts of ending your life|ending your life|end your life|"
                                "ending my life|end my life|killing yourself|kill yourself|"
                                "wanting to die|wish you were dead|self harm|harming yourself",
                          "es": "ideas de suicidio|ideación suicida|pensamientos suicidas|"
                                "quitarse la vida|hacerse daño",
                          "fr": "idées suicidaires|idées noires|envie de mourir|"
                                "mettre fin à vos jours",
                          "de": "suizidgedanken|lebensmüde|selbstmordgedanken|"
                                "sich das leben nehmen",
                          "zh": "自杀念头|轻生|想死|自残"},
    "night_sweats": {"en": "night sweats", "es": "sudores nocturnos", "fr": "sueurs nocturnes",
                     "de": "nachtschweiß", "zh": "盗汗"},
}

# Everyday words and the words records use for the same thing, for matching a question's
# words to a symptom's names ("Is his tummy swollen?" → "distended abdomen") and to stored
# text (`core.agents.questions.found_in`).
WORD_EQUIVALENTS: dict[str, tuple[str, ...]] = {
    "tummy": ("abdomen", "abdominal", "belly", "stomach"),
    "belly": ("abdomen", "abdominal", "tummy", "stomach"),
    "stomach": ("abdomen", "abdominal", "tummy", "belly"),
    "abdomen": ("abdominal", "tummy", "belly", "stomach"),
    "arm": ("upper limb", "upper extremity", "upper extremities"),
    "arms": ("upper limbs", "upper limb", "upper extremities"),
    "leg": ("lower limb", "lower extremity", "lower extremities"),
    "legs": ("lower limbs", "lower limb", "lower extremities"),
    "swollen": ("swelling", "distended", "distension", "enlarged"),
    "swelling": ("swollen", "distended", "distension", "enlarged"),
    "bloated": ("distended", "distension", "bloating", "fullness"),
    "weak": ("weakness", "strength"), "weakness": ("weak", "strength"),
    "tired": ("fatigue", "tiredness", "exhaustion", "lethargy"),
    "touch": ("palpation", "pressing"), "press": ("palpation", "pressing"),
    "cry": ("crying", "screaming"), "walk": ("walking", "gait"),
    "walking": ("walk", "gait"), "see": ("vision", "visual"), "eyesight": ("vision", "visual"),
    "pee": ("urine", "urinating", "urination"), "wee": ("urine", "urination"),
    "poo": ("stool", "stools", "bowel"), "lump": ("mass", "swelling", "node"),
    "sweats": ("sweating", "diaphoresis"), "sweaty": ("sweating", "diaphoresis"),
    "thirsty": ("thirst", "polydipsia"), "breath": ("breathing", "breathless", "dyspnea"),
    # Irregular forms that no suffix rule finds.
    "lost": ("loss", "losing"), "lose": ("loss", "losing", "lost"), "ate": ("eat", "eating"),
    "eat": ("ate", "eaten", "eating"), "drank": ("drink", "drinking"),
    "drink": ("drank", "drunk", "drinking"), "put": ("putting", "gain", "gained"),
    "birth": ("born", "delivered", "delivery", "gestation"),
    "born": ("birth", "delivered", "delivery"), "slept": ("sleep", "sleeping"),
    "sleep": ("slept", "sleeping"), "woke": ("wake", "waking"), "felt": ("feel", "feeling"),
    "contrast": ("dye",), "dye": ("contrast",), "falling": ("loss", "thinning"),
    "unsteady": ("ataxia", "balance", "gait", "wobbly"), "wobbly": ("unsteady", "ataxia"),
    "less": ("decreased", "reduced", "poor"), "more": ("increased",),
    "lie": ("lying", "lay", "lain"), "lying": ("lie", "lay"),
    "weapons": ("weapon", "guns", "gun", "firearms", "firearm", "knives"),
    "weapon": ("weapons", "guns", "gun", "firearms", "firearm", "knives"),
    "firearms": ("guns", "gun", "weapons"), "guns": ("weapons", "firearms", "gun"),
    "upstairs": ("stairs", "steps"), "stairs": ("upstairs", "steps"),
    "puffed": ("breathless", "breathlessness", "out of breath", "short of breath"),
    "winded": ("breathless", "breathlessness", "out of breath", "short of breath"),
    "bowels": ("bowel", "constipation", "diarrhoea", "diarrhea", "stools", "motions"),
    "journey": ("travel", "travelled", "traveled", "flight", "flew", "trip"),
    "trip": ("travel", "travelled", "traveled", "journey", "flight", "flew"),
    "abroad": ("travel", "travelled", "traveled", "flight", "flew"),
    # Added in phase 3 of issue 19 (everyday words of a held-out probe set's questions).
    "clumsy": ("ataxia", "ataxic", "uncoordinated", "coordination"),
    "hand": ("upper limb", "limb", "fingers"), "hands": ("upper limbs", "limbs", "fingers"),
    "putting": ("put", "gain", "gained"), "gaining": ("gain", "gained", "put on"),
    "jab": ("vaccination", "vaccinations", "vaccine", "vaccines", "immunisation",
            "immunisations", "immunization"),
    "shot": ("vaccination", "vaccine", "immunisation", "injection"),
    "fussy": ("irritable", "crying", "unsettled"), "flight": ("flew", "flying", "fly"),
    "flew": ("flight", "flying", "fly"), "fly": ("flight", "flew", "flying"),
    "cleared": ("resolved", "resolution", "gone"), "settled": ("resolved", "resolution", "gone"),
}


SYMPTOMS = {key: {**names, **_more.SYMPTOMS.get(key, {})} for key, names in SYMPTOMS.items()}
