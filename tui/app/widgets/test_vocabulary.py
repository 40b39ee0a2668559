"""A general vocabulary of common test and examination names, for completion when ordering.

This list is deliberately independent of any case: completing from the case's own tests
would tell the physician which tests have stored results. Names are common clinical usage.

Must not import: anything but the standard library.
"""

from __future__ import annotations

TEST_NAMES: tuple[str, ...] = (
    # bedside examination
    "Vital signs", "Blood pressure", "Heart rate", "Respiratory rate", "Temperature",
    "Oxygen saturation", "Weight and height", "Body mass index", "General appearance",
    "Cardiovascular examination", "Respiratory examination", "Abdominal examination",
    "Neurological examination", "Cranial nerve examination", "Fundoscopy",
    "Skin examination", "Lymph node examination", "Thyroid examination",
    "Musculoskeletal examination", "Joint examination", "Breast examination",
    "Pelvic examination", "Rectal examination", "Ear, nose and throat examination",
    "Eye examination", "Visual acuity", "Mental state examination", "Gait assessment",
    "Capillary refill time", "Peripheral pulses", "Jugular venous pressure",
    "Glasgow Coma Scale", "Orthostatic blood pressure",
    # haematology
    "Complete blood count", "Haemoglobin", "White cell count", "Differential white cell count",
    "Platelet count", "Blood film", "Reticulocyte count", "Erythrocyte sedimentation rate",
    "Coagulation screen", "Prothrombin time", "INR", "Activated partial thromboplastin time",
    "Fibrinogen", "D-dimer", "Blood group and crossmatch", "Haemoglobin electrophoresis",
    "Direct antiglobulin test",
    # chemistry
    "Basic metabolic panel", "Comprehensive metabolic panel", "Electrolytes", "Sodium",
    "Potassium", "Chloride", "Bicarbonate", "Urea", "Creatinine", "eGFR", "Glucose",
    "Fasting glucose", "HbA1c", "Calcium", "Magnesium", "Phosphate", "Liver function tests",
    "ALT", "AST", "Alkaline phosphatase", "Gamma-GT", "Bilirubin", "Albumin", "Total protein",
    "Amylase", "Lipase", "Lactate", "Lactate dehydrogenase", "Creatine kinase",
    "Cardiac troponin", "Troponin", "High-sensitivity troponin", "BNP", "NT-proBNP",
    "Lipid profile", "Uric acid", "Ammonia",
    "Serum osmolality", "Urine osmolality", "Arterial blood gas", "Venous blood gas",
    "Ketones", "Iron studies", "Ferritin", "Vitamin B12", "Folate", "Vitamin D",
    "Thyroid function tests", "TSH", "Free T4", "Cortisol", "ACTH", "Prolactin",
    "Testosterone", "Parathyroid hormone", "Serum protein electrophoresis",
    "Free light chains", "Pregnancy test", "Beta-hCG", "Drug screen", "Paracetamol level",
    "Salicylate level", "Alcohol level", "Carboxyhaemoglobin", "Digoxin level", "Lithium level",
    # inflammation, immunology, infection
    "C-reactive protein", "Procalcitonin", "Blood cultures", "Urine culture",
    "Sputum culture", "Stool culture", "Stool ova and parasites", "Clostridioides difficile toxin",
    "Throat swab", "Nasopharyngeal swab PCR", "Influenza PCR", "COVID-19 PCR",
    "HIV test", "Hepatitis B serology", "Hepatitis C serology", "Syphilis serology",
    "Monospot test", "Malaria film", "Tuberculin skin test", "Interferon-gamma release assay",
    "Antinuclear antibodies", "Rheumatoid factor", "Anti-CCP antibodies", "ANCA",
    "Complement levels", "Anti-dsDNA", "Coeliac serology", "Immunoglobulins",
    "Tumour markers", "PSA", "CA-125", "CEA", "Alpha-fetoprotein",
    # urine and fluids
    "Urinalysis", "Urine dipstick", "Urine microscopy", "Urine protein-creatinine ratio",
    "Urine albumin-creatinine ratio", "Lumbar puncture", "CSF analysis", "Pleural fluid analysis",
    "Ascitic fluid analysis", "Joint aspiration", "Faecal occult blood", "Faecal calprotectin",
    # cardiac and respiratory studies
    "Electrocardiogram", "Ambulatory ECG monitoring", "Exercise stress test",
    "Echocardiogram", "Transoesophageal echocardiogram", "Coronary angiography",
    "Spirometry", "Peak expiratory flow", "Pulmonary function tests", "Sleep study",
    # imaging
    "Chest X-ray", "Abdominal X-ray", "Pelvic X-ray", "Skeletal X-ray", "Spine X-ray",
    "CT head", "CT chest", "CT pulmonary angiogram", "CT abdomen and pelvis",
    "CT coronary angiogram", "CT angiogram", "MRI brain", "MRI spine", "MRI abdomen",
    "MR angiography", "Ultrasound abdomen", "Ultrasound pelvis", "Renal ultrasound",
    "Doppler ultrasound of the legs", "Carotid Doppler", "Thyroid ultrasound",
    "Point-of-care ultrasound", "Mammogram", "Bone density scan", "Nuclear medicine scan",
    "Ventilation-perfusion scan", "PET scan",
    # procedures and other
    "Electroencephalogram", "Nerve conduction studies", "Electromyography",
    "Upper endoscopy", "Colonoscopy", "Bronchoscopy", "Cystoscopy", "Biopsy",
    "Skin biopsy", "Bone marrow biopsy", "Audiometry", "Tonometry", "Slit-lamp examination",
)
