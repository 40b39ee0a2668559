"""How a test request that names a test differs from one that names none (data only).

A test name is a noun phrase: "troponin", "Romberg test", "anti-GBM antibodies". A request
that names no test reads as a sentence: "Please provide the most recent medical examination
details", "do something useful", "请提供最近的医学检查详情". `SENTENCE_WORDS` are words of
such sentences in the supported languages (function words, request verbs, catch-all nouns
and qualifiers); they never name a test and are never corrected into one. A name that holds
sentence words names a test only if some other word of it looks like one: a strong test
word (`TEST_WORDS`), a generic head (`TEST_HEADS`: "test", "level", "examination") with a
word before it that is no sentence word ("Romberg test", not "medical examination"), a
chemical or procedural ending (`TEST_ENDINGS`), or an abbreviation as written ("ANA",
"HLA-B27"). Written for bedside.

Must not import: anything but the standard library.
"""

from __future__ import annotations

SENTENCE_WORDS = frozenset("""
a an the this that these those it its of to in on at by for with from about into as and or
but if so then than also too very just only any some all every each no not more most much
many other another same such own
i me my mine we us our you your yours he him his she her they them their who whom whose
which what when where why how there here
is are was were be been being am do does did done doing have has had having can could will
would shall should may might must let lets need needs want wants like would
please kindly thanks thank ok okay yes
give gives giving show shows tell tells provide provides send share list report reports
get got make take bring find look see check run perform order request requesting requested
help try keep put use using go going know think say said show display print dump reveal
summarise summarize explain describe
something anything everything nothing whatever stuff thing things info information data
detail details details record records file files chart notes note summary history story
result results finding findings outcome outcomes value values number numbers report
patient patients case doctor nurse you examiner diagnosis diagnoses treatment answer
useful helpful relevant important necessary needed appropriate pertinent significant
interesting available possible pending outstanding remaining rest further additional extra
recent latest last newest current previous prior earlier old new most complete full entire
whole general basic routine standard usual normal abnormal medical clinical physical
today now yet already so far ever again
por favor deme dame muestre muestreme digame diga proporcione proporcioneme envie haga hagan
algo todo nada cosa cosas util utiles relevante relevantes importante reciente recientes
ultimo ultima ultimos ultimas detalles informacion datos resultado resultados paciente
medico medica medicos su sus mi mis el la los las un una unos unas de del al que y o en con
para por lo le les se me te nos todos todas cualquier
donnez moi montrez dites fournissez envoyez faites quelque chose tout tous toute toutes rien
utile utiles pertinent pertinents recent recents dernier derniere derniers details
informations donnees resultat resultats patient medical medicale le la les un une des du de
au aux et ou en avec pour par que qui vos votre mon ma mes s il vous plait
bitte geben sie mir zeigen sagen liefern schicken machen etwas alles nichts sinnvolles
sinnvoll nutzliches relevante wichtige letzte letzten neueste neuesten aktuelle details
informationen daten ergebnis ergebnisse patient patientin arztliche arztlichen medizinische
medizinischen der die das den dem des ein eine einen einem und oder in mit fur von zu ihre
ihren ihr was welche alle
कृपया मुझे दीजिए दिखाइए बताइए भेजिए दें दो हाल ताज़ा ताजा पिछला पिछली पुरानी नई जानकारी विवरण
डिटेल्स डिटेल रिकॉर्ड फ़ाइल फाइल मरीज़ मरीज का की के को में से और या कुछ सब सारी सारे उपयोगी
ज़रूरी जरूरी मेडिकल है हैं करो करें कीजिए काम वाला वाली चीज़ चीज
لطفا لطفاً به من بدهید بدید نشان بگویید بفرستید جدیدترین آخرین اخیر اطلاعات جزئیات پرونده
سابقه بیمار مفید مهم لازم پزشکی را رو از که و یا این آن چیزی همه کنید بکنید کاری چیز
""".split())
# Words that name a test, or what a test is done on, on their own ("reflexes", "biopsy",
# "serology", "blood").
TEST_WORDS = frozenset("""
biopsy biopsies serology culture cultures smear swab swabs stain reflex reflexes spirometry
auscultation palpation percussion inspection fundoscopy otoscopy gait electrophoresis
aspirate aspiration puncture tap dipstick microscopy cytology histology pathology
electrolytes enzymes hormones antibodies antibody antigen antigens markers
biopsia serologia cultivo frotis hemocultivo puncion biopsie serologie frottis ponction
biopsie serologie kultur abstrich punktion
blood serum plasma urine stool faeces feces sputum saliva csf
sangre suero orina heces esputo sang serum urines selles crachats blut urin stuhl sputum
बायोप्सी कल्चर स्मीयर खून सीरम पेशाब यूरिन बलगम स्टूल
بیوپسی کشت اسمیر لام خون سرم ادرار خلط مدفوع
""".split())
# Generic heads that name a test only after a word that is not a sentence word.
TEST_HEADS = frozenset("""
test tests level levels assay titre titer screen panel profile count ratio index time sign
signs study studies scan imaging exam examination assessment manoeuvre maneuver score scale
prueba pruebas nivel niveles estudio exploracion examen signo dosage taux examen bilan indice
test wert werte spiegel bestimmung untersuchung zeichen
टेस्ट जांच लेवल काउंट प्रोफाइल स्कैन آزمایش تست سطح شمارش اسکن عکس
""".split())
# Endings of analyte, hormone and procedure names ("ceruloplasmin", "amylase", "-scopy").
TEST_ENDINGS = ("ase", "ases", "globulin", "peptide", "scopy", "scopie", "skopie", "scopia",
                "graphy", "graphie", "grafia", "gram", "gramm", "grama", "gramme", "metry",
                "metrie", "metria", "emia", "aemia", "amie", "uria", "urie", "lysis",
                "amine", "tropin", "toxin", "ogen", "plasmin", "ferrin", "ine", "in", "ina",
                "one", "ol", "ide")
