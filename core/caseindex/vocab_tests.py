"""Multilingual vocabulary of laboratory and bedside tests, written for bedside (data only).

Each concept maps a language (en, es, fr, de, zh) to the names a doctor may use for it,
separated by "|". A request in any language finds a stored item in any language because
both are tagged with the same concept (`core.caseindex.concepts`). A name written "!name"
counts only in cases of that language: abbreviations that mean something else elsewhere
(Spanish "PCR" is C-reactive protein, in English a polymerase chain reaction).

Hindi, Persian and Korean names live in `vocab_tests_hi_fa_ko`, later additions in
`vocab_tests_extra`; both are merged in below.

Must not import: anything but the standard library and its companion data modules.
"""

from __future__ import annotations

from core.caseindex import vocab_tests_extra as _extra
from core.caseindex import vocab_tests_hi_fa_ko as _more

Names = dict[str, str]

LABS: dict[str, Names] = {
    "lab:cbc": {
        "en": "complete blood count|full blood count|blood count|cbc|fbc|hemogram|haemogram|"
              "cbc with differential|blood counts|differential count",
        "es": "hemograma|hemograma completo|recuento sanguíneo|biometría hemática",
        "fr": "numération formule sanguine|nfs|hémogramme|numération sanguine",
        "de": "blutbild|großes blutbild|kleines blutbild|differentialblutbild",
        "zh": "血常规|全血细胞计数|血细胞分析"},
    "lab:bmp": {
        "en": "basic metabolic panel|bmp|u&e|u&es|u+e|u and e|u and es|urea and electrolytes|"
              "electrolytes|renal function|kidney function|renal profile|renal panel|"
              "renal function tests|chem 7|chem7|metabolic panel|comprehensive metabolic "
              "panel|cmp",
        "es": "función renal|iones|electrolitos|ionograma|perfil renal|bioquímica|"
              "bioquímica básica|urea y creatinina",
        "fr": "ionogramme|ionogramme sanguin|bilan rénal|fonction rénale|urée créatinine|"
              "électrolytes",
        "de": "elektrolyte|nierenwerte|nierenfunktion|nierenfunktionswerte|klinische chemie|"
              "retentionswerte",
        "zh": "电解质|肾功能|生化|肾功能与电解质|肾功|血生化"},
    "lab:lft": {
        "en": "liver function tests|liver function test|liver function|lft|lfts|liver panel|"
              "hepatic panel|liver enzymes|liver tests|transaminases|cmp|"
              "comprehensive metabolic panel|alt|ast|alp|ggt|gamma gt|alanine aminotransferase|"
              "aspartate aminotransferase|alkaline phosphatase",
        "es": "perfil hepático|pruebas hepáticas|función hepática|transaminasas|"
              "enzimas hepáticas",
        "fr": "bilan hépatique|transaminases|enzymes hépatiques|fonction hépatique|"
              "bilan du foie",
        "de": "leberwerte|leberenzyme|transaminasen|leberfunktion",
        "zh": "肝功能|肝功|转氨酶"},
    "lab:crp": {
        "en": "c reactive protein|crp|hs crp|hscrp|inflammatory markers",
        "es": "proteína c reactiva|!pcr|reactantes de fase aguda",
        "fr": "protéine c réactive|crp",
        "de": "c reaktives protein|crp",
        "zh": "c反应蛋白|超敏c反应蛋白"},
    "lab:esr": {
        "en": "esr|erythrocyte sedimentation rate|sed rate|inflammatory markers",
        "es": "vsg|velocidad de sedimentación|velocidad de sedimentación globular",
        "fr": "vitesse de sédimentation|!vs",
        "de": "bsg|blutsenkung|blutsenkungsgeschwindigkeit",
        "zh": "血沉|红细胞沉降率"},
    "lab:troponin": {
        "en": "troponin|trop|troponin i|troponin t|hs troponin|high sensitivity troponin|"
              "cardiac troponin|cardiac enzymes",
        "es": "troponina|troponinas|enzimas cardiacas",
        "fr": "troponine|troponinémie|enzymes cardiaques",
        "de": "troponin|herzenzyme",
        "zh": "肌钙蛋白|心肌酶|心肌标志物"},
    "lab:bnp": {
        "en": "bnp|nt probnp|pro bnp|natriuretic peptide|brain natriuretic peptide",
        "es": "péptido natriurético",
        "fr": "peptide natriurétique",
        "de": "natriuretisches peptid",
        "zh": "脑钠肽|脑利钠肽"},
    "lab:ddimer": {
        "en": "d dimer|d dimers|ddimer",
        "es": "dímero d|dímeros d",
        "fr": "d dimères",
        "de": "d dimere",
        "zh": "d二聚体"},
    "lab:coag": {
        "en": "coagulation screen|coagulation|clotting screen|clotting|coag|coags|inr|pt|aptt|"
              "ptt|pt inr|prothrombin time|coagulation studies|clotting studies",
        "es": "coagulación|estudio de coagulación|tiempo de protrombina|!tp|ttpa",
        "fr": "bilan d hémostase|hémostase|coagulation|!tp|tca|taux de prothrombine",
        "de": "gerinnung|gerinnungswerte|gerinnungsstatus|!quick",
        "zh": "凝血功能|凝血|凝血四项|凝血常规"},
    "lab:glucose": {
        "en": "glucose|blood glucose|blood sugar|sugar|random glucose|fasting glucose|"
              "capillary glucose|cbg|finger prick glucose",
        "es": "glucosa|glucemia|glucemia capilar|azúcar en sangre",
        "fr": "glycémie|glycémie capillaire|dextro",
        "de": "blutzucker|glukose|bz",
        "zh": "血糖|葡萄糖|随机血糖|空腹血糖|指尖血糖"},
    "lab:hba1c": {
        "en": "hba1c|a1c|glycated haemoglobin|glycated hemoglobin|glycosylated haemoglobin|"
              "haemoglobin a1c|hemoglobin a1c",
        "es": "hemoglobina glicada|hemoglobina glucosilada",
        "fr": "hémoglobine glyquée",
        "de": "langzeitblutzucker",
        "zh": "糖化血红蛋白"},
    "lab:tft": {
        "en": "thyroid function tests|thyroid function|tft|tfts|tsh|free t4|ft4|t4|t3|free t3|"
              "thyroid panel|thyroid tests|thyroid stimulating hormone",
        "es": "hormonas tiroideas|función tiroidea|t4 libre|perfil tiroideo",
        "fr": "bilan thyroïdien|t4 libre|fonction thyroïdienne",
        "de": "schilddrüsenwerte|schilddrüsenhormone",
        "zh": "甲状腺功能|甲功|促甲状腺激素"},
    "lab:lipase": {
        "en": "lipase|serum lipase|pancreatic enzymes", "es": "lipasa",
        "fr": "lipasémie", "de": "lipase", "zh": "脂肪酶|血脂肪酶"},
    "lab:amylase": {
        "en": "amylase|serum amylase|pancreatic enzymes", "es": "amilasa",
        "fr": "amylasémie", "de": "amylase", "zh": "淀粉酶|血淀粉酶"},
    "lab:abg": {
        "en": "blood gas|arterial blood gas|abg|vbg|venous blood gas|blood gases",
        "es": "gasometría|gasometría arterial|gasometría venosa",
        "fr": "gaz du sang|gazométrie|gaz du sang artériel",
        "de": "blutgasanalyse|bga|blutgase",
        "zh": "血气|血气分析|动脉血气"},
    "lab:lactate": {
        "en": "lactate|serum lactate|lactic acid", "es": "lactato|ácido láctico",
        "fr": "lactates|lactatémie", "de": "laktat", "zh": "乳酸"},
    "lab:lipids": {
        "en": "lipid profile|lipids|lipid panel|cholesterol|fasting lipids",
        "es": "perfil lipídico|colesterol|lípidos",
        "fr": "bilan lipidique|cholestérol",
        "de": "lipidprofil|blutfette|cholesterin|lipide",
        "zh": "血脂|血脂四项|胆固醇"},
    "lab:urate": {
        "en": "uric acid|urate|serum urate", "es": "ácido úrico|uricemia|urato",
        "fr": "acide urique|uricémie", "de": "harnsäure", "zh": "尿酸|血尿酸"},
    "lab:ck": {
        "en": "creatine kinase|ck|cpk|creatine phosphokinase",
        "es": "creatina quinasa|creatinquinasa", "fr": "créatine kinase|créatine phosphokinase",
        "de": "kreatinkinase", "zh": "肌酸激酶"},
    "lab:iron": {
        "en": "ferritin|iron studies|iron|serum iron|iron panel",
        "es": "ferritina|perfil de hierro|hierro|metabolismo del hierro",
        "fr": "ferritine|bilan martial|fer sérique", "de": "ferritin|eisen|eisenstatus",
        "zh": "铁蛋白|铁代谢|血清铁"},
    "lab:b12": {
        "en": "vitamin b12|b12|cobalamin", "es": "vitamina b12|cobalamina",
        "fr": "vitamine b12", "de": "vitamin b12", "zh": "维生素b12"},
    "lab:folate": {
        "en": "folate|folic acid|serum folate", "es": "ácido fólico|folato",
        "fr": "folates|acide folique", "de": "folsäure", "zh": "叶酸"},
    "lab:calcium": {
        "en": "calcium|bone profile|adjusted calcium|corrected calcium", "es": "calcio",
        "fr": "calcémie", "de": "kalzium", "zh": "血钙"},
    "lab:procalcitonin": {
        "en": "procalcitonin|pct", "es": "procalcitonina", "fr": "procalcitonine",
        "de": "procalcitonin", "zh": "降钙素原"},
    "lab:hcg": {
        "en": "pregnancy test|hcg|beta hcg|urine hcg|serum hcg|bhcg|b hcg|"
              "urine pregnancy test|upt",
        "es": "prueba de embarazo|test de embarazo|gonadotropina coriónica",
        "fr": "test de grossesse|bêta hcg", "de": "schwangerschaftstest",
        "zh": "妊娠试验|验孕|尿妊娠试验|血hcg"},
    "lab:urinalysis": {
        "en": "urinalysis|urine dipstick|urine dip|ua|urine test|urine analysis|dipstick|"
              "urine microscopy",
        "es": "análisis de orina|sistemático de orina|tira de orina|uroanálisis|"
              "sedimento urinario|tira reactiva",
        "fr": "bandelette urinaire|bu|analyse d urine|analyse urinaire",
        "de": "urinstatus|urin stix|urinstix|urinuntersuchung|urinteststreifen",
        "zh": "尿常规|尿液分析|尿检|小便化验"},
    "lab:urine_culture": {
        "en": "urine culture|msu|urine mc&s|urine mcs|midstream urine|urine c&s",
        "es": "urocultivo|cultivo de orina",
        "fr": "ecbu|uroculture|examen cytobactériologique des urines",
        "de": "urinkultur", "zh": "尿培养|中段尿培养"},
    "lab:blood_culture": {
        "en": "blood culture|blood cultures", "es": "hemocultivo|hemocultivos",
        "fr": "hémoculture|hémocultures", "de": "blutkultur|blutkulturen", "zh": "血培养"},
    "lab:sputum_culture": {
        "en": "sputum culture|sputum mc&s|sputum gram stain",
        "es": "cultivo de esputo|esputo", "fr": "ecbc|examen des crachats",
        "de": "sputumkultur", "zh": "痰培养|痰涂片"},
    "lab:stool_culture": {
        "en": "stool culture|stool mc&s|stool sample|faecal culture|stool test",
        "es": "coprocultivo|cultivo de heces", "fr": "coproculture", "de": "stuhlkultur",
        "zh": "大便培养|粪便培养"},
    "lab:csf": {
        "en": "lumbar puncture|lp|csf|spinal tap|csf analysis|cerebrospinal fluid",
        "es": "punción lumbar|lcr|líquido cefalorraquídeo",
        "fr": "ponction lombaire|!pl|lcr|liquide céphalorachidien",
        "de": "lumbalpunktion|liquor|liquorpunktion", "zh": "腰穿|腰椎穿刺|脑脊液"},
    "lab:synovial": {
        "en": "synovial fluid analysis|joint aspiration|arthrocentesis|synovial fluid|"
              "joint fluid",
        "es": "artrocentesis|líquido sinovial|punción articular",
        "fr": "ponction articulaire|liquide synovial|arthrocentèse",
        "de": "gelenkpunktion|gelenkpunktat", "zh": "关节穿刺|关节液|滑液"},
    "lab:hiv": {
        "en": "hiv test|hiv|hiv serology", "es": "vih|serología vih|prueba del vih",
        "fr": "vih|sérologie vih", "de": "hiv test", "zh": "艾滋病检测|hiv抗体"},
    "lab:psa": {
        "en": "psa|prostate specific antigen", "es": "antígeno prostático específico",
        "fr": "antigène prostatique spécifique", "de": "prostataspezifisches antigen",
        "zh": "前列腺特异性抗原"},
    "lab:ketones": {
        "en": "ketones|blood ketones|serum ketones|beta hydroxybutyrate|capillary ketones",
        "es": "cetonemia|cuerpos cetónicos", "fr": "cétonémie|corps cétoniques",
        "de": "ketone|ketonkörper", "zh": "酮体|血酮"},
    "lab:creatinine": {
        "en": "creatinine|serum creatinine|egfr", "es": "creatinina", "fr": "créatinine",
        "de": "kreatinin", "zh": "肌酐"},
    "lab:sodium": {"en": "sodium", "es": "sodio", "fr": "natrémie", "de": "natrium",
                   "zh": "血钠"},
    "lab:potassium": {"en": "potassium", "es": "potasio", "fr": "kaliémie", "de": "kalium",
                      "zh": "血钾"},
    "lab:haemoglobin": {
        "en": "haemoglobin|hemoglobin|hb|hgb", "es": "hemoglobina", "fr": "hémoglobine",
        "de": "hämoglobin", "zh": "血红蛋白"},
    "lab:wbc": {
        "en": "white cell count|white blood cells|white blood cell count|wbc|white count|"
              "leukocytes|leucocytes|white blood count|white cells|wcc",
        "es": "leucocitos|glóbulos blancos", "fr": "globules blancs", "de": "leukozyten",
        "zh": "白细胞"},
    "lab:platelets": {"en": "platelets|plt|platelet count", "es": "plaquetas",
                      "fr": "plaquettes", "de": "thrombozyten", "zh": "血小板"},
    "lab:bilirubin": {"en": "bilirubin", "es": "bilirrubina", "fr": "bilirubine",
                      "de": "bilirubin", "zh": "胆红素"},
    "lab:blood_film": {"en": "blood film|peripheral smear|blood smear",
                       "es": "frotis de sangre periférica|frotis sanguíneo",
                       "fr": "frottis sanguin", "de": "blutausstrich", "zh": "外周血涂片"},
    "lab:group_save": {"en": "group and save|type and screen|crossmatch|blood group",
                       "es": "grupo sanguíneo|pruebas cruzadas", "fr": "groupe sanguin",
                       "de": "blutgruppe|kreuzprobe", "zh": "血型|交叉配血"},
    "lab:ldh": {"en": "lactate dehydrogenase|ldh|ld|serum ldh", "es": "lactato deshidrogenasa|ldh",
                "fr": "lactate déshydrogénase|ldh", "de": "laktatdehydrogenase|ldh",
                "zh": "乳酸脱氢酶"},
    "lab:ana": {"en": "antinuclear antibodies|antinuclear antibody|ana|ana screen",
                "es": "anticuerpos antinucleares|ana", "fr": "anticorps antinucléaires|aan",
                "de": "antinukleäre antikörper|ana", "zh": "抗核抗体"},
    "lab:achr": {"en": "acetylcholine receptor antibodies|acetylcholine receptor antibody|achr|"
                       "anti achr|achr antibodies|achr antibody|ach receptor antibodies",
                 "es": "anticuerpos antirreceptor de acetilcolina|anticuerpos anti rach",
                 "fr": "anticorps anti récepteurs de l acétylcholine|anticorps anti rach",
                 "de": "acetylcholinrezeptor antikörper|achr antikörper",
                 "zh": "乙酰胆碱受体抗体"},
    "lab:urine_eos": {"en": "urine eosinophils|urinary eosinophils|eosinophiluria|hansel",
                      "es": "eosinófilos en orina|eosinofiluria",
                      "fr": "éosinophilurie|éosinophiles urinaires",
                      "de": "eosinophile im urin|eosinophilurie", "zh": "尿嗜酸性粒细胞"},
    "lab:rf": {"en": "rheumatoid factor|rf", "es": "factor reumatoide", "fr": "facteur rhumatoïde",
               "de": "rheumafaktor", "zh": "类风湿因子"},
    "lab:pth": {"en": "parathyroid hormone|pth", "es": "parathormona|pth",
                "fr": "parathormone|pth", "de": "parathormon|pth", "zh": "甲状旁腺激素"},
    "lab:afp": {"en": "alpha fetoprotein|afp", "es": "alfafetoproteína", "fr": "alphafœtoprotéine",
                "de": "alpha fetoprotein|afp", "zh": "甲胎蛋白"},
    "lab:cea": {"en": "carcinoembryonic antigen|cea", "es": "antígeno carcinoembrionario",
                "fr": "antigène carcinoembryonnaire|ace", "de": "cea", "zh": "癌胚抗原"},
    "emg": {"en": "electromyography|emg|electromyogram", "es": "electromiografía|emg",
            "fr": "électromyogramme|électromyographie|emg", "de": "elektromyographie|emg",
            "zh": "肌电图"},
    "eeg": {"en": "electroencephalogram|eeg|electroencephalography",
            "es": "electroencefalograma|eeg", "fr": "électroencéphalogramme|eeg",
            "de": "elektroenzephalogramm|eeg", "zh": "脑电图"},
    "ncs": {"en": "nerve conduction studies|nerve conduction study|ncs|nerve conduction",
            "es": "estudio de conducción nerviosa|electroneurografía",
            "fr": "étude de la conduction nerveuse", "de": "nervenleitgeschwindigkeit|nlg",
            "zh": "神经传导"},
    "pft": {"en": "pulmonary function tests|lung function tests|pft|pfts|spirometry",
            "es": "espirometría|pruebas de función respiratoria", "fr": "spirométrie|efr",
            "de": "spirometrie|lungenfunktion", "zh": "肺功能"},
    "ecg": {
        "en": "ecg|ekg|electrocardiogram|12 lead ecg|electrocardiograph",
        "es": "electrocardiograma", "fr": "électrocardiogramme",
        "de": "elektrokardiogramm|12 kanal ekg", "zh": "心电图"},
    "endoscopy": {"en": "upper endoscopy|upper gi endoscopy|endoscopy|ogd|egd|gastroscopy",
                  "es": "endoscopia|gastroscopia", "fr": "endoscopie|fibroscopie|gastroscopie",
                  "de": "endoskopie|gastroskopie|magenspiegelung", "zh": "胃镜|内镜"},
    "colonoscopy": {"en": "colonoscopy", "es": "colonoscopia", "fr": "coloscopie",
                    "de": "koloskopie|darmspiegelung", "zh": "肠镜|结肠镜"},
    "cystoscopy": {"en": "cystoscopy", "es": "cistoscopia", "fr": "cystoscopie",
                   "de": "zystoskopie|blasenspiegelung", "zh": "膀胱镜"},
}

