"""Clinical words beyond the symptom vocabulary, written for bedside (data only).

The retrieval patient asks of each word of a question whether it could name something
clinical. A word that is neither in the patient's own record nor clinical ("cups" in "How
many cups of coffee do you get through?", "doing" in "What were you doing when it came
on?") cannot be answered from the record and is left out of how many words an answer must
hold; a clinical word the record lacks ("asthma", "hay" of hay fever) still counts, so
such a question is still denied rather than answered from its other words. These words
complete the symptom vocabulary (`vocab_symptoms`), the everyday equivalents and the body
regions of the imaging vocabulary, which count as clinical too.

Must not import: anything but the standard library.
"""

from __future__ import annotations

CLINICAL_WORDS = frozenset("""
bump bumps bleed bleeding bled numb tingle tingly cramp cramps cramping spot spots blister
blisters bruise bruises bruising ulcer ulcers sore sores wound wounds cut cuts scratch bite
bites sting stings pus discharge lump lumps swollen swell stiff tender tenderness itchy
burning stinging throbbing twitch twitching tremor shaking shake shaky weak faint fit fits
seizure seizures convulsion collapse dizzy spinning wheeze wheezy wheezing snore snoring
hoarse croaky drool drooling choke choking gag vomit sick nauseous bloated bloating wind gas
constipated constipation diarrhoea diarrhea runs stool stools poo motion motions bowel
bowels urine wee pee waterworks period periods bleeding spotting clot clots clotting
thirsty hungry appetite sweat sweats sweating flush flushes flushing chill chills shivery
fever feverish temperature jaundice yellow pale blue grey purple red rash hives
asthma eczema hay allergy allergies allergic diabetes diabetic sugar insulin cholesterol
pressure hypertension stroke strokes tia epilepsy migraine migraines angina heart attack
attacks infarct cancer tumour tumor growth growths polyp polyps cyst cysts stone stones
gallstones gout arthritis osteoporosis anaemia anemia anaemic leukaemia lymphoma
hepatitis cirrhosis ulcerative crohn crohns coeliac celiac ibs reflux heartburn
indigestion hernia appendix appendicitis gallbladder pancreatitis kidney kidneys liver
thyroid goitre goiter tuberculosis tb hiv aids std sti chlamydia gonorrhoea syphilis herpes
shingles chickenpox measles mumps rubella flu influenza covid cold colds pneumonia
bronchitis emphysema copd sinusitis tonsillitis meningitis malaria dengue typhoid
depression anxiety psychosis bipolar dementia alzheimer parkinson ms sclerosis lupus
vaccine vaccines vaccinated vaccination jab jabs shot shots immunisation immunization
operation surgery stitches transfusion dialysis chemotherapy radiotherapy steroid steroids
antibiotic antibiotics painkiller painkillers inhaler inhalers tablets pills medicine
smoking cigarettes tobacco alcohol drinking drugs cannabis weed cocaine
pregnant pregnancy miscarriage contraception pill coil condom
injury injuries injured injure trauma accident fall falls fell fallen bang banged knock
knocked hit struck kicked punch punched twisted sprain sprained fracture fractured broken
""".split())

# Names of illnesses that hold a symptom's name but are no symptom ("Do you get hay fever?"
# asks about an allergy, not a temperature): left out when a question is matched to the
# patient's symptoms.
NOT_SYMPTOMS = ("hay fever", "glandular fever", "scarlet fever", "rheumatic fever",
                "yellow fever", "typhoid fever", "cabin fever", "fiebre del heno",
                "fiebre reumática", "fièvre jaune", "rhume des foins", "gelbfieber")