# Ending-based guesses only for words at least this long, and never for these words.
MIN_ENDING_WORD = 6
NOT_ENDINGS = frozenset("""
within again examine determine routine medicine machine certain explain obtain contain
maintain remain begin plain main brain skin chain margin origin cousin
someone everyone anyone online alone phone done gone none bone stone tone
control protocol school pool tool
provide decide inside outside beside aside
medicina rutina examine
""".split())
# Chinese: words of a request sentence, and pieces that make a Chinese name a test.
SENTENCE_CJK = ("病历", "病史", "档案", "诊断", "请", "提供", "给我", "告诉", "把", "做点",
                "有用", "事情", "的事", "最近", "详情", "详细", "信息", "资料", "情况",
                "数据", "一下", "帮我", "发给", "看看", "所有", "全部", "一切",
                # Korean (read by characters, like Chinese)
                "주세요", "알려", "보여", "최근", "자세한", "정보", "기록", "환자", "내용",
                "유용한", "필요한", "뭐든", "아무거나", "전부", "모든",
                # asking for the diagnosis ("你觉得是什么病", "이 아이 진단이 뭐예요?")
                "什么病", "哪种病", "觉得", "认为", "진단", "병명", "무슨 병", "어떤 병", "뭐예요",
                "뭔가요", "생각")
TEST_CJK = ("检测", "测定", "抗体", "抗原", "试验", "造影", "镜", "培养", "活检", "穿刺",
            "定量", "筛查", "超声", "彩超", "扫描", "图", "功能", "常规", "分析", "涂片",
            "病理", "血", "尿", "酶", "素", "蛋白", "ct", "mri", "x线",
            "촬영", "초음파", "엑스레이", "x선", "항체", "배양", "내시경", "도말", "혈액",
            "소변", "심전도", "수치", "기능검사", "효소")
