"""More test names, written for bedside (data only): the abbreviations, colloquial and brand
names doctors use that the first vocabularies lacked ("hs-TnI", "Vit D", "Accu-Chek",
"Langzeitzucker", "G&S", "Rh status", "joint tap", "C diff toxin", "간 효소"), and concepts
that keep a longer name from being read as a shorter one it contains ("haemoglobin
electrophoresis" is no haemoglobin). Found by a held-out probe set (issue 19, phase 3);
every name is a general synonym of its concept, not a probe's wording.

`ADDED` appends names to a concept of `vocab_tests.LABS` (or makes a new one); `EXPLICIT`
does the same for `vocab_imaging.EXPLICIT`. Format as in `core.caseindex.vocab_tests`.

Must not import: anything but the standard library.
"""

from __future__ import annotations

Names = dict[str, str]

_BEDSIDE_GLUCOSE: Names = {
    "en": "accu chek|accuchek|glucometer|glucose meter|bm stix|fingerstick glucose|"
          "finger stick glucose|finger prick glucose|bedside glucose|capillary glucose|"
          "capillary blood glucose|cbg|onetouch|one touch|freestyle libre|dextrostix",
    "es": "glucemia capilar", "fr": "glycémie capillaire|dextro",
    "de": "bz stix|kapillärer blutzucker|blutzuckermessgerät", "zh": "指尖血糖|末梢血糖",
    "hi": "ग्लूकोमीटर", "fa": "قند خون مویرگی", "ko": "간이혈당|손끝 혈당"}

ADDED: dict[str, Names] = {
    "lab:troponin": {"en": "tni|tnt|hs tni|hs tnt|hstni|hstnt|ctni|ctnt|hs ctni|hs ctnt|"
                           "hs trop|trop i|trop t|troponins"},
    "lab:glucose": {"en": _BEDSIDE_GLUCOSE["en"] + "|glucose stick",
                    "de": _BEDSIDE_GLUCOSE["de"]},
    # A glucose measured at the bedside: a stored capillary glucose is both concepts, and a
    # meter's name finds it rather than the laboratory glucose.
    "lab:glucose_bedside": _BEDSIDE_GLUCOSE,
    "lab:hba1c": {"de": "langzeitzucker|hba1c wert|zuckerlangzeitwert",
                  "fr": "hba1c", "es": "hba1c"},
    "lab:group_save": {"en": "g&s|g and s|blood group and antibody screen|rh status|"
                             "rhesus status|rhesus group|rh group|blood type|abo group|"
                             "type and cross|cross match|group and screen|t&s",
                       "es": "grupo y rh|factor rh", "fr": "groupe rhésus|rai",
                       "de": "rhesusfaktor|blutgruppe und antikörpersuchtest",
                       "zh": "rh血型|abo血型"},
    "lab:stool_culture": {"en": "c diff|c diff toxin|c difficile|c difficile toxin|cdt|"
                                "clostridium difficile|clostridioides difficile|stool pcr|"
                                "stool mcs|stool microscopy|ova and parasites"},
    "emg": {"en": "repetitive nerve stimulation|rns|single fibre emg|single fiber emg|sfemg"},
    "lab:synovial": {"en": "joint tap|joint fluid analysis|knee tap|aspiration of the joint"},
    "lab:bmp": {"en": "biochemistry|serum biochemistry|biochem|serum chemistry|chemistry panel|"
                      "chemistries"},
    "lab:lft": {"ko": "간 효소|간 수치|간효소 수치|간수치 검사|간 기능"},
    "lab:vitd": {"en": "vitamin d|vit d|25 oh vitamin d|25 oh vit d|25 oh d|"
                       "25 hydroxyvitamin d|25 hydroxy vitamin d|calcidiol|vitamin d level",
                 "es": "vitamina d|25 oh vitamina d", "fr": "vitamine d|25 oh vitamine d",
                 "de": "vitamin d|25 oh vitamin d", "zh": "维生素d|25羟维生素d",
                 "hi": "विटामिन डी", "fa": "ویتامین دی|ویتامین d",
                 "ko": "비타민 d|비타민d|비타민 디"},
    "lab:tpo": {"en": "tpo antibodies|tpo antibody|anti tpo|thyroid peroxidase antibodies|"
                      "thyroid peroxidase antibody|antithyroid antibodies|thyroid antibodies|"
                      "tpo ab|tpo abs|anti thyroid peroxidase",
                "es": "anticuerpos anti tpo|anticuerpos antitiroideos",
                "fr": "anticorps anti tpo|anticorps antithyroïdiens|anti tpo",
                "de": "tpo antikörper|anti tpo|schilddrüsenantikörper",
                "zh": "甲状腺过氧化物酶抗体|tpo抗体", "hi": "एंटी टीपीओ|टीपीओ एंटीबॉडी",
                "fa": "آنتی بادی tpo|آنتی تی پی او|آنتی بادی ضد تیروئید پراکسیداز",
                "ko": "항tpo항체|tpo 항체|갑상선 자가항체"},
    "lab:resp_viral": {"en": "respiratory viral pcr|viral pcr|respiratory virus panel|"
                             "respiratory viral panel|viral swab|nasopharyngeal swab|npa|"
                             "nasopharyngeal aspirate|viral panel|respiratory panel|"
                             "multiplex respiratory pcr",
                       "es": "pcr de virus respiratorios|panel respiratorio|"
                             "aspirado nasofaríngeo|frotis nasofaríngeo",
                       "fr": "pcr virale respiratoire|prélèvement nasopharyngé|"
                             "aspiration nasopharyngée",
                       "de": "respiratorisches virenpanel|nasopharyngealabstrich|"
                             "rachenabstrich pcr",
                       "zh": "呼吸道病毒检测|呼吸道病毒核酸|鼻咽拭子", "hi": "वायरल पीसीआर",
                       "fa": "پی سی آر ویروس تنفسی", "ko": "호흡기 바이러스 검사|비인두 도말"},
    "lab:pneumo_ag": {"en": "pneumococcal urinary antigen|urine pneumococcal antigen|"
                            "urinary pneumococcal antigen|pneumococcal antigen|"
                            "streptococcus pneumoniae antigen|binaxnow",
                      "es": "antígeno de neumococo en orina|antígeno neumocócico",
                      "fr": "antigénurie pneumocoque|antigène pneumococcique urinaire",
                      "de": "pneumokokken antigen|pneumokokken antigen im urin",
                      "zh": "肺炎链球菌尿抗原"},
    "lab:malaria_rdt": {"en": "malaria rdt|malaria rapid diagnostic test|"
                              "malaria rapid antigen test|malaria antigen|"
                              "malaria rapid test|paracheck|binaxnow malaria",
                        "es": "test rápido de malaria|antígeno de malaria",
                        "fr": "test de diagnostic rapide du paludisme|tdr paludisme",
                        "de": "malaria schnelltest", "zh": "疟疾快速检测",
                        "hi": "मलेरिया कार्ड टेस्ट|मलेरिया रैपिड टेस्ट"},
    "lab:hb_electrophoresis": {"en": "haemoglobin electrophoresis|hemoglobin electrophoresis|"
                                     "hb electrophoresis|haemoglobinopathy screen|"
                                     "hemoglobinopathy screen",
                               "es": "electroforesis de hemoglobina",
                               "fr": "électrophorèse de l hémoglobine",
                               "de": "hämoglobinelektrophorese|hb elektrophorese",
                               "zh": "血红蛋白电泳", "hi": "हीमोग्लोबिन इलेक्ट्रोफोरेसिस",
                               "fa": "الکتروفورز هموگلوبین|هموگلوبین الکتروفورز",
                               "ko": "혈색소 전기영동|헤모글로빈 전기영동"},
}