# Named groups a request may ask for as a whole.
GROUPS: dict[str, Names] = {
    # The routine panel (UK "routine bloods"): FBC/CBC, U&E, CRP and LFTs. Only these four,
    # so "bloods" stays a named request and never becomes a way to get every result.
    "bloods": {
        "en": "bloods|routine bloods|blood tests|blood test|blood work|bloodwork|"
              "routine blood tests|baseline bloods|basic bloods|admission bloods|blood panel|"
              "blood results",
        "es": "análisis de sangre|analítica|analítica de sangre|analítica general|"
              "analítica básica|pruebas de sangre",
        "fr": "bilan sanguin|prise de sang|bilan biologique|analyses de sang|bilan standard",
        "de": "blutuntersuchung|blutwerte|routinelabor|laborwerte|blutabnahme",
        "zh": "血液检查|验血|抽血化验|血液化验|常规化验"},
    "cultures": {
        "en": "cultures|culture|cultures and sensitivities", "es": "cultivos|cultivo",
        "fr": "cultures|prélèvements bactériologiques", "de": "kulturen|kultur",
        "zh": "培养|细菌培养"},
}
GROUP_MEMBERS: dict[str, tuple[str, ...]] = {
    "bloods": ("lab:cbc", "lab:bmp", "lab:crp", "lab:lft"),
    "cultures": ("lab:blood_culture", "lab:urine_culture", "lab:sputum_culture",
                 "lab:stool_culture"),
}
# Words that make a stored item a culture for the "cultures" group.
CULTURE_WORDS: tuple[str, ...] = ("culture", "cultivo", "kultur", "培养", "hémoculture",
                                  "uroculture")

