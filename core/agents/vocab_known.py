"""Test and examination names the offline examiner knows, beyond its concept vocabulary.

`core.caseindex.vocab_tests` and `vocab_imaging` tag the common tests by concept so that a
request finds a stored item in any language. Many more tests exist that a case seldom
stores; this list names them, so that the examiner can tell a real test the case does not
hold ("normal") from a word that is no test at all, and so that a misspelt name can be
corrected against known names. Written for bedside from common clinical usage; lower case,
"|"-separated, English first, then names in the other supported languages.

Must not import: anything but the standard library.
"""

from __future__ import annotations

KNOWN_TESTS: dict[str, str] = {
    "bedside": "weight|height|weight and height|body mass index|bmi|capillary refill|"
               "capillary refill time|jugular venous pressure|jvp|glasgow coma scale|gcs|"
               "orthostatic blood pressure|postural blood pressure|lying and standing blood "
               "pressure|peak flow|peak expiratory flow|visual acuity|visual fields|"
               "cranial nerve examination|cranial nerves|gait assessment|gait|romberg test|"
               "romberg|reflexes|tendon reflexes|plantar reflexes|babinski|cremasteric reflex|"
               "murphy sign|rovsing sign|psoas sign|kernig sign|brudzinski sign|"
               "straight leg raise|breast examination|lymph node examination|"
               "joint examination|hydration status|mental state examination|"
               "mini mental state examination|cognitive assessment|slit lamp examination|"
               "tonometry|audiometry|otoscopy|fundoscopy|urine output|fluid balance",
    "haematology": "differential white cell count|platelet count|reticulocyte count|"
                   "reticulocytes|blood film|peripheral smear|haemoglobin electrophoresis|"
                   "hemoglobin electrophoresis|direct antiglobulin test|coombs test|dat|"
                   "fibrinogen|activated partial thromboplastin time|aptt|prothrombin time|"
                   "blood group|crossmatch|mean cell volume|mcv|mch|rdw|haematocrit|"
                   "hematocrit|packed cell volume|neutrophils|lymphocytes|eosinophils|"
                   "monocytes|red cell count|haptoglobin|haemolysis screen|g6pd|"
                   "sickle cell test|bone marrow aspirate|bone marrow biopsy|"
                   "thrombophilia screen|factor viii|von willebrand factor|anti xa",
    "chemistry": "chloride|bicarbonate|urea|bun|egfr|magnesium|phosphate|alt|ast|"
                 "alkaline phosphatase|alp|gamma gt|ggt|albumin|total protein|globulin|"
                 "lactate dehydrogenase|ldh|ammonia|serum osmolality|urine osmolality|"
                 "osmolality|anion gap|vitamin d|25 hydroxyvitamin d|parathyroid hormone|pth|"
                 "cortisol|morning cortisol|acth|synacthen test|prolactin|testosterone|"
                 "oestradiol|estradiol|fsh|lh|growth hormone|igf 1|aldosterone|renin|"
                 "aldosterone renin ratio|metanephrines|catecholamines|insulin|c peptide|"
                 "free t3|t3|thyroxine|thyroid peroxidase antibodies|tpo antibodies|"
                 "thyroglobulin|calcitonin|serum protein electrophoresis|"
                 "protein electrophoresis|free light chains|immunoglobulins|"
                 "urine protein electrophoresis|bence jones protein|drug screen|"
                 "toxicology screen|urine drug screen|paracetamol level|salicylate level|"
                 "alcohol level|ethanol level|carboxyhaemoglobin|carboxyhemoglobin|"
                 "methaemoglobin|digoxin level|lithium level|drug level|copper|"
                 "caeruloplasmin|ceruloplasmin|zinc|vitamin a|thiamine|homocysteine|"
                 "methylmalonic acid|triglycerides|hdl|ldl|fasting lipids|"
                 "oral glucose tolerance test|glucose tolerance test|fructosamine|"
                 "troponin i|troponin t|ck mb|myoglobin|amylase|lipase|serum ace|ace level|"
                 "angiotensin converting enzyme",
    "immunology": "antinuclear antibodies|ana|rheumatoid factor|anti ccp antibodies|anti ccp|"
                  "anca|complement|complement levels|c3|c4|anti dsdna|anti ds dna|"
                  "extractable nuclear antigens|ena|anti smith|anti ro|anti la|"
                  "anticardiolipin antibodies|lupus anticoagulant|antiphospholipid antibodies|"
                  "anti gbm antibodies|anti gbm|intrinsic factor antibodies|"
                  "parietal cell antibodies|anti tissue transglutaminase|ttg|coeliac serology|"
                  "celiac serology|coeliac screen|"
                  "endomysial antibodies|acetylcholine receptor antibodies|"
                  "anti achr antibodies|anti musk antibodies|anti ganglioside antibodies|"
                  "hla b27|hla typing|serum tryptase|ige|specific ige|allergy testing|"
                  "skin prick test|patch test|cryoglobulins|aso titre|aslo|anti streptolysin o",
    "infection": "urine culture|sputum culture|stool culture|stool ova and parasites|"
                 "ova and parasites|clostridium difficile toxin|clostridioides difficile toxin|"
                 "c difficile toxin|throat swab|nasopharyngeal swab|nasopharyngeal swab pcr|"
                 "influenza pcr|covid 19 pcr|covid test|sars cov 2 pcr|respiratory viral pcr|"
                 "viral pcr|pcr|hepatitis b serology|hepatitis c serology|hepatitis serology|"
                 "hepatitis a serology|syphilis serology|vdrl|rpr|monospot test|monospot|"
                 "ebv serology|cmv serology|malaria film|thick and thin films|"
                 "tuberculin skin test|mantoux test|interferon gamma release assay|igra|"
                 "quantiferon|afb smear|acid fast bacilli|legionella urinary antigen|"
                 "pneumococcal urinary antigen|urinary antigens|lyme serology|"
                 "chlamydia test|gonorrhoea test|chlamydia and gonorrhoea naat|naat|"
                 "high vaginal swab|wound swab|ear swab|mrsa screen|blood cultures|"
                 "gram stain|h pylori breath test|urea breath test|h pylori stool antigen|"
                 "helicobacter pylori|jc virus pcr|hsv pcr|csf pcr|viral serology",
    "tumour": "tumour markers|tumor markers|psa|ca 125|ca 19 9|cea|alpha fetoprotein|afp|"
              "beta hcg|ca 15 3|chromogranin a",
    "fluids": "urine dipstick|urine microscopy|urine protein creatinine ratio|"
              "urine albumin creatinine ratio|protein creatinine ratio|24 hour urine|"
              "urine sodium|urine electrolytes|csf analysis|pleural fluid analysis|"
              "pleural tap|ascitic fluid analysis|ascitic tap|paracentesis|thoracentesis|"
              "joint aspiration|synovial fluid analysis|faecal occult blood|fecal occult blood|"
              "fit test|faecal calprotectin|fecal calprotectin|faecal elastase|"
              "stool sample|semen analysis|sweat test|urine cytology|"
              "xanthochromia|opening pressure",
    "cardiorespiratory": "ambulatory ecg|ambulatory ecg monitoring|holter monitor|holter|"
                         "event recorder|exercise stress test|exercise tolerance test|"
                         "stress echo|transoesophageal echocardiogram|"
                         "coronary angiography|coronary angiogram|cardiac catheterisation|"
                         "cardiac mri|tilt table test|spirometry|pulmonary function tests|"
                         "lung function tests|pft|sleep study|polysomnography|"
                         "six minute walk test|bronchoscopy|fev1|fvc|bedside spirometry|"
                         "pulse oximetry|carotid doppler|ankle brachial pressure index|abpi",
    "imaging": "chest x ray|abdominal x ray|pelvic x ray|skeletal x ray|spine x ray|"
               "skull x ray|neck x ray|hand x ray|knee x ray|foot x ray|hip x ray|"
               "ct chest|ct abdomen|ct abdomen and pelvis|ct coronary angiogram|"
               "ct angiogram|ct venogram|ct colonography|ct kub|mri spine|mri abdomen|"
               "mri pelvis|mri knee|mr angiography|mrcp|mri|ultrasound abdomen|"
               "ultrasound pelvis|renal ultrasound|doppler ultrasound|thyroid ultrasound|"
               "point of care ultrasound|pocus|fast scan|testicular ultrasound|"
               "scrotal ultrasound|breast ultrasound|obstetric ultrasound|mammogram|"
               "mammography|bone density scan|dexa scan|dexa|nuclear medicine scan|"
               "bone scan|ventilation perfusion scan|v q scan|vq scan|pet scan|pet ct|"
               "hida scan|barium swallow|barium enema|barium meal|fluoroscopy|"
               "angiography|venogram|ercp|eus|endoscopic ultrasound|dmsa scan|"
               "mag3 scan|micturating cystourethrogram",
    "procedures": "electroencephalogram|eeg|nerve conduction studies|ncs|electromyography|emg|"
                  "upper endoscopy|gastroscopy|colonoscopy|sigmoidoscopy|flexible "
                  "sigmoidoscopy|capsule endoscopy|bronchoscopy|cystoscopy|hysteroscopy|"
                  "colposcopy|laparoscopy|biopsy|skin biopsy|liver biopsy|renal biopsy|"
                  "kidney biopsy|lymph node biopsy|temporal artery biopsy|muscle biopsy|"
                  "rectal biopsy|rectal suction biopsy|duodenal biopsy|fine needle aspiration|"
                  "lumbar puncture|tensilon test|edrophonium test|ice pack test|"
                  "cardiotocography|ctg|fetal monitoring|amniocentesis|"
                  "depression questionnaire|phq 9|gad 7|audit questionnaire",
    "es": "hemograma|bioquímica|coagulación|gasometría|orina|sedimento de orina|urocultivo|"
          "hemocultivos|radiografía de tórax|ecografía abdominal|tac craneal|resonancia "
          "magnética|electrocardiograma|ecocardiograma|punción lumbar|serología|biopsia|"
          "colonoscopia|gastroscopia|espirometría|troponina|dímero d|ferritina|prolactina|"
          "cortisol|vitamina d|vitamina b12|ácido fólico|ácido úrico|velocidad de "
          "sedimentación|proteína c reactiva|procalcitonina|frotis faríngeo|aslo|"
          "anticuerpos antinucleares|factor reumatoide|marcadores tumorales",
    "fr": "numération formule sanguine|ionogramme|bilan hépatique|bilan rénal|hémostase|"
          "gaz du sang|bandelette urinaire|ecbu|hémocultures|radiographie thoracique|"
          "échographie abdominale|scanner cérébral|irm cérébrale|électrocardiogramme|"
          "échocardiographie|ponction lombaire|sérologie|biopsie|coloscopie|fibroscopie|"
          "spirométrie|troponine|d dimères|ferritine|vitamine d|vitamine b12|acide urique|"
          "vitesse de sédimentation|protéine c réactive|procalcitonine|haptoglobine|"
          "anticorps antinucléaires|facteur rhumatoïde|marqueurs tumoraux|fond d œil",
    "de": "blutbild|differentialblutbild|elektrolyte|leberwerte|nierenwerte|gerinnung|"
          "blutgasanalyse|urinstatus|urinkultur|blutkulturen|röntgen thorax|"
          "abdomensonographie|kraniale computertomographie|schädel ct|mrt kopf|"
          "elektrokardiogramm|echokardiographie|lumbalpunktion|serologie|biopsie|"
          "koloskopie|gastroskopie|spirometrie|lungenfunktion|troponin|d dimere|ferritin|"
          "vitamin d|vitamin b12|harnsäure|blutsenkung|c reaktives protein|procalcitonin|"
          "antinukleäre antikörper|rheumafaktor|tumormarker|augenhintergrund",
    "zh": "血常规|尿常规|便常规|大便常规|肝功能|肾功能|电解质|凝血功能|血气分析|血培养|尿培养|"
          "胸片|胸部ct|腹部超声|头颅ct|头颅磁共振|心电图|超声心动图|腰穿|血清学|活检|病理|"
          "胃镜|肠镜|膀胱镜|肺功能|肌钙蛋白|d二聚体|铁蛋白|维生素d|尿酸|血沉|c反应蛋白|"
          "降钙素原|抗核抗体|类风湿因子|肿瘤标志物|甲状腺功能|血脂|血糖|糖化血红蛋白|"
          "骨髓穿刺|尿脱落细胞学|b超|彩超|磁共振|ct|x线",
    "hi": "सीबीसी|सीरम इलेक्ट्रोलाइट्स|लिवर फंक्शन टेस्ट|किडनी फंक्शन टेस्ट|ब्लड शुगर|"
          "थायराइड प्रोफाइल|यूरिन रूटीन|यूरिन कल्चर|ब्लड कल्चर|छाती का एक्स-रे|पेट का अल्ट्रासाउंड|"
          "सीटी स्कैन|एमआरआई|ईसीजी|इको|टीएमटी|एंडोस्कोपी|कोलोनोस्कोपी|बायोप्सी|लम्बर पंक्चर|"
          "विटामिन डी|विटामिन बी12|यूरिक एसिड|ईएसआर|सीआरपी|डेंगू टेस्ट|मलेरिया टेस्ट|"
          "विडाल टेस्ट|टाइफीडॉट|एचआईवी टेस्ट|एचबीएसएजी|लिपिड प्रोफाइल|एचबीए1सी|स्पाइरोमेट्री|"
          "बलगम की जांच|मेंटू टेस्ट|पैप स्मीयर|प्रेगनेंसी टेस्ट|सीरम कोलिनेस्टरेज़",
    "fa": "شمارش کامل خون|قند خون|قند ناشتا|اوره|کراتینین|الکترولیت ها|آزمایش های کبدی|"
          "آزمایش تیروئید|آزمایش ادرار|کشت ادرار|کشت خون|عکس قفسه سینه|سونوگرافی شکم|سی تی اسکن|"
          "ام آر آی|نوار قلب|اکوکاردیوگرافی|تست ورزش|آندوسکوپی|کولونوسکوپی|بیوپسی|پونکسیون کمری|"
          "ویتامین د|ویتامین ب12|اسید اوریک|سرعت رسوب|سی آر پی|رایت|کومبس رایت|ویدال|"
          "اچ آی وی|چربی خون|هموگلوبین a1c|اسپیرومتری|تست بارداری|پاپ اسمیر|فریتین",
    "ko": "일반혈액검사|혈당|공복혈당|신기능검사|전해질|간기능검사|갑상선기능검사|소변검사|"
          "소변배양|혈액배양|흉부 x선|복부 초음파|복부 ct|흉부 ct|뇌 mri|심전도|심장초음파|"
          "운동부하검사|위내시경|대장내시경|조직검사|요추천자|비타민 d|요산|적혈구침강속도|crp|"
          "쯔쯔가무시 항체검사|말라리아 검사|hiv 검사|b형 간염 검사|c형 간염 검사|a형 간염 항체|"
          "지질검사|당화혈색소|폐기능검사|임신검사|자궁경부암 검사|페리틴|혈액응고검사",
}


def known_names() -> list[str]:
    """Every name of the list, as written."""
    return [n for text in KNOWN_TESTS.values() for n in text.split("|") if n]
