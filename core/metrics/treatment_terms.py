"""Treatment concepts for treatment logicality: what a plan gives or does, recognised in
folded text (`core.clinical_text.fold`: lower case, no accents, punctuation as spaces).

`TERMS` maps a concept to (regex alternation, parent concepts). Drugs are written under
the class at which substituting one for another is acceptable for this metric (ticagrelor,
clopidogrel → P2Y12 inhibitor; heparin, LMWH, DOACs → anticoagulation); single drugs that a
plan is expected to name (aspirin, ceftriaxone, alteplase …) are their own concept with the
class as parent, so a plan naming the drug also covers a truth naming the class.
Abbreviations are written into the patterns (PCI, LMWH, DOAC, IVIG, NBM, SSRI …); `DAPT` is
expanded before matching. Mostly English, with the common German, French and Spanish forms
of the bundled cases. The table is ours (facts only) and deliberately short: a plan line it
does not know is listed as unrecognised in the metric's detail, not scored.
"""

from __future__ import annotations

# Expanded before matching (whole words, folded text).
EXPANSIONS = {"dapt": "aspirin and p2y12 inhibitor", "iv": "intravenous",
              "i v": "intravenous", "im": "intramuscular", "po": "oral"}

ABX = "antibiotic"
TERMS: dict[str, tuple[str, tuple[str, ...]]] = {
    # antithrombotic, cardiac
    "aspirin": (r"aspirin\w*|acetylsalicylic acid|acido acetilsalicilico|\basa", ("antiplatelet",)),
    "p2y12 inhibitor": (r"p2y12\w*( inhibitors?)?|ticagrelor|clopidogrel|prasugrel",
                        ("antiplatelet",)),
    "antiplatelet": (r"anti ?platelets?( therapy| agents?)?|antiagregante\w*|antiagregant\w*", ()),
    "anticoagulation": (r"anti ?coagul\w*|antikoagul\w*|heparin\w*|ufh|lmwh|low molecular weight "
                        r"heparin|enoxaparin\w*|dalteparin|tinzaparin|fondaparinux|[dn]oacs?|apixaban"
                        r"|rivaroxaban|edoxaban|dabigatran|warfarin", ()),
    "thromboprophylaxis": (r"thromboprophylaxis|vte prophylaxis|thromboseprophylaxe", ()),
    "thrombolysis": (r"thromboly\w*|fibrinoly\w*|alteplase|tenecteplase|r?t pa|trombolisis", ()),
    "thrombectomy": (r"thrombe[ck]tom\w*|trombectom\w*|clot retrieval", ()),
    "pci": (r"pci|ppci|percutaneous coronary intervention|(primary|coronary) angioplast\w*|"
            r"coronary stent\w*|cath(eterisation)? lab", ()),
    "statin": (r"statins?|\w+vastatin|estatinas?", ()),
    "beta blocker": (r"beta ?blockers?|betablocker\w*|betabloqu\w*|bisoprolol|metoprolol|"
                     r"atenolol|carvedilol|propranolol|labetalol", ()),
    "raas blocker": (r"ace ?inhibitors?|acei|ieca|\w+pril|arbs?|angiotensin receptor blockers?|"
                     r"\w+sartan|sacubitril\w*", ()),
    "antihypertensive": (r"antihypertens\w*|blood pressure (control|lowering|treatment)|"
                         r"nicardipine?|amlodipin\w*|nifedipine?|hydralazine|"
                         r"blutdruckeinstellung", ()),
    "rate control": (r"rate control|frequenzkontrolle|control de (la )?frecuencia", ()),
    "rhythm control": (r"rhythm control|flecainide?|amiodarone?", ()),
    "cardioversion": (r"cardioversion|kardioversion|dc shock", ()),
    "diuretic": (r"diuretics?|furosemid\w*|frusemide|bumetanide|torasemide|spironolactone", ()),
    "nitrate": (r"nitrates?|gtn|glyceryl trinitrate|nitroglycerin\w*", ()),
    "ventilatory support": (r"cpap|bipap|niv|non invasive ventilation|intubat\w*", ()),
    "oxygen": (r"oxygen(?! saturation)|o2|sauerstoff|oxygenotherapie|oxigeno", ()),
    "sglt2 inhibitor": (r"sglt2\w*( inhibitors?)?|\w+gliflozin", ()),
    "smoking cessation": (r"smoking cessation|stop\w* smoking|quit\w* smoking|nicotine "
                          r"replacement|rauchstopp|rauchverzicht|arret du tabac|"
                          r"dejar de fumar", ()),
    "alcohol reduction": (r"(limit|reduc\w*|cut\w* down|stop\w*|avoid\w*) (on )?"
                          r"(alcohol|drinking)|alcohol (reduction|cessation|abstinence)|"
                          r"abstinence|reducir (el )?alcohol", ()),
    # fluids, metabolic
    "intravenous fluids": (r"fluids?(?! balance| overload| restriction| advice| daily| intake)|"
                           r"crystalloid\w*|saline|hartmann\w*|ringer\w*|isotonic bolus\w*|"
                           r"resuscitat\w*|fluidoterapia|remplissage|volumengabe", ()),
    "insulin": (r"insulin\w*|insuline", ()),
    "potassium replacement": (r"potassium (replacement|supplement\w*|chloride)|add\w* potassium|"
                              r"potassium to (the )?fluids", ()),
    "calcium gluconate": (r"calcium (gluconate|chloride)", ()),
    "potassium lowering": (r"potassium binder\w*|patiromer|zirconium|resonium|salbutamol", ()),
    "dialysis": (r"dialys\w*|haemofiltration|hemofiltration|renal replacement", ()),
    "levothyroxine": (r"levothyrox\w*|thyroxine|l thyroxin\w*", ()),
    "vitamin b12": (r"hydroxocobalamin|cyanocobalamin|(vitamin )?b12 (injections?|replacement)|"
                    r"cobalamin", ()),
    "folic acid": (r"folic acid|folate (replacement|supplement\w*)", ()),
    "iron": (r"(oral |intravenous )?iron (replacement|supplement\w*|tablets?|infusion)|oral iron|"
             r"ferrous \w+", ()),
    "vitamin d": (r"vitamin d|c?olecalciferol|cholecalciferol", ()),
    "thiamine": (r"thiamine|pabrinex|vitamin b1\b", ()),
    "gluten free diet": (r"gluten free( diet)?|glutenfrei\w*|sans gluten|sin gluten", ()),
    # antimicrobials
    ABX: (r"antibiotic\w*|antibiotique\w*|antibiotika|antibiotico\w*|abx|antimicrobials?", ()),
    "ceftriaxone": (r"ceftriaxon\w*", (ABX,)),
    "cefotaxime": (r"cefotaxim\w*", (ABX,)),
    "cefuroxime": (r"cefuroxim\w*", (ABX,)),
    "amoxicillin": (r"amoxicil\w*|amoxycillin", (ABX,)),
    "co-amoxiclav": (r"co ?amoxiclav|augmentin|amoxicillin clavulan\w*", (ABX,)),
    "metronidazole": (r"metronidazol\w*", (ABX,)),
    "flucloxacillin": (r"flucloxacillin|dicloxacillin|cefalexin", (ABX,)),
    "clarithromycin": (r"clarithromycin|azithromycin|erythromycin|macrolides?", (ABX,)),
    "doxycycline": (r"doxycyclin\w*|doxiciclina", (ABX,)),
    "vancomycin": (r"vancomycin\w*", (ABX,)),
    "rifampicin": (r"rifampicin\w*|rifampin", (ABX,)),
    "benzylpenicillin": (r"benzylpenicillin|penicillin g|penicillin(?! \w*allerg\w*| resistant"
                         r"| sensitive)", (ABX,)),
    "gentamicin": (r"gentamicin|aminoglycosides?", (ABX,)),
    "broad spectrum antibiotic": (r"piperacillin\w*|tazocin|meropenem|carbapenems?", (ABX,)),
    "antifungal": (r"antifungals?|terbinafine|clotrimazole|miconazole", ()),
    # analgesia, symptoms
    "analgesia": (r"analges\w*|pain relief|painkillers?|paracetamol|acetaminophen|antalgi\w*|"
                  r"schmerztherapie", ()),
    "nsaid": (r"nsaids?|aine|ibuprofen|diclofenac|ketorolac|naproxen|indometacin\w*",
              ("analgesia",)),
    "opioid": (r"opioids?|opiates?|morphine|oxycodone|codeine|fentanyl", ("analgesia",)),
    "neuropathic pain agent": (r"gabapentin\w*|pregabalin|neuropathic pain", ("analgesia",)),
    "antiemetic": (r"anti ?emetic\w*|ondansetron|metoclopramide|cyclizine|prochlorperazine", ()),
    "antipyretic": (r"antipyretic\w*", ()),
    "corticosteroid": (r"corticosteroid\w*|steroids?(?! sparing)|glucocorticoid\w*|dexamethason\w*|"
                       r"dexametasona|\w*prednisol\w*|prednison\w*|hydrocortison\w*|corticoid\w*|"
                       r"corticotherapie|kortikosteroid\w*", ()),
    "nebulised adrenaline": (r"(nebuli[sz]ed )?adrenalin\w*|epinephrine", ()),
    "immunoglobulin": (r"(?<!anti d )immunoglobulin\w*|ivig|inmunoglobulina\w*", ()),
    "anti-d": (r"anti d( immunoglobulin)?", ()),
    "plasma exchange": (r"plasma exchange|plasmapheresis", ()),
    "colchicine": (r"colchicin\w*", ()),
    "urate lowering": (r"allopurinol|alopurinol|febuxostat|urate lowering", ()),
    "antidepressant": (r"antidepressant\w*|ssris?|sertraline|citalopram|escitalopram|fluoxetine|"
                       r"mirtazapine", ()),
    "psychological therapy": (r"cbt|cognitive behavio\w* therapy|psychological therap\w*|"
                              r"psychotherap\w*|behavio\w* activation", ()),
    "proton pump inhibitor": (r"ppis?|proton pump inhibitors?|\w+prazole|gastric protection", ()),
    "bisphosphonate": (r"bisphosphonates?|alendron\w*|bone protection", ()),
    "nimodipine": (r"nimodipin\w*", ()),
    "magnesium sulfate": (r"magnesium (sulph|sulf)ate|sulfate de magnesium|mgso4|"
                          r"sulfato de magnesio", ()),
    "medical expulsive therapy": (r"tamsulosin|alpha blockers?|medical expulsive therapy", ()),
    # procedures, care
    "surgery": (r"surg\w*|operati\w*|theatre|chirurg\w*|cirug\w*", ()),
    "appendectomy": (r"append(ic)?ectom\w*|apendicectom\w*", ("surgery",)),
    "cholecystectomy": (r"cholecystectom\w*|colecistectom\w*", ("surgery",)),
    "salpingectomy": (r"salping(ectom|otom)\w*", ("surgery",)),
    "scrotal exploration": (r"scrotal exploration|detorsion|orchi(d)?opexy|orchiopex\w*",
                            ("surgery",)),
    "orchidectomy": (r"orchi(d)?ectom\w*", ("surgery",)),
    "aneurysm securing": (r"coil(ing)?|clip(ping)?|endovascular|secure the aneurysm", ()),
    "urinary decompression": (r"nephrostom\w*|ureteric stent\w*|jj stent|stent or nephrostomy", ()),
    "ureteroscopy": (r"ureteroscop\w*", ()),
    "pleural drainage": (r"(needle )?aspiration|chest drain\w*|intercostal drain\w*|"
                         r"thoracostomy|ambulatory device", ()),
    "pleurodesis": (r"pleurodesis|bullectomy|vats", ()),
    "enema reduction": (r"(air |pneumatic |hydrostatic )?enema( reduction)?", ()),
    "nasogastric decompression": (r"nasogastric( tube| decompression)?|ng tube", ()),
    "nil by mouth": (r"nil by mouth|nbm|npo|nothing by mouth|nuchtern|a jeun|dieta absoluta", ()),
    "delivery": (r"deliver\w*|ca?esarean|cesarienne|cesarea|extraction f\w+tale|induction of "
                 r"labou?r|declenchement|parto", ()),
    "blood transfusion": (r"transfus\w*|blood products|packed (red )?cells|crossmatch\w*", ()),
    "admission": (r"admi(t|ssion|tted)|hospitali[sz]\w*|ingreso|stationar\w*", ()),
    "critical care": (r"icu|hdu|intensive care|critical care|high dependency|soins intensifs|"
                      r"stroke unit", ()),
    "physiotherapy": (r"physiotherap\w*|kinesitherapie|fisioterapia|rehabilitation|logopadie", ()),
    "vaccination": (r"vaccinat\w*|impfung\w*", ()),
    "eye protection": (r"eye protection|protection oculaire|artificial tears|larmes artificielles|"
                       r"lubricat\w*", ()),
}