# How an unstored member of a group is named in the answer ("<name>: normal").
DISPLAY: dict[str, Names] = {
    "lab:cbc": {"en": "Complete blood count", "es": "Hemograma",
                "fr": "Numération formule sanguine", "de": "Blutbild", "zh": "血常规"},
    "lab:bmp": {"en": "Urea and electrolytes", "es": "Función renal e iones",
                "fr": "Ionogramme et fonction rénale", "de": "Elektrolyte und Nierenwerte",
                "zh": "肾功能与电解质"},
    "lab:crp": {"en": "C-reactive protein", "es": "Proteína C reactiva",
                "fr": "Protéine C réactive", "de": "C-reaktives Protein", "zh": "C反应蛋白"},
    "lab:lft": {"en": "Liver function tests", "es": "Perfil hepático", "fr": "Bilan hépatique",
                "de": "Leberwerte", "zh": "肝功能"},
}

# Words that never name a test on their own: a request made only of these is a catch-all.
VAGUE_WORDS = frozenset("""
all any every everything anything whatever the your my of them results result tests test
findings finding available relevant other remaining rest data stored info information
please labs lab investigations workup work up full complete entire whole record records you
have give me show list dump some more basic routine standard usual necessary needed
appropriate possible important abnormal normal pending done todo that are is were which got
ve ive youve what there need want would could i we each new outstanding ordered studies
imaging scans scan on in for and or with from so far can do it its this these those
todos todas toda todo las los el la de del sus mis pruebas resultados analisis examenes
estudios disponibles que tenga tiene hay por favor deme
tous toutes tout les des du vos mes examens resultats analyses disponibles vous avez
alle alles die der den ihre meine befunde ergebnisse untersuchungen werte verfugbaren
vorhandenen sie haben bitte geben was wie welche mir mich uns ich gibt es vorliegt vorliegen
lo usted me tengan tienen ce qui me sont
""".split())
VAGUE_CJK: tuple[str, ...] = (
    "所有", "全部", "一切", "任何", "检查", "结果", "化验", "报告", "的", "你", "您", "我",
    "请", "给", "做", "过", "有", "哪些", "什么", "项目", "都", "一下", "把")
