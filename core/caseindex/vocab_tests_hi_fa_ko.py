"""Hindi, Persian and Korean names of the laboratory and bedside tests, written for bedside
(data only), merged into `core.caseindex.vocab_tests` (same format: "|"-separated names).

Written as clinicians in those countries say them: Hindi mixes English test names written in
Devanagari ("सीबीसी", "एलएफटी") with Latin abbreviations, which the English names already
cover; Persian uses Persian names and Latin abbreviations ("سی‌بی‌سی", "CBC"); Korean uses
Korean names and English abbreviations ("일반혈액검사", "CBC", "간기능검사", "AST"). Also the
concepts the new cases needed in every language (dengue NS1, sputum AFB, Xpert, brucella
serology, TRAb, G6PD, scrub typhus serology, hepatitis serology, cholinesterase).

Must not import: anything but the standard library.
"""

from __future__ import annotations

Names = dict[str, str]

LABS: dict[str, Names] = {
    "lab:cbc": {"hi": "सीबीसी|कम्प्लीट ब्लड काउंट|कंप्लीट ब्लड काउंट|पूर्ण रक्त गणना|हीमोग्राम|"
                      "ब्लड काउंट",
                "fa": "شمارش کامل خون|سی بی سی|آزمایش سی بی سی|هموگرام",
                "ko": "일반혈액검사|전혈구검사|혈구검사|씨비씨"},
    "lab:bmp": {"hi": "केएफटी|किडनी फंक्शन टेस्ट|किडनी फंक्शन|गुर्दे की जांच|इलेक्ट्रोलाइट्स|"
                      "यूरिया क्रिएटिनिन|आरएफटी|रीनल फंक्शन टेस्ट",
                "fa": "اوره و کراتینین|کارکرد کلیه|آزمایش کلیه|الکترولیت ها|الکترولیت|تست کلیه",
                "ko": "신기능검사|신기능|신장 기능|전해질|전해질 검사"},
    "lab:lft": {"hi": "एलएफटी|लिवर फंक्शन टेस्ट|लिवर टेस्ट|लीवर फंक्शन टेस्ट|लिवर की जांच|"
                      "एसजीओटी|एसजीपीटी",
                "fa": "آزمایش های کبدی|تست های کبدی|آنزیم های کبدی|کارکرد کبد|آزمایش کبد",
                "ko": "간기능검사|간기능|간수치|간효소|간 기능 검사"},
    "lab:crp": {"hi": "सीआरपी|सी रिएक्टिव प्रोटीन", "fa": "سی آر پی|پروتئین واکنشی c",
                "ko": "c반응단백|씨알피|염증수치"},
    "lab:esr": {"hi": "ईएसआर|सेड रेट", "fa": "سرعت رسوب|سدیمان|ای اس آر",
                "ko": "적혈구침강속도|혈침"},
    "lab:troponin": {"hi": "ट्रोपोनिन|ट्रोपोनिन आई|ट्रोपोनिन टी", "fa": "تروپونین",
                     "ko": "트로포닌|심근효소"},
    "lab:bnp": {"hi": "बीएनपी|एनटी प्रोबीएनपी", "fa": "بی ان پی", "ko": "비엔피"},
    "lab:ddimer": {"hi": "डी डाइमर", "fa": "دی دایمر", "ko": "디다이머|d 다이머"},
    "lab:coag": {"hi": "पीटी आईएनआर|आईएनआर|कोएगुलेशन प्रोफाइल",
                 "fa": "آزمایش انعقادی|انعقاد|پی تی|آی ان آر|پی تی تی",
                 "ko": "혈액응고검사|응고검사|프로트롬빈 시간"},
    "lab:glucose": {"hi": "ब्लड शुगर|शुगर|रैंडम ब्लड शुगर|आरबीएस|ग्लूकोज|फास्टिंग शुगर",
                    "fa": "قند خون|قند|گلوکز|قند ناشتا",
                    "ko": "혈당|혈당검사|간이혈당|공복혈당|포도당"},
    "lab:hba1c": {"hi": "एचबीए1सी", "fa": "هموگلوبین a1c|هموگلوبین گلیکوزیله",
                  "ko": "당화혈색소"},
    "lab:tft": {"hi": "थायराइड टेस्ट|थायराइड फंक्शन टेस्ट|थायराइड प्रोफाइल|टीएसएच",
                "fa": "آزمایش تیروئید|آزمایش های تیروئید|تست های تیروئید|تی اس اچ",
                "ko": "갑상선기능검사|갑상선 기능검사|갑상선 호르몬|갑상선 검사"},
    "lab:lipase": {"hi": "लाइपेज", "fa": "لیپاز", "ko": "리파아제"},
    "lab:amylase": {"hi": "एमाइलेज", "fa": "آمیلاز", "ko": "아밀라아제"},
    "lab:abg": {"hi": "एबीजी|ब्लड गैस|आर्टेरियल ब्लड गैस",
                "fa": "گازهای خون شریانی|گاز خون|ای بی جی",
                "ko": "동맥혈가스|동맥혈 가스분석|혈액가스"},
    "lab:lactate": {"hi": "लैक्टेट", "fa": "لاکتات", "ko": "젖산"},
    "lab:lipids": {"hi": "लिपिड प्रोफाइल|कोलेस्ट्रॉल", "fa": "چربی خون|پروفایل چربی|کلسترول",
                   "ko": "지질검사|콜레스테롤"},
    "lab:urate": {"hi": "यूरिक एसिड", "fa": "اسید اوریک", "ko": "요산"},
    "lab:ck": {"hi": "सीपीके|सीके", "fa": "سی پی کا|کراتین کیناز", "ko": "크레아틴키나아제"},
    "lab:iron": {"hi": "फेरिटिन|आयरन स्टडीज|आयरन प्रोफाइल", "fa": "فریتین|آهن سرم|آزمایش آهن",
                 "ko": "페리틴|철검사|혈청철"},
    "lab:b12": {"hi": "विटामिन बी12|बी12", "fa": "ویتامین ب12|ویتامین b12", "ko": "비타민 b12"},
    "lab:folate": {"hi": "फोलिक एसिड|फोलेट", "fa": "اسید فولیک|فولات", "ko": "엽산"},
    "lab:calcium": {"hi": "कैल्शियम", "fa": "کلسیم", "ko": "칼슘"},
    "lab:procalcitonin": {"hi": "प्रोकैल्सीटोनिन", "fa": "پروکلسی تونین", "ko": "프로칼시토닌"},
    "lab:hcg": {"hi": "प्रेगनेंसी टेस्ट|यूरिन प्रेगनेंसी टेस्ट|गर्भावस्था जांच|बीटा एचसीजी",
                "fa": "تست بارداری|بتا اچ سی جی|آزمایش حاملگی", "ko": "임신검사|임신 반응 검사"},
    "lab:urinalysis": {"hi": "यूरिन टेस्ट|पेशाब की जांच|यूरिन रूटीन|यूरिन आर एम",
                       "fa": "آزمایش ادرار|آنالیز ادرار|یو ای|تجزیه ادرار",
                       "ko": "소변검사|요검사|소변 검사|요분석"},
    "lab:urine_culture": {"hi": "यूरिन कल्चर|पेशाब का कल्चर", "fa": "کشت ادرار",
                          "ko": "소변배양|요배양"},
    "lab:blood_culture": {"hi": "ब्लड कल्चर|खून का कल्चर", "fa": "کشت خون|هموکالچر",
                          "ko": "혈액배양"},
    "lab:sputum_culture": {"hi": "बलगम का कल्चर|स्पुटम कल्चर", "fa": "کشت خلط",
                           "ko": "객담배양|가래 배양"},
    "lab:stool_culture": {"hi": "स्टूल कल्चर|मल की जांच|स्टूल टेस्ट", "fa": "کشت مدفوع|"
                                                                            "آزمایش مدفوع",
                          "ko": "대변배양|대변검사"},
    "lab:csf": {"hi": "लम्बर पंक्चर|सीएसएफ", "fa": "پونکسیون کمری|ال پی|مایع مغزی نخاعی",
                "ko": "요추천자|뇌척수액 검사|뇌척수액"},
    "lab:synovial": {"hi": "जोड़ का पानी|सायनोवियल फ्लूइड", "fa": "آسپیراسیون مفصل|مایع مفصلی",
                     "ko": "관절천자|관절액 검사"},
    "lab:hiv": {"hi": "एचआईवी|एचआईवी टेस्ट|एचआईवी जांच", "fa": "اچ آی وی|آزمایش اچ آی وی",
                "ko": "에이즈 검사|hiv 검사"},
    "lab:psa": {"hi": "पीएसए", "fa": "پی اس آ", "ko": "전립선특이항원"},
    "lab:ketones": {"hi": "कीटोन|यूरिन कीटोन|ब्लड कीटोन", "fa": "کتون|کتون خون",
                    "ko": "케톤|혈중 케톤"},
    "lab:creatinine": {"hi": "क्रिएटिनिन|सीरम क्रिएटिनिन", "fa": "کراتینین", "ko": "크레아티닌"},
    "lab:sodium": {"hi": "सोडियम", "fa": "سدیم", "ko": "나트륨"},
    "lab:potassium": {"hi": "पोटैशियम|पोटेशियम", "fa": "پتاسیم", "ko": "칼륨"},
    "lab:haemoglobin": {"hi": "हीमोग्लोबिन|एचबी", "fa": "هموگلوبین", "ko": "혈색소|헤모글로빈"},
    "lab:wbc": {"hi": "टीएलसी|डब्ल्यूबीसी|श्वेत रक्त कोशिकाएँ", "fa": "گلبول سفید|شمارش گلبول سفید",
                "ko": "백혈구|백혈구 수"},
    "lab:platelets": {"hi": "प्लेटलेट|प्लेटलेट्स|प्लेटलेट काउंट", "fa": "پلاکت", "ko": "혈소판"},
    "lab:bilirubin": {"hi": "बिलीरुबिन", "fa": "بیلی روبین", "ko": "빌리루빈"},
    "lab:blood_film": {"hi": "पेरिफेरल स्मीयर|ब्लड स्मीयर",
                       "fa": "لام خون محیطی|اسمیر خون محیطی|لام خون",
                       "ko": "말초혈액도말|혈액도말"},
    "lab:group_save": {"hi": "ब्लड ग्रुप|क्रॉस मैच", "fa": "گروه خون|کراس مچ", "ko": "혈액형|교차시험"},
    "lab:ldh": {"hi": "एलडीएच", "fa": "ال دی اچ", "ko": "젖산탈수소효소"},
    "lab:ana": {"hi": "एएनए", "fa": "آنتی بادی ضد هسته", "ko": "항핵항체"},
    "lab:rf": {"hi": "रूमेटॉइड फैक्टर|आरए फैक्टर", "fa": "فاکتور روماتوئید|آر اف",
               "ko": "류마티스인자"},
    "lab:pth": {"hi": "पैराथायराइड हार्मोन", "fa": "هورمون پاراتیروئید", "ko": "부갑상선호르몬"},
    "lab:afp": {"hi": "अल्फा फीटोप्रोटीन", "fa": "آلفا فیتوپروتئین", "ko": "알파태아단백"},
    "lab:cea": {"hi": "सीईए", "fa": "سی ای آ", "ko": "암배아항원"},
    "emg": {"hi": "ईएमजी", "fa": "نوار عصب و عضله|الکترومیوگرافی", "ko": "근전도"},
    "eeg": {"hi": "ईईजी", "fa": "نوار مغز", "ko": "뇌파검사|뇌파"},
    "ncs": {"hi": "नर्व कंडक्शन स्टडी|एनसीवी", "fa": "نوار عصب|سرعت هدایت عصب",
            "ko": "신경전도검사"},
    "pft": {"hi": "पीएफटी|स्पाइरोमेट्री", "fa": "اسپیرومتری|تست عملکرد ریه",
            "ko": "폐기능검사|폐활량검사"},
    "ecg": {"hi": "ईसीजी|इसीजी|ईकेजी|इलेक्ट्रोकार्डियोग्राम",
            "fa": "نوار قلب|الکتروکاردیوگرام|ای سی جی", "ko": "심전도|심전도 검사|이씨지"},
    "endoscopy": {"hi": "एंडोस्कोपी", "fa": "آندوسکوپی", "ko": "위내시경|내시경"},
    "colonoscopy": {"hi": "कोलोनोस्कोपी", "fa": "کولونوسکوپی", "ko": "대장내시경"},
    "cystoscopy": {"hi": "सिस्टोस्कोपी", "fa": "سیستوسکوپی", "ko": "방광경"},
    # Concepts the Hindi, Persian and Korean cases needed, in every language.
    "lab:dengue_ns1": {"en": "ns1|ns1 antigen|dengue ns1|dengue ns1 antigen|dengue test",
                       "hi": "एनएस1|डेंगू टेस्ट|डेंगू एनएस1|डेंगू की जांच",
                       "fa": "تست دنگی|آنتی ژن ns1", "ko": "뎅기 검사|뎅기 ns1"},
    "lab:dengue_igm": {"en": "dengue igm|dengue serology|dengue antibodies",
                       "hi": "डेंगू आईजीएम|डेंगू एंटीबॉडी", "ko": "뎅기 항체"},
    "lab:malaria": {"en": "malaria test|malaria film|malaria smear|malaria antigen|mp|"
                          "malarial parasite|rapid malaria test|thick and thin films",
                    "es": "gota gruesa|test de malaria", "fr": "frottis goutte épaisse",
                    "de": "malariaausstrich|dicker tropfen", "zh": "疟原虫",
                    "hi": "मलेरिया टेस्ट|मलेरिया जांच|मलेरिया एंटीजन|मलेरिया पैरासाइट",
                    "fa": "آزمایش مالاریا|لام مالاریا", "ko": "말라리아 검사"},
    "lab:widal": {"en": "widal|widal test|typhoid test|typhidot|typhoid serology",
                  "hi": "विडाल|विडाल टेस्ट|टाइफाइड टेस्ट", "fa": "ویدال", "ko": "위달 검사"},
    "lab:afb": {"en": "sputum afb|afb smear|acid fast bacilli|sputum smear|zn stain|"
                      "sputum for afb|afb",
                "hi": "बलगम की जांच|बलगम टेस्ट|एएफबी|बलगम में टीबी की जांच",
                "fa": "اسمیر خلط|لام خلط|خلط از نظر سل",
                "ko": "객담 도말|항산균 도말|객담 항산균검사|가래 검사",
                "zh": "痰抗酸杆菌"},
    "lab:xpert": {"en": "genexpert|xpert|xpert mtb rif|cbnaat|truenat|tb pcr",
                  "hi": "सीबीनैट|जीन एक्सपर्ट|ट्रूनैट", "fa": "جین اکسپرت", "ko": "결핵 pcr|결핵균 pcr"},
    "lab:cholinesterase": {"en": "cholinesterase|pseudocholinesterase|plasma cholinesterase|"
                                 "serum cholinesterase|butyrylcholinesterase",
                           "hi": "कोलिनेस्टरेज़|कोलीनेस्टरेज|सीरम कोलिनेस्टरेज़",
                           "fa": "کولین استراز", "ko": "콜린에스테라제"},
    "lab:ache": {"en": "rbc acetylcholinesterase|acetylcholinesterase|red cell cholinesterase",
                 "hi": "एसिटाइलकोलिनेस्टरेज़", "fa": "استیل کولین استراز",
                 "ko": "아세틸콜린에스테라제"},
    "lab:brucella": {"en": "brucella serology|brucella agglutination|wright test|rose bengal|"
                           "brucella antibodies|brucella",
                     "fa": "رایت|تست رایت|آزمایش رایت|سرولوژی بروسلا|آگلوتیناسیون بروسلا",
                     "hi": "ब्रुसेला टेस्ट", "ko": "브루셀라 항체"},
    "lab:brucella_coombs": {"en": "coombs wright|brucella coombs", "fa": "کومبس رایت"},
    "lab:2me": {"en": "2me|2 mercaptoethanol", "fa": "تو ام ای|2 مرکاپتواتانول"},
    "lab:trab": {"en": "trab|tsh receptor antibodies|tsh receptor antibody|tsi|"
                       "thyroid stimulating immunoglobulin",
                 "fa": "آنتی بادی گیرنده tsh|آنتی بادی ضد گیرنده tsh",
                 "hi": "टीआरएबी", "ko": "갑상선자극호르몬 수용체 항체"},
    "lab:tpo": {"en": "anti tpo|tpo antibodies|thyroid peroxidase antibodies",
                "fa": "آنتی تی پی او", "hi": "एंटी टीपीओ", "ko": "항tpo 항체"},
    "lab:retic": {"en": "reticulocyte count|reticulocytes|retic", "hi": "रेटिकुलोसाइट",
                  "fa": "رتیکولوسیت|شمارش رتیکولوسیت", "ko": "망상적혈구"},
    "lab:coombs": {"en": "direct antiglobulin test|coombs test|direct coombs|dat",
                   "fa": "کومبس مستقیم|تست کومبس", "hi": "कूम्ब्स टेस्ट", "ko": "직접 쿰스|쿰스 검사"},
    "lab:g6pd": {"en": "g6pd|g6pd assay|g6pd screen|g6pd level|g6pd test|"
                       "glucose 6 phosphate dehydrogenase",
                 "fa": "آنزیم g6pd|سنجش g6pd|تست g6pd|غربالگری g6pd", "hi": "जी6पीडी",
                 "ko": "g6pd 검사"},
    "lab:scrub": {"en": "scrub typhus serology|scrub typhus igm|tsutsugamushi antibody|"
                        "orientia antibody|weil felix|scrub typhus test",
                  "ko": "쯔쯔가무시 항체|쯔쯔가무시 검사|쯔쯔가무시 항체검사",
                  "hi": "स्क्रब टाइफस टेस्ट"},
    "lab:hantavirus": {"en": "hantavirus serology|hfrs serology|hantaan antibody",
                       "ko": "한탄바이러스 항체|한타바이러스 검사|신증후군출혈열 항체"},
    "lab:hav": {"en": "anti hav igm|igm anti hav|hepatitis a serology|hav igm|"
                      "hepatitis a antibody",
                "ko": "a형 간염 항체|a형간염 항체|a형 간염 검사", "fa": "آنتی بادی هپاتیت a"},
    "lab:hbv": {"en": "hbsag|hepatitis b surface antigen|hepatitis b serology|anti hbc",
                "ko": "b형 간염 검사|b형간염 검사", "hi": "एचबीएसएजी",
                "fa": "آنتی ژن سطحی هپاتیت b"},
    "lab:hcv": {"en": "anti hcv|hepatitis c serology|hcv antibody", "ko": "c형 간염 검사"},
    "lab:hev": {"en": "anti hev|hev igm|hepatitis e serology", "ko": "e형 간염 항체|e형 간염 검사"},
    "lab:flu": {"en": "influenza test|rapid influenza test|flu test|rapid influenza antigen",
                "ko": "독감 검사|인플루엔자 검사|인플루엔자 신속항원검사", "fa": "تست آنفولانزا",
                "hi": "इन्फ्लुएंजा टेस्ट"},
}