EXPLICIT: dict[str, Names] = {
    "us:heart": {"es": "ecocardio|eco cardiaca|eco de corazón|ecocardiografía transtorácica",
                 "fr": "échocardio|écho cardiaque|échographie transthoracique"},
    "xr:enema": {"en": "barium enema|contrast enema|gastrografin enema|"
                       "water soluble contrast enema|lower gi contrast study",
                 "es": "enema opaco|enema de bario|enema con contraste",
                 "fr": "lavement baryté|lavement opaque", "de": "kontrasteinlauf|"
                 "kolonkontrasteinlauf", "zh": "钡剂灌肠|钡灌肠|灌肠造影"},
    # A CT of thorax, abdomen and pelvis is all three (a stored "CT thorax and abdomen"
    # is the one asked for).
    "ct:chest": {"en": "ct tap|ct cap|ct chest abdomen pelvis|ct thorax abdomen pelvis"},
    "ct:abdomen": {"en": "ct tap|ct cap|ct chest abdomen pelvis|ct thorax abdomen pelvis"},
    "ct:pelvis": {"en": "ct tap|ct cap|ct chest abdomen pelvis|ct thorax abdomen pelvis"},
}


def appended(table: dict[str, Names], extra: dict[str, Names]) -> dict[str, Names]:
    """A table with more names appended to its concepts (new concepts added whole)."""
    out = {cid: dict(names) for cid, names in table.items()}
    for cid, names in extra.items():
        entry = out.setdefault(cid, {})
        for lang, text in names.items():
            entry[lang] = f"{entry[lang]}|{text}" if entry.get(lang) else text
    return out