# Catch-all quantifiers: a request containing one must name a specific test.
QUANTIFIERS = frozenset("all every everything anything whatever entire whole each any "
                        "todo todos toda todas cualquier cualquiera tout tous toute toutes "
                        "alle alles samtliche jede jeden jedes irgendwelche".split())
QUANTIFIERS_CJK: tuple[str, ...] = ("所有", "全部", "一切", "任何", "全套")


def merged(table: dict[str, Names], extra: dict[str, Names]) -> dict[str, Names]:
    """A table with a companion module's names added, entry by entry."""
    out = {cid: dict(names) for cid, names in table.items()}
    for cid, names in extra.items():
        out.setdefault(cid, {}).update(names)
    return out


LABS = merged(LABS, _more.LABS)
for _cid, _text in _more.EN_EXTRA.items():
    LABS[_cid]["en"] += "|" + _text
LABS = _extra.appended(LABS, _extra.ADDED)
GROUPS = merged(GROUPS, _more.GROUPS)
DISPLAY = merged(DISPLAY, _more.DISPLAY)
CULTURE_WORDS = (*CULTURE_WORDS, *_more.CULTURE_WORDS)
VAGUE_WORDS = VAGUE_WORDS | frozenset(_more.VAGUE_WORDS)
VAGUE_CJK = (*VAGUE_CJK, *_more.VAGUE_CJK)
QUANTIFIERS = QUANTIFIERS | frozenset(_more.QUANTIFIERS)
QUANTIFIERS_CJK = (*QUANTIFIERS_CJK, *_more.QUANTIFIERS_CJK)