# Indian English abbreviations that the English names lack.
EN_EXTRA: Names = {"lab:bmp": "kft|rft", "lab:lft": "sgot|sgpt", "lab:glucose": "rbs",
                   "lab:wbc": "tlc|total leucocyte count", "lab:rf": "ra factor",
                   "ncs": "ncv", "lab:urinalysis": "urine rm|urine routine"}

GROUPS: dict[str, Names] = {
    "bloods": {"hi": "ब्लड टेस्ट|खून की जांच|रूटीन ब्लड टेस्ट|ब्लड रिपोर्ट",
               "fa": "آزمایش خون|آزمایش های خون|آزمایش خون روتین",
               "ko": "혈액검사|피검사|기본 혈액검사|혈액 검사"},
    "cultures": {"hi": "कल्चर", "fa": "کشت", "ko": "배양|배양검사"},
}
CULTURE_WORDS = ("कल्चर", "کشت", "배양")
DISPLAY: dict[str, Names] = {
    "lab:cbc": {"hi": "सीबीसी", "fa": "شمارش کامل خون (CBC)", "ko": "일반혈액검사(CBC)"},
    "lab:bmp": {"hi": "किडनी फंक्शन टेस्ट और इलेक्ट्रोलाइट्स", "fa": "اوره، کراتینین و الکترولیت‌ها",
                "ko": "신기능 및 전해질"},
    "lab:crp": {"hi": "सीआरपी", "fa": "CRP", "ko": "CRP"},
    "lab:lft": {"hi": "लिवर फंक्शन टेस्ट", "fa": "آزمایش‌های کبدی", "ko": "간기능검사"},
}
# Words of a catch-all request ("सभी रिपोर्ट", "همه‌ی آزمایش‌ها"); Korean is read by
# characters like Chinese (`VAGUE_CJK`).
VAGUE_WORDS = """सभी सब सारे सारी सारा पूरी पूरे रिपोर्ट रिपोर्टें टेस्ट टेस्टों जांच जांचें नतीजे रिज़ल्ट
कृपया मुझे दीजिए दिखाइए बताइए सबकुछ कुछ जो भी हैं है के की का में उपलब्ध हुए हुई
همه همه‌ی تمام تمامی کل آزمایش آزمایش‌ها آزمایشها ها های جواب جواب‌ها نتایج نتیجه لطفا لطفاً
بدهید بدید بگویید را رو من به هر چه هرچه موجود شده ی""".split()
VAGUE_CJK = ("모든", "전부", "전체", "모두", "검사", "결과", "다", "좀", "주세요", "알려", "보여",
             "있는", "한", "해", "것", "거", "들", "싹", "받은")
QUANTIFIERS = "सभी सब सारे सारी सारा पूरी पूरे हर همه همه‌ی تمام تمامی کل هر".split()
QUANTIFIERS_CJK = ("모든", "전부", "전체", "모두")
