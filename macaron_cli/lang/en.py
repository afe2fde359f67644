"""English: the words each concept needs (see __init__.py). Signs every language shares
(%, $, €) are written here."""

# Won is the currency beside an amount, after "Korean", or as the currency asked ("in won",
# "switch to won"); never the verb ("I won a prize").
_WON = r"(?<=\d)\s?won\b|₩|\bKRW\b|\bkorean won\b|\b(?:in|to|into|use|using|with)\s+won\b|\bwon\s+(?:instead|only)\b"

WORDS: dict[str, str] = {
    # ── units ──
    "unit.mmol/L": r"(?<![a-z])mmol/?l(?![a-z])",
    "unit.mg/dL": r"(?<![a-z])mg/?dl(?![a-z])",
    "unit.percent": r"%|％|\bpercent\b|\bbody fat\b",
    "unit.bpm": r"\bbpm\b|\bpulse\b|\bheart ?rate\b",
    "unit.milliliter": r"(?<![a-z])ml(?![a-z])|millilit(?:er|re)s?",
    "unit.liter": r"(?<=\d)\s?l\b|\blit(?:er|re)s?\b",
    "unit.kilogram": r"(?<![a-z])kgs?(?![a-z])|kilograms?|\bkilos?\b",
    "unit.pound": r"\blbs?\b|\bpounds?\b",
    "unit.kilometer": r"(?<![a-z])kms?(?![a-z])|kilomet(?:er|re)s?",
    "unit.mile": r"\bmiles?\b",
    "unit.centimeter": r"(?<![a-z])cm(?![a-z])|centimet(?:er|re)s?",
    "unit.inch": r"\binch(?:es)?\b",
    "unit.hour": r"(?<=\d)\s?h\b|\bhours?\b|\bhrs?\b",
    "unit.minute": r"(?<=\d)\s?m\b|\bmin(?:ute)?s?\b",
    "unit.second": r"\bseconds?\b|\bsecs?\b",
    "unit.steps": r"\bsteps?\b",
    "unit.cups": r"\bcups?\b|\bcoffees?\b",
    "unit.glasses": r"\bglass(?:es)?\b",
    "unit.times": r"\btimes\b|\bpushups?\b|(?<=\d )(?:workouts?|sessions?)\b",
    "refuse.before": r"\bnot|\bno|\bnever|\bhate|\bdon'?t (?:use|like|want)|\binstead of|\brather than",
    "refuse.filler": r"in |the ",
    "refuse.after": "",
    # ── money ──
    "currency.PHP": r"\bpesos?\b|₱|\bPHP\b",
    "currency.JPY": r"\byen\b|\bJPY\b",
    "currency.KRW": _WON,
    "currency.CNY": r"\byuan\b|\brmb\b|\bCNY\b|\brenminbi\b",
    "currency.EUR": r"\beuros?\b|€|\bEUR\b",
    "currency.USD": r"\bdollars?\b|\bbucks\b|\$|\bUSD\b",
    "saving": r"\bsav(?:e|ing)\b|\bsave up\b|\bsavings\b|\bfund\b|\bputting in\b|\bput away\b|"
    r"\bput(?:ting)? aside|\bset aside|\bpay off\b",
    "budget": r"\bbudget",
    # ── people ──
    "me": r"\bme\b|\bmyself\b",
    "me.alone": r"me|myself",
    "not_names": """I I'm I'd I've Im NOT OK US UK USD PHP JPY KRW CNY EUR Celsius Fahrenheit English Spanish
    Japanese Korean Chinese Tagalog Filipino French German Monday Tuesday Wednesday Thursday Friday Saturday
    Sunday January February March April May June July August September October November December Mum Mom Dad
    Doc Christmas Easter Him Her Them Us You Everyone""",
    "housemates": r"\broom-?mates?|\bflat-?mates?|\bhouse-?mates?",
    "turns": r"\bbetween\b|\bturns?\b",
    # ── time ──
    "period.daily": r"\ba day\b|\bper day\b|\beach day\b|\bevery ?day\b|\bdaily\b",
    "period.weekly": r"\bweekly\b|\bevery week\b|\beach week\b|\ba week\b|\bper week\b",
    "period.monthly": r"\bmonthly\b|\ba month\b|\bper month\b|\bevery month\b|\beach month\b|\bthis month\b",
    "time.fasting": r"\bfasting\b|\bempty stomach\b|\bbefore (?:(?:and|&) after )?(?:meals|eating|breakfast)\b",
    "time.after_meal": r"\bafter (?:meals?|eating|dinner|lunch|breakfast)\b|\b\d\s?h(?:ours?)? after\b",
    "time.morning": r"\bmornings?\b",
    "time.afternoon": r"\bafternoons?\b",
    "time.evening": r"\bevenings?\b|\bnights?\b",
    "twice_a_day": r"\btwice a day\b",
    "check": r"\bdid i take\b|\bor not\b|\bwhether i\b|\bjust (?:want )?(?:a )?tick|\ba tick\b|\btick (?:it|a box)\b",
    "how_many": r"\bhow (?:many|much)\b",
    "every_few_days": r"\bevery \d+ (?:days?|weeks?)\b|\bevery (?:few|couple of) days\b",
    "event.wedding": r"\bwedding\b",
    "event.exam": r"\bexams?\b",
    "event.birthday": r"\bbirthday\b|\bb-?day\b",
    # "my trip to japan": the event as said, its place kept ("trip to the beach" stays a trip)
    "event.trip": r"\btrip(?:\s+to\s+(?!the\b|an?\b|my\b|our\b)[A-Za-z]+)?\b|\bvacation\b|\bholiday\b",
    "event.anniversary": r"\banniversary\b",
    "event.move": r"\bmove\b",
    "event.concert": r"\bconcert\b",
    "event.christmas": r"\bchristmas(?: break)?\b",
    "event.new year": r"\bnew year\b",
    "event.graduation": r"\bgraduation\b",
    "event.whose": r"\b[A-Za-z][a-z]+'s\s+",
    "event.whose_after": "",
    "goal.before": r"\bgoal(?: is)?|\btarget|\baim(?:ing)? (?:for|at)|\bat least|\bcut down to|\bup to|\bmax",
    "goal.after": "",
    "with_whom": r"\bwith whom\b|\bwho (?:i|we) (?:went|watched|saw|ate) (?:it )?with\b",
    # ── apps named by what they are ──
    "family.timer": r"\bpomodoro|\btimer\b",
    "family.deck": r"\bflash ?cards?|\bvocab|\bquiz me",
    "family.meal_plan": r"\bmeal ?plan|\bmeal prep|\bplan (?:\w+ )?(?:dinners|meals|lunches)",
    "family.turns": r"\btake turns|\btaking turns|\bwhose turn|\bwho'?s turn|\bin turns\b",
    "family.recipe_scale": r"\bscale (?:the |a )?(?:recipe|ingredients)|\bservings\b.*\bfor \d+",
    "timer.minutes": r"min(?:ute)?s?\b",
    "timer.break": r"\bbreak|\brest\b|\boff\b",
    "timer.work": r"\bwork\b|\bon\b|\bfocus\b|\bstudy\b|\bsprint\b",
    "deck.question": r"\bquestions?\b",
    "language.en": r"\benglish\b",
    "language.ja": r"\bjapanese\b",
    "language.ko": r"\bkorean\b",
    "language.zh": r"\bchinese\b|\bmandarin\b",
    "language.es": r"\bspanish\b|\bespa[ñn]ol\b",
    "language.fr": r"\bfrench\b",
    "language.de": r"\bgerman\b",
    "language.tl": r"\btagalog\b|\bfilipino\b",
    "meal.breakfast": r"\bbreakfasts?\b",
    "meal.lunch": r"\blunch(?:es)?\b",
    "meal.dinner": r"\bdinners?\b|\bsuppers?\b",
    "meal.snack": r"\bsnacks?\b",
    # ── a number's unit, as one word (reading/units.py) ──
    "amount.ml": r"millilit(?:er|re)s?|ml",
    "amount.floz": r"fl\.? ?oz|fluid ounces?",
    "amount.l": r"lit(?:er|re)s?|ltrs?|l",
    "amount.cm": r"centimet(?:er|re)s?|cm",
    "amount.mm": r"millimet(?:er|re)s?|mm",
    "amount.km": r"kilomet(?:er|re)s?|kms?|k",
    "amount.kg": r"kilograms?|kgs?",
    "amount.kilo": r"kilos?",
    "amount.m": r"met(?:er|re)s?|m",
    "amount.mi": r"miles?|mi",
    "amount.lb": r"pounds?|lbs?",
    "amount.oz": r"ounces?|oz",
    "amount.usd": r"dollars?|bucks|usd",
    "amount.eur": r"euros?|eur",
    "amount.jpy": r"yen|jpy",
    "amount.cny": r"yuan|rmb|cny",
    "amount.krw": r"won|krw",
    "amount.php": r"pesos?|php",
    "amount.min": r"minutes?|mins?",
    "amount.h": r"hours?|hrs?|h",
    # ── a measure's words (reading/spec_rules.py) ──
    "asked_unit.cups": r"\bcups?\b",
    "asked_unit.glasses": r"\bglass(?:es)?\b",
    "asked_unit.hour": r"\bhours?\b",
    "asked_unit.minute": r"\bminutes?\b|\bmins?\b",
    "asked_unit.pages": r"\bpages?\b",
    "asked_unit.times": r"\btimes\b",
    "measure.morning": r"\bmornings?\b|\bam\b",
    "measure.evening": r"\bevenings?\b|\bnights?\b|\bpm\b",
    "measure.twice": r"twice a day",
    "counted": r"\bhow (?:many|much|often)\b",
    "distance": r"\brun(?:s|ning)?\b|\bjog|\bwalk",
    # ── money's words (reading/spec_rules.py) ──
    "money.debts": r"\bowe[sd]?\b|\bdebts?\b|\blent\b|\blend\b|\bborrow|\bpaid me back|\bIOUs?\b",
    "money.split": r"\bsplit|\bshar(?:e[sd]?|ing) (?:the |our )?(?:\w+ )?(?:bills?|costs?|rent)|\bgo dutch",
    "money.said": r"\bmoney\b|\bspen[dt]|\bspending|\bbudget|\bexpens|\bcosts?\b|\bbills?\b|\bpaycheck|\bsalary|"
    r"\brent\b|\bgrocer|\bcash\b",
    "spending.food": r"\bfood\b|\bgroceries\b",
    "spending.transport": r"\btransport|\bcommut",
    "spending.bills": r"\bbills\b|\butilities",
    "spending.home": r"\brent\b",
    # ── tasks' words (reading/spec_rules.py) ──
    "tasks.chores": r"\bchores?\b|\bhousework|\bdishes\b|\blaundry|\bvacuum|\bcleaning\b|\bclean the\b|\btrash\b|"
    r"\bgarbage",
    "tasks.said": r"\bto[- ]?do\b|\btasks?\b|\bchores?\b|\berrands?\b|\bappointments?\b|\bdeadlines?\b|\bplan\b|"
    r"\bschedule|"
    r"\bget (?:\w+ )?done\b|\bneed to do\b|\bthings to do\b|\bturns?\b|\brotas?\b|\bshifts?\b",
    "tasks.assignees": r"\bwho\b|\bturns?\b|\brota\b|\bassign|\bshare (?:it |this |the list )?with\b|"
    r"\beach of us|\bkids|\bfamily|\broommates?|\bflatmates?",
    "tasks.weekly": r"\bweekly\b|\bevery week|\beach week|\bper week",
    "tasks.daily": r"\bevery day\b|\bdaily\b",
    "tasks.countdown": r"\bcount(?:ing)? ?down|\bdays? (?:left|until|till|to go)|\bdays? (?:\w+ ){1,4}left\b|"
    r"\bhow (?:long|many days) (?:until|till|before)|\buntil (?:my|the|our)\b",
    # ── conversions' words (reading/spec_rules.py) ──
    "convert.asked": r"\bconvert|\bconversion|\bturn .* into\b|\bhow many \w+ (?:is|are|in)\b|\bexchange rate|"
    r"\bto (?:miles|km|kg|pounds|celsius|fahrenheit)\b|\bin (?:pounds|kilos|miles|km|celsius|fahrenheit)\b|"
    r"\bhow much is (?:a |one )?\w+ in\b",
    "convert.keeping": r"\blog\b|\btrack|\brecord",
    "convert.verb": r"\bconvert|\bconversion",
    # ── a journal's words (reading/spec_rules.py) ──
    "journal.mood": r"\bfeel|\bmood|\bemotion|\bthankful|\bgrateful|\bgratitude|\bjournal|\bdiary|\bmy day\b|\bjot\b|"
    r"\breflect",
    "journal.food": r"\bfood\b|\bmeals?\b|\bate\b|\beat(?:ing)?\b|\bsnacks?\b|\bdinners?\b|\blunch|\bbreakfast|"
    r"\bdiet\b",
    "journal.diary": r"\bdiary|\bjournal|\bfeel|\bmood",
    "journal.logged": r"\blog|\bdiary|\bjournal",
    # ── an app that calculates (reading/spec_rules.py, fit.py) ──
    "calculator": r"\bcalculator|\bcalculate",
    # ── dates (reading/when.py) ──
    "month.january": r"January|Jan",
    "month.february": r"February|Feb",
    "month.march": r"March|Mar",
    "month.april": r"April|Apr",
    "month.may": r"May",
    "month.june": r"June|Jun",
    "month.july": r"July|Jul",
    "month.august": r"August|Aug",
    "month.september": r"September|Sept|Sep",
    "month.october": r"October|Oct",
    "month.november": r"November|Nov",
    "month.december": r"December|Dec",
    "weekday.monday": r"monday",
    "weekday.tuesday": r"tuesday",
    "weekday.wednesday": r"wednesday",
    "weekday.thursday": r"thursday",
    "weekday.friday": r"friday",
    "weekday.saturday": r"saturday",
    "weekday.sunday": r"sunday",
    "weekday.on": r"\b(?:on\s+)?",
    "weekday.last": r"\blast\s+",
    "weekday.after": r"\b",  # "on Saturdays" is a habit, not a day
    "count.1": r"one|an|a",
    "count.2": r"two",
    "count.3": r"three",
    "count.4": r"four",
    "count.5": r"five",
    "count.6": r"six",
    "count.7": r"seven",
    "count.8": r"eight",
    "count.9": r"nine",
    "count.10": r"ten",
    "when.day_before_yesterday": r"\b(?:the\s+)?day\s+before\s+yesterday\b",
    "when.yesterday": r"\byesterday\b",
    "when.today": r"\btoday\b",
    "when.last_week": r"\blast\s+week\b",
    "when.last_month": r"\blast\s+month\b",
    # ── query expansion (memory/expansion.py): plain words ──
    "expansion.festival": r"fireworks|festival|concert|live show",
    "expansion.festival.needs": r"ticket|tickets|date|weather|rain",
    "expansion.trip": r"trip|travel|vacation|holiday",
    "expansion.trip.needs": r"flight|hotel|passport|visa",
    "expansion.meal": r"dinner|lunch|breakfast|restaurant|meal|recipe|cook|snack|snacks|eat|food",
    "expansion.meal.needs": r"allergy|allergic|vegetarian|vegan|favourite|favorite|diet|dislike",
    "expansion.gift": r"birthday|anniversary|gift|present",
    "expansion.gift.needs": r"likes|favorite|favourite|wants|wish",
    "expansion.exercise": r"workout|exercise|run|running|gym",
    "expansion.exercise.needs": r"injury|knee|back|goal|schedule",
    "expansion.money": r"budget|money|spend|save|savings",
    "expansion.money.needs": r"salary|rent|income|expense",
    "expansion.sleep": r"sleep|tired|insomnia",
    "expansion.sleep.needs": r"caffeine|coffee|bedtime",
    # ── text for search (memory/text.py) ──
    "small_words": r"the|a|an|is|are|was|were|be|been|i|you|he|she|we|they|it|me|my|your|our|his|her|their|this|"
    r"that|these|those|what|where|when|who|how|why|which|do|does|did|have|has|had|of|and|in|on|for|with|from|to|"
    r"will|would|can|could|about|there|not|but|or|if|so|just",
    "small_words.shared": "",
    "particles": "",
    "not_nouns": "",
    "verb_endings": "",
    "grammar_characters": "",
    # ── an app's settings from memories (lifelog/refresh.py) ──
    "goal.stated": r"\b(goal|target|aim|at least|a day|per day|daily)\b",
    "counts.unit": r"glass(?:es)?|cups?|steps?|pages?|times",
    "budget.named": r"(?:monthly )?budget\b",
    # ── secrets said in a sentence (memory/secrets/phrases.py) ──
    "secret.password": r"passwords?|passwd|pass ?phrase|pass-phrase|pwd|pw|(?<!boarding )(?<!bus )(?<!day )pass",
    # German's PIN-Nummer and PIN-Nr. are written with the English PIN
    "secret.pin": r"pin(?:[ -]?(?:code|number|nummer|nr\.?))?|passcode|"
    r"(?:door|gate|garage|alarm|lock|unlock|lock ?screen|phone|keypad|entry|access|safe|building|padlock) ?codes?",
    "secret.code": r"codes?|keypad|combo|combination",
    "secret.api-key": r"api[ _-]?(?:keys?|tokens?|secrets?)|(?:access|auth|refresh|bot|session) ?tokens?|tokens?|"
    r"(?:secret|access|private|signing|master|encryption|recovery|license) ?keys?|(?:client|app) ?secrets?|secrets?",
    "secret.key": r"keys?",
    "secret.cvv": r"cvv2?|cvc2?|csc|(?:card )?security code|(?:three|3)[- ]digit (?:security )?(?:code|number)|"
    r"(?:the )?(?:three|3|last three) (?:digits|numbers) on the back(?: of (?:my|the) card)?|"
    r"code on the back(?: of (?:my|the) card)?",
    "secret.national-id": r"ssn|social security (?:number|no\.?|#)|social insurance number|national insurance number|"
    r"ni number|nino|passport (?:number|no\.?)|driver['’]?s licen[cs]e (?:number|no\.?)|tax (?:id|number)|tin|itin|"
    r"national id(?: number)?",
    **{f"secret.{kind}.glued": "" for kind in ("password", "pin", "code", "api-key", "key", "cvv", "national-id")},
    "secret.is": r"is|was|are",
    "secret.verb": r"were",
    "secret.now": r"now|still|set to|changed to",
    "secret.particle": "",
    "secret.amount": r"digits?|characters?|chars?|hours?|hrs?|h|days?|minutes?|mins?|seconds?|secs?|years?|months?|"
    r"weeks?|mm|cm|m|km|kg|g|lbs?|people|persons?|times|%|percent|dollars?|euros?|yen|won|pesos?|steps|pages|kcal|"
    r"calories|ml|l",
    "secret.changed_to": r"(?:changed|set|reset|updated|switched)\s+(?:\S+\s+){0,3}?"
    r"(?:passwords?|passcode|pin|pw)\s+to",
    "secret.qualifier": r"door|gate|garage|keypad|alarm|lock|safe|padlock|card",
    "secret.stand_in": r"your|yours|placeholder|changeme|xxx|xxxx",
    "secret.filler": r"my|test|testing|secure|super|strong|dummy|fake|sample|demo|default|here|db|new|some|the",
    "secret.also_a_word": r"pw",
    "secret.card": r"card|visa|mastercard|amex",
    "secret.not_a_card": r"order|tracking|invoice|imei|serial|reference|ref\.?|confirmation",
    # ── asking the friend for a tool (friend/router.py) ──
    "tool.asked": r"\b(can|could|would|will) you (make|build|create|set up|whip up)\b|\b(make|build|create) me\b|"
    r"\bi (want|need|'d like|would like) (a|an|some) (app|tool|tracker|planner|journal|calculator|dashboard)\b",
    "tool.named": r"\b(app|tool|tracker|track|log|planner|plan|journal|calculator|counter|timer|dashboard|list|"
    r"something to|something that|thing to)\b",
    # ── what a message is about: word starts, each counted (friend/topics.py) ──
    "topic.food": r"eat|food|snack|dinner|lunch|breakfast|recipe|cook|restaurant|meal|allerg|vegan|vegetarian|diet|"
    r"cafe|coffee",
    "topic.health": r"sleep|tired|sick|doctor|medic|pain|health|water|hydrat",
    "topic.fitness": r"run|jog|marathon|gym|workout|exercise|hike|bike|cycl|swim|yoga|walk|steps",
    "topic.travel": r"trip|travel|flight|vacation|holiday|hotel|passport|visit",
    "topic.finance": r"money|budget|spend|save|saving|expense|rent|salary|invest",
    "topic.family": r"mom|mum|dad|mother|father|sister|brother|kid|child|son|daughter|partner|wife|husband|birthday",
    "topic.work": r"work|job|boss|meeting|deadline|project|office|career",
    "topic.hobby": r"read|book|film|movie|music|guitar|piano|cello|violin|instrument|sing|danc|paint|draw|garden|"
    r"plant|game|photo|knit|craft|tinker|code",
    "topic.events": r"festival|concert|party|wedding|fireworks",
    # ── a person's ways: currency, units, cups (reading/personal.py) ──
    "paid_in.PHP": r"\bpesos?\b|₱|\bPHP\b",
    "paid_in.JPY": r"\byen\b|¥|\bJPY\b",
    "paid_in.KRW": _WON,
    "paid_in.CNY": r"\byuan\b|\brmb\b|\bCNY\b",
    "paid_in.EUR": r"\beuros?\b|€|\bEUR\b",
    "paid_in.GBP": r"\bpounds? sterling\b|£|\bGBP\b",
    "paid_in.USD": r"\bdollars?\b|\$|\bUSD\b",
    "imperial.said": r"\b(?:ounces?|oz|pounds?|lbs?|miles?|fahrenheit|°F|feet|foot|inch(?:es)?|yards?)\b",
    "system_refused.before": r"\bnot|\bno|\bnever|\bhate|\bdon'?t (?:use|like|want)|\binstead of|\brather than|\bover",
    "system_refused.filler": r"in |the ",
    "system_refused.after": "",
    "cups.preferred": r"\bprefer\w*\s+(?:\w+\s+){0,2}cups\b|\b(?:measure|think|count|cook|bake)\w*\s+in\s+cups\b|"
    r"\bcups\s+(?:over|rather than|instead of|to|not)\s+(?:ml|millilit|grams|metric)",
    "cups.left": r"\b(ml|millilit\w*|lit(er|re)s?|grams?|metric)\b\s+(to|over|rather than|instead of)\s+cups?\b",
    "metric.chosen": r"\b(back to (ml|metric|litres?|liters?|kilos?|grams?|km)|switched to (ml|metric|litres?|"
    r"liters?|kilos?|km)|(use|prefer|think in) (ml|metric|millilit(er|re)s?|lit(er|re)s?|kilograms?|kilomet(er|"
    r"re)s?))\b",
    # ── words about who someone is, removed before matching (friend/onboarding.py) ──
    "protected": r"\b(i'?m|i am|as)\s+an?\s+(\w+\s+)?(woman|man|girl|boy|mother|father|mom|dad|wife|husband|female|"
    r"male|trans\w*|nonbinary|non-binary|christian|muslim|jewish|hindu|buddhist|atheist|black|white|asian|latina|"
    r"latino|gay|lesbian|straight|disabled|immigrant|senior|teen\w*)\b|"
    r"\b(woman|women|man|men|female|male|girl|boy|he/him|she/her|they/them|\d*\s*years? old|\d+\s*(yo|y/o))\b",
    # ── a language named in an answer (friend/onboarding.py) ──
    "language_names": r"english=en|japanese=ja|korean=ko|chinese=zh|mandarin=zh|filipino=tl|tagalog=tl|spanish=es|"
    r"español=es|french=fr|français=fr|german=de|deutsch=de|italian=it|italiano=it|portuguese=pt|"
    r"português=pt|dutch=nl|russian=ru|русский=ru|arabic=ar|hindi=hi|indonesian=id|vietnamese=vi|"
    r"tiếng việt=vi|thai=th|ไทย=th|turkish=tr|polish=pl|swedish=sv|ukrainian=uk",
    # ── what an app keeps, and converts (reading/spec_rules.py) ──
    "measure.blood_pressure": r"blood\s*pressure|\bbp\b",
    "measure.blood_sugar": r"blood\s*sugar|glucose",
    "measure.pulse": r"\bpulse\b|\bheart ?rate\b",
    "measure.body_fat": r"\bbody ?fat\b",
    "measure.feeding": r"\bbottles?\b|\bfeed(?:s|ing)?\b|\bformula\b",
    "measure.body_weight": r"\bweigh(?:t|ing)?\b(?!\s*(?:to|into)\b)(?!\s*in (?:pounds|lbs?|kg|kilos?)\s+(?:to|"
    r"into)\b)",
    "measure.coffee": r"\bcoffees?\b|\blattes?\b|espresso",
    "measure.tea": r"\bteas?\b(?!spoon)",
    "measure.water": r"\bwater\b|\bhydrat",
    "measure.sleep": r"\bsleep|\bslept|\bbedtime",
    "measure.steps": r"\bsteps?\b|\bwalk",
    "measure.medication": r"\bmedic|\bpills?\b|\btablets?\b|\bvitamins?|\binsulin|\bshots?\b",
    "measure.exercise": r"\bexercis|\bworkouts?|\bgym\b|\btraining|\bjog|\brun(?:s|ning)?\b",
    "measure.stretching": r"\bstretch",
    "measure.reading": r"\bread(?:ing)?\b|\bpages?\b",
    "measure.meditation": r"\bmeditat|\bmindful",
    "measure.practice": r"\bpractis|\bpractic|\bpiano|\bguitar|\bviolin",
    "measure.vegetables": r"\bvegetables?|\bveggies?",
    "measure.glasses": r"\bglass(?:es)?\b",
    "item.book": r"\bbooks?\b|\bnovels?\b|\bmanga\b",
    "item.film": r"\bfilms?\b|\bmovies?\b|\bdramas?\b",
    "item.restaurant": r"\brestaurants?\b|\bcaf[eé]s?\b|\bramen\b|\bplaces to eat",
    "item.wine": r"\bwines?\b|\bbeers?\b|\bsake\b",
    "item.recipe": r"\brecipes?\b",
    "item.plant": r"\bplants?\b|\bfern|\bcact(?:us|i)\b|\bmonstera|\bpothos|\bsucculents?|\borchids?|\bbonsai",
    "item.game": r"\bboard games?\b|\bvideo games?\b",
    "items.rated": r"\brat(?:e|ed|ing|ings)\b|\bstars?\b|\bscores?\b|\bfavou?rites?\b|\bbest\b|\bliked?\b",
    "items.scored": r"\brat(?:e|ed|ing|ings)\b|\bstars?\b|\bscores?\b",
    "items.collected": r"\bcollection|\blist of\b|\bwish ?list|\blent\b|\bread so far|\bwatched|\bvisited|\btried\b",
    "conversion.pace": r"\bpace\b|min/km|min/mile|minutes? per (?:km|mile)",
    "conversion.shoe_size": r"\bshoe sizes?|\bshoe",
    "conversion.currency": r"\bexchange rate|\bcurrenc|\bdollars? (?:to|into|in)\b|\bin (?:dollars|pesos|yen|won|"
    r"euros)\b|"
    r"\byen to\b|\bpesos? to\b",
    "conversion.cooking": r"\bcook|\bbak(?:e|ing)\b|\brecipes?\b|\bkitchen|\bcups?\b|\btablespoons?|\bteaspoons?|"
    r"\btbsp|"
    r"\btsp",
    "conversion.temperature": r"\btemperature|\bcelsius|\bfahrenheit|°[cf]\b|\boven",
    "conversion.area": r"\barea\b|\bsquare (?:feet|foot|met)|\bsq ?ft|\btsubo|\bpyeong|\bacres?|\bhectares?",
    "conversion.speed": r"\bspeed|\bkm/h|\bmph\b",
    "conversion.length": r"\blength|\bdistance|\bkm\b|\bkilomet|\bmiles?\b|\binch|\bfeet|\bfoot\b|\bcm\b|\bcentimet",
    "conversion.weight": r"\bweights?\b|\bkg\b|\bkilo|\bpounds?\b|\blbs?\b|\bounces?\b|\bgrams?\b",
    "conversion.volume": r"\bvolume|\bjugs?\b|\blit(?:er|re)s?\b|\bgallons?|\bml\b",
    "conversion.units": r"fahrenheit|celsius|\bkm\b|kilomet|\bmiles?\b|\bkg\b|\bpounds?\b|\blbs?\b|\binch(?:es)?\b|"
    r"\bcm\b|"
    r"centimet|\bfeet\b|\bmeters?\b|\bmetres?\b|\bcups?\b|\bgrams?\b|\bounces?\b|\bml\b",
    "converter.weight.ounce": r"\boz\b|\bounces?\b",
    "converter.weight.gram": r"\bgrams?\b|(?<=\d)\s?g\b",
    "converter.weight.kilogram": r"\bkg\b|\bkilos?(?:grams?)?\b",
    "converter.weight.pound": r"\blbs?\b|\bpounds?\b",
    "converter.length.inch": r"\binch(?:es)?\b",
    "converter.length.centimeter": r"\bcm\b|centimet",
    "converter.length.kilometer": r"\bkm\b|kilomet",
    "converter.length.mile": r"\bmiles?\b",
    "converter.length.foot": r"\bfeet\b|\bfoot\b",
    "converter.area.tsubo": r"\btsubo\b|\bpyeong\b",
    "converter.area.square-meter": r"\bsquare met|\bm²|\bsqm\b",
    "converter.area.square-foot": r"\bsquare f(?:ee|oo)t|\bsq ?ft\b",
    "converter.cooking.cup": r"\bcups?\b",
    "converter.cooking.tablespoon": r"\btablespoons?\b|\btbsp\b",
    "converter.cooking.gram": r"\bgrams?\b",
    "measure.steps_in_km": r"\bkm\b|\bkilomet",
    "weight.beside_pressure": r"\bweigh",
    "weight.beside_fat": r"\bweigh",
    "run.timed": r"\bhow long\b|\btime\b",
    "run.distance": r"\bdistance\b|\bhow far\b",
    "items.watered": r"\bwater(?:ing|ed|s)?\b",
    "items.lent": r"\blent\b",
    "habit": r"\bhabit|\bstreak|\bdaily\b|\bevery day",
    "habit.named": r"\bhabits?\b",
    # ── people and lists in an idea (reading/slots.py) ──
    "relation": r"\bsister|\bbrother|\bwife|\bhusband|\bfriend|\broommate|\bflatmate|\bhousemate|\bpartner|\bson|"
    r"\bdaughter|\bkid",
    "kin": "",
    "kin.title": "",
    "name.marker": "",
    "name.acts": r"owes|does|did|takes|has|pays|paid|cooks|cleans|washes",
    "name.not_before_honorific": "",
    "name.not_a_name": "",
    "list.lead_word": r"for|with|of|on|in|the|my|our|a|an|add|also|split|splitting|share|sharing",
    "list.lead_particle": "",
    "list.tail": r"notes?",
    "list.item_end": "",
    "list.item_start": "",
    "list.not_item": r"\b(?:me|score|scores|rating|stars?)\b|\bpesos?\b|^(?:i|when|where|what|how|why|who)$",
    "list.of": r"\b(?:list|collection|catalogue) of (?:my |the |all )?(\w+)",
    # ── asking to change an app (reading/change_rules.py) ──
    "change.remove": r"\b(?:remove|delete|drop|no more|take (?:\w+ )?off|stop (?:tracking|logging|recording)|no longer|"
    r"don'?t (?:need|track|want)|get rid of|moved out|has left|hide)\b",
    "change.add": r"\b(?:add|put|include|joined|moved in|also)\b",
    # One thing, one or two words, after its verb and its list's name ("add a category for coffee").
    "change.thing": r"\b(?:add|include|put|remove|delete|drop|no more)\s+(?:in |on )?"
    r"(?:(?:an?|the|my|our|new|another|one more)\s+)*"
    r"(?:(?:categor(?:y|ies)|habits?|chores?|rows?|meals?)\s+(?:for |called |named |of )?)?"
    r"([a-z][a-z'-]*(?: [a-z'-]+)??)"
    r"(?=\s+(?:to|in|on|from|as|too|also|instead|please|pls|category|habit|chore|row)\b|\s*[.,!]|\s*$)",
    "change.instead": r"(?:\b(?:do|use|track|have|add|put)\s+)?\b([a-z][a-z'-]*(?: [a-z'-]+)??)\s+instead\b|"
    r"\breplace\s+[a-z' -]+?\s+with\s+([a-z][a-z'-]*(?: [a-z'-]+)??)\s*(?:[.,!]|$)|"
    r"\bswap\s+[a-z' -]+?\s+for\s+([a-z][a-z'-]*(?: [a-z'-]+)??)\s*(?:[.,!]|$)",
    "list.kept": r"categor(?:y|ies)|habits?|rows?|meals?|items?|fields?|things?",
    "change.rename": r"\brename|\bcall (?:it|the app|this app|this)\b|\bretitle",
    "change.set": r"\b(?:set|make|change|switch|use|turn|show|update|move|increase|raise|lower|reduce|bump|convert|"
    r"log|track|record|count)\b",
    "change.imperial": r"\bimperial\b",
    "change.metric": r"\bmetric\b",
    "change.only": r"\bonly\b",
    "app_language.ja": r"\bjapanese\b",
    "app_language.ko": r"\bkorean\b",
    "app_language.zh": r"\bchinese\b",
    "app_language.tl": r"\btagalog\b|\bfilipino\b",
    "app_language.en": r"\benglish\b",
    "beyond.dark_mode": r"\bdark (?:mode|theme)",
    "beyond.sync": r"\bsync|\bsmart ?watch|\bfitbit|\bhealth ?kit",
    "beyond.reminders": r"\bremind|\bnotif|\balarm",
    "beyond.charts": r"\b(?:an?|some|with|add|show|see|draw)\s+(?:\w+\s+)?charts?\b|\bgraphs?\b",
    "beyond.export": r"\bexport|\bcsv\b|\bpdf\b",
    "beyond.login": r"\blog ?in\b|\bpassword|\baccount",
    "beyond.photos": r"\bphotos?\b|\bpictures?\b|\bimages?\b|\bpics?\b",
    # ── a change's people, new name and fields (reading/change_rules.py) ──
    "change.not_names": r"Add Remove Put Take Please Make Use Change Rename Set Call Track Also Drop Delete The My "
    r"Our Can Could Switch Show Log Record Keep Let Remind Sync Hide Stop No Don Get Include Count Every Each Only "
    r"Just It This That",
    "person.changed": "",
    "person.changed_ba": "",
    "honorific": "",
    "rename.to": r"(?:\bto|\bas|\binto)\s+(.+?)$",
    "attribute.add": r"(?:\badd|\binclude|\balso (?:record|keep|note|track|save)|\brecord|\bkeep)\s+(?:a |an |"
    r"the )?(?:field |column )?(?:for |of )?(?:the |its )?([a-z][a-z ]{1,20}?)(?:\s+(?:field|column|too|as well|"
    r"for each \w+|of each \w+|to each \w+)\b|[.,!]|$)",
    "attribute.remove": r"(?:\bremove|\bdrop|\bdelete|\bdon'?t need)\s+(?:the )?([a-z][a-z ]{1,20}?)(?:\s+(?:field|"
    r"column))?(?:[.,!]|$)",
    "attribute.too": r"too|also|as well",
    # ── a request and an app's title (reading/fit.py) ──
    "request.greeting": r"please|hey|hi|ok(?:ay)?|so",
    "request.lead": r"(?:can|could|would|will) you (?:please )?(?:make|build|create|set up|whip up|"
    r"write(?! down))(?: me| us)?\s+|"
    r"(?:please )?(?:make|build|create|write(?! down))(?: me| us)?\s+|"
    r"i(?:'d| would)? (?:want|need|like)(?: to have)?\s+",
    "request.article": r"a|an|the|some|simple|little|small|tiny|my own",
    "request.app_word": r"app|application|tool|web ?app",
    "request.app_join": r"(?:to|that|which|for)",
    "request.trail": r"(?:\s+(?:app|application|tool)|\s*(?:please|for me|po))+$",
    "title.dangling": r"a an the and or of to for with my our in on at did do is are was that which who how what "
    r"this these those i",
    "title.join": r"with for in on at of to from by every each between so because",
    "title.chore_lead": r"^(?:(?:help me|let me|i want to|i need to|i'd like to|want to)\s+)?(?:log|track|record|"
    r"count(?! ?down)|note(?: down)?|write down|jot down|keep (?:a )?(?:track|log|record|tally) of|keep track|"
    r"monitor|remember|know|list|manage|organi[sz]e|follow)\s+(?:(?:of|my|our|all|the)\s+)*",
    "title.interjection": r"ugh|um+|uh+|hmm+|argh|oh|well|honestly|lol|okay|ok|so",
    "title.chore_trail": "",
    "title.chatty_lead": r"^(?:(?:omg|lol|pls|plz|just|literally|basically|really)\b[,!.\s]*)+|"
    r"^(?:i )?(?:always |keep |often |sometimes )?(?:forget|forgetting|keep forgetting)(?: to| about)?\s+|"
    r"^(?:i )?(?:want|need|would like|wanna|gonna)(?: to have)?\s+(?:(?:a|an|some)\s+)?|"
    r"^(?:(?:see|know|check|track) )?who'?s(?:e)? turn (?:it is |is it )?(?:to (?:do )?(?:the )?)?|"
    r"^(?:something|anything|a thing|a way|a place)\s+(?:to|for|that|where|i can)\s+|"
    r"^(?:\w+\s+)?(?:app|application|tool)s?\s+(?:to|that|which|for|where|so)\s+(?:i can\s+)?|"
    r"^(?:which|my|our)\s+",
    "title.chatty_trail": r"\s*,\s*(?:(?:and )?(?:help me|remind me)|can you|could you|please|so (?:that )?i can)\b.*$|"
    r"[,.\s]*(?:nothing fancy|if possible|if you can|thanks?(?: you)?|pls|plz|please|lol|haha|asap)\W*$|"
    r"\s+(?:app|application)$",
    "title.named_after": "",
    "title.doing": "",
    "title.minutes": r"min(?:ute)?s?(?![a-z])",
    "setting.not": r"\bout of \d+|\d+\s*stars?|\d+(?:st|nd|rd|th)\b|\d+\s?h(?:ours?)?\s+after|\bevery \d+",
    "beside": r",?\s*\b(?:and|at|plus|&|also)\b|\+",
    "another": r"\bplus|\balso|\bas well as",
    "another.article": r"my|the",
    # ── memory's grammar words (when.py, chatter.py, units.py, secrets/) ──
    "date.on": r"on\s+",
    "date.article": r"the\s+",
    "date.ordinal": r"st|nd|rd|th",
    "date.ordinal_before": "",
    "date.of": r"of\s+",
    "date.in": r"in\s+",
    "date.year": "",
    "date.month": "",
    "date.day": "",
    "date.days_ago": r"\s+days?\s+ago\b",
    "date.not_a_date": r"of\b|cups?\b|tsp|tbsp|stars?\b|points?\b",
    "chatter.small_talk": r"\b(?:hi|hey|hello|hiya|good\s+(?:morning|afternoon|evening|night)"
    r"|sorry\s+to\s+bother(?:\s+you)?|weather|sunny|rainy|raining|cloudy|snowing|so\s+(?:hot|cold|tired)|lovely\s+day|nice\s+day)\b",
    "chatter.filler": r"(?:um+|uh+|erm|hmm+|oh|ah|well|so|okay|ok|anyway|anyhow|by\s+the\s+way|btw|also|and"
    r"|i\s+was\s+(?:just\s+)?wondering|just\s+wondering|quick\s+question|remind\s+me"
    r"|sorry\s+to\s+bother(?:\s+you)?|excuse\s+me)\b",
    "amount.ten_thousand": "",
    "secret.backup": r"backup|back-up|recovery|rescue|emergency|one-time|single-use|2fa|mfa|two-factor|otp",
    "secret.codes": r"codes?",
    "secret.backup_codes": "",
    "secret.codes_are": r"is|are",
    "secret.second_factor": r"totp|2fa|mfa|two[- ]factor|otp|authenticator|setup key|set-up key|seed|secret",
    "secret.seed_phrase": r"seed|mnemonic|recovery (?:phrase|words)|backup (?:phrase|words)|wallet",
    "secret.value_end": "",
    "secret.copula": "",
    "secret.prose": "|".join(
        """
        a an one some any no on in at to of for by with from under behind inside into onto near next above below
        not never still also too very so just only quite really pretty rather always now again already
        my your his her our their its it this that these those something nothing somewhere anywhere here there
        is was be been are were will would can could should must has have had do does did
        what which who where when how why like same
        written printed stored saved kept taped stuck hidden changed changing reset expired expiring wrong incorrect
        required needed missing forgotten lost long short weak strong simple easy hard secure safe unknown empty
        blank new old different sensitive case-sensitive protected encrypted shown displayed sent attached
        included listed valid invalid ok okay fine great terrible bad good complicated complex difficult obvious
        generated random temporary default name birthday date number
        """.split()
    ),
    "secret.article": r"the",
    "secret.conjunction": r"and|but|or",
    # ── ideas that are advice (reading/advice.py) ──
    "advice.medical": r"\bdos(e|es|age|ing)\b|\bdiagnos|\bsymptom checker\b|\bprescri|\btreatment plan\b",
    "advice.financial": r"\binvest|\bstock picks?\b|\bportfolio\b|\bloans?\b|\bmortgage\b|\bcrypto\b|\btrading\b",
    # ── an app's title shown to the model as an example (maker/model_spec.py) ──
    "title.example": "Blood sugar",
    # ── a change's people: what stands around a name added or taken off (reading/change_rules.py) ──
    # a name is its capital in English and Tagalog: no particles around it
    **{f"person.{w}": "" for w in ("particle", "ba", "changed_until")},
    # ── an app's title: where it is cut, and what a day or an amount leaves behind (reading/fit.py) ──
    # a Latin title is cut at a space, and its amounts follow the thing
    **{f"title.{w}": "" for w in ("break", "each_day", "of")},
    "day.particle": "",
    "day.dangling": "on|by|in|is|are",
    # ── numbers written in letters (reading/slots.py): Han numerals are Chinese's, Japanese writes the same ──
    # English numbers are digits here (its number words are count.*)
    **{f"number.{w}": "" for w in ("digits", "two", "half", "ten", "hundred")},
    **{f"number.{w}": "" for w in ("thousand", "ten_thousand", "after_digits", "counter", "month")},
    "money.ten_million": "",
    "money.k_currency": "dollars?|bucks|euros?",
    # ── people and lists in an idea: the particles around names (reading/slots.py) ──
    # English and Tagalog names are capitals, listed with spaced words (list.and)
    "relation.of": "",
    **{f"name.{w}": "" for w in ("suffix", "and", "list_end", "to", "after")},
    **{f"name.{w}": "" for w in ("prefix", "prefix_not", "shop")},
    **{f"honorific.{w}": "" for w in ("not", "idea")},
    "list.and": "and|or",
    "list.opens": r"with|for|between|among",
    "title.capitalised": r"i",
    "title.can": r"can|could|will|should",
    "determiner": r"my|our|the",
    "list.before": "for|with|of|on",
    # ── the friend's chat: a change asked of an app, or an app opened (friend/changes.py, apps.py) ──
    "app.new": r"\b(?:make|build|create|set up|whip up)\s+(?:me\s+)?(?:a|an|another|one|some|new|something|anything)\b|"
    r"\bi (?:want|need|'d like|would like) (?:a|an|another) (?:new )?(?:app|tool|tracker)\b",
    "app.said": r"\b(?:my|the|our)\s+(?:[\w-]+\s+){0,3}?(?:tracker|app|chart|list|log|planner|journal|diary|counter|"
    r"calendar|countdown|rota|roster)\b|\bapp\b",
    "app.about_me": r"(?:i|we)\s+(?!want\b|need\b|'d\b|would\b)[a-z]+\b|"
    r"(?:should|do|did|does|am|was|how|what|why)\s+i\b",
    "app.plain": "the and for with every each daily weekly monthly my me our track log list app tracker want need like "
    "keep record count down days until i've read ive you day week month",
    "app.open": r"\b(open|launch|pull up|bring up)\b|\b(run|start up)\s+(my|the)\b",
    "app.open_plain": "open launch start run show pull bring the app apps please can you could for with",
    # ── what the friend learns from a turn (friend/extract.py) ──
    "said.stressed": r"\b(really|very important|important|never forget|remember that|don't forget|must|always|"
    r"seriously)\b|!{1,}",
    "said.of_oneself": r"\b(i|i'm|im|my|me|we|our)\b",
    "said.private": (
        r"\bbetween (?:you and me|us|ourselves)\b|\bstays? between\b|\bkeep (?:it|this|that) (?:to yourself|"
        r"between us|private|secret|quiet|on the down ?low)\b|\b(?:don'?t|dont|do not|never|pls don'?t|"
        r"please don'?t) (?:tell|mention|say|repeat)\b|\b(?:promise|swear) (?:you )?(?:won'?t|wont|will not|"
        r"not to) (?:tell|say)\b|\b(?:it'?s|its|it is|this is|thats|that'?s) (?:a )?(?:secret|private|"
        r"confidential)\b|\boff the record\b|\bconfidential\b|\btop secret\b|^\s*(?:private|secret|"
        r"confidential)\s*[:,\-]|\bsecret (?:lang|ha|ok)\b|\b(?:no ?one|nobody) (?:can|should|must) know\b|"
        r"\bdon'?t let anyone know\b"
    ),
    "said.health": (
        r"\b\d+(?:[.,]\d+)?\s?(?:mg|mcg|µg|ml|iu)\b|\bdiagnos\w*|\bprescri\w*|\b(?:doctor|dr|psychiatrist|"
        r"therapist|oncologist|cardiologist|dermatologist)\b|\b(?:diabetes|diabetic|cancer|tumou?r|depression|"
        r"depressed|anxiety|adhd|bipolar|hiv|std|asthma|hypertension|high blood|blood pressure|blood sugar|"
        r"cholesterol|thyroid|epilepsy|ptsd|ocd|insomnia|migraine|arthritis|biopsy|chemo\w*|surgery|"
        r"pregnan\w*|miscarriage|rehab|therapy|antidepressants?|medication|meds|pills?|inhaler)\b|"
        r"\b(?:sertraline|zoloft|prozac|fluoxetine|lexapro|escitalopram|metformin|insulin|losartan|amlodipine|"
        r"lisinopril|atorvastatin|statins?|adderall|ritalin|xanax|levothyroxine|omeprazole)\b"
    ),
    "said.money": (
        r"\b(?:salary|salaries|paycheck|pay ?check|wages?|income|mortgage|loans?|debts?|owe|owes|owed|owing|"
        r"credit cards?|overdraft|bankrupt\w*|net worth|401k|pension|tax return|take[- ]home|bonus)\b|"
        r"\bi (?:make|earn|get paid|got paid|am paid)\s+"
        r"(?:(?:about|around|like|only|just|over|under|almost|nearly)\s+)?"
        r"(?:[$€£¥₱]|\d|(?:money|good money|a living|minimum wage|six figures|peanuts)\b)|"
        r"\bi (?:earn|get paid|got paid|am paid)\b|\bpaid \S+ (?:every|a|per|each)\b|"
        r"[$€£¥₱]\s?\d[\d,.]{2,}|\b\d[\d,.]*\s?k?\s+(?:a|per|every|each)\s+(?:year|month|week|two weeks|"
        r"paycheck|pay period)\b"
    ),
    "said.relationship": (
        r"\b(?:split(?:ting)? up|break(?:ing)? up|broke up|breakup|divorc\w*|separat(?:ed|ing)|cheat(?:ed|"
        r"ing) on|(?:having|had) an affair|fighting all the time|always fighting|keep fighting|(?:couples?|"
        r"marriage) (?:counsel\w*|therapy)|marriage is (?:falling apart|over|in trouble))\b"
    ),
    "said.request": (
        r"^\s*(?:pls |please |can you |could you )?(?:make(?! sure)|change|add|set|put|rename|build|remove|"
        r"delete|switch|turn|show|use|take)\b"
    ),
    "said.small_talk": (
        r"(?:hi|hello|hey|yo|thanks|thank you|thx|ty|ok|okay|k|cool|nice|great|lol|haha+|hmm+|yes|no|yep|nope|"
        r"sure|bye|good night|gn|got it|sounds good|never mind|nvm)(?:\s+(?:so much|a lot|then|again|there))?"
    ),
    # ── a yes or a no, as a whole answer (friend/repl.py) ──
    "answer.yes": "y|yes|yeah|yep|sure|ok|okay|please|go|go ahead",
    "answer.no": "n|no|nope|not now",
    # ── what a fact is about, and its change (memory/updates.py) ──
    "slot.home": (
        r"\blive[sd]?\b|\bliving\b(?! room)|\bmov(?:e|ed|ing) (?:to|in|out|house|away|back)\b"
        r"|\brelocat\w*|\bapartment\b|\bneighbou?rhood\b"
    ),
    "slot.work": (
        r"\bwork(?:s|ing)? (?:at|as|for|in|from)\b|\bjob\b|\bhired\b|\bcompany\b|\bemployer\b|\bmanager\b"
        r"|\bboss\b|\boffice\b|\bresign\w*|\bcareer\b|\bwork(?:s|ing)?(?=\s*\??\s*$)"
        r"|\b(?:barista|nurse|teacher|engineer|developer|designer|cashier|accountant|intern|chef|waiter|waitress)\b"
    ),
    "slot.number": "\\bnumber\\b|\\bcell\\b",
    "slot.phone": "\\bphone\\b|\\biphone\\b|\\bpixel\\b|\\bgalaxy\\b|\\bsmartphone\\b",
    "slot.email": "\\be-?mail\\b",
    "slot.partner": (
        r"\bdating\b|\bboyfriend\b|\bgirlfriend\b|\bgf\b|\bbf\b|\bseeing (?:a|someone|him|her|[A-Z])"
        r"|\bbroke up\b|\bsplit up\b|\bpartner\b"
    ),
    "slot.pet": "\\bcat\\b|\\bdog\\b|\\bkitten\\b|\\bpuppy\\b",
    "slot.car": r"\bcar\b|\bdriv(?:e|es|ing) (?:a|an|the|my|our)\b",
    "slot.school": "\\bschools?\\b|\\belementary\\b|\\bprimary\\b|\\bacademy\\b|\\bkindergarten\\b",
    "slot.study": "\\bstud(?:y|ying|ies)\\b|\\bmajor\\b|\\blearning\\b|\\buni\\b|\\bcollege\\b",
    "slot.gym": "\\bgym\\b|\\bmembership\\b|\\bfitness\\b",
    "slot.plan": r"\bplan(?:s|ning)?\b|\btrip\b|\bvacation\b|\bholiday\b|\bbooked\b|\bflights?\b|\bcancell?ed\b",
    "slot.bank": r"\bbank(?:s|ing|ed)?\b|\bcredit union\b",
    "slot.address": r"\baddress\b|\bpost ?code\b|\bzip code\b",
    "slot.rent": r"\brent\b|\blandlord\b|\blease\b|\bmortgage\b",
    "slot.diet": r"\bvegan\b|\bvegetarian\b|\bketo\b|\bplant-based\b|\bdiet\b|\beat(?:s|ing)? meat\b|\bcarbs\b",
    "slot.computer": r"\blaptop\b|\bcomputer\b|\bpc\b|\bmacbook\b|\bthinkpad\b|\bchromebook\b|\bimac\b",
    "slot.wake": r"\bwak(?:e|es|ing) up\b|\bwoke up\b|\bget(?:s|ting)? up\b|\bgot up\b|\balarm\b",
    "update.change": (
        r"\bnow\b|\bnew\b|\bmoved\b|\brelocat\w*|\bswitched\b|\bchanged?\b|\bno longer\b"
        r"|\banymore\b|\bquit\b|\bstopped\b|\bleft\b|\bbroke up\b|\bsold\b|\binstead\b"
        r"|\bcancell?ed\b|\bwent (?:up|down)\b|\bresigned\b|\btransferred\b|\bjoined\b"
        r"|\bdyed\b|\badopted\b|\bpassed away\b|\bnot \w+ing\b|\bsplit up\b|\bgave up\b|\bwent back to\b"
        r"|\bstart(?:ed|ing) (?:at|as)\b|\bhired\b"
    ),
    "update.changed": (
        r"\bchanged\b|\bswitched\b|\bwent (?:up|down)\b|\bupdated\b|\bmoved (?:all )?(?:my|the"
        r"|our) \w+ (?:from|to)\b|\bnew \w+ (?:is|btw)\b|\binstead of\b"
    ),
    "update.stop": (
        r"\bno longer\b|\banymore\b|\bany more\b|\b(?:I|I've|we|we've) (?:quit|stopped|gave up)\b"
        r"|\bquit (?:my|the|smoking|drinking)\b|\bnot \w+ing\b|\bsold\b|\bgave up\b"
        r"|^\s*(?:quit|stopped|gave up)\b|\bclosed (?:my|the|our)\b|\bdied\b"
    ),
    "update.part": r"\b(?:changed|switched|updated) (?:their|its)\b",
    "update.verb": (
        r"(?:n't|n’t|\bnot|\bno longer|\bnever) (drink|eat|smoke|play|take|use|have|go|watch|read|drive"
        r"|ride|cook|buy|wear|listen|run|drinking|eating|smoking|playing|taking|using|having|going"
        r"|watching|reading|driving|riding|cooking|buying|wearing|listening|running)\b"
    ),
    "update.history": (
        r"\bwhen (?:did|was|were|had)\b|\bused to\b|\bbefore\b|\boriginally\b|\bat first\b"
        r"|\bhow long\b|\bfirst time\b|\bhistory\b|\bpreviously\b|\bformer\b"
    ),
    "update.others": (
        r"\bsister\b|\bsis\b|\bbrother\b|\bbro\b|\bwife\b|\bhusband\b|\bfriend\b|\bmom\b|\bmum\b|\bdad\b"
        r"|\bmother\b|\bfather\b|\bdaughter\b|\bson\b|\bgrandma\b|\bgrandpa\b"
        r"|\bneighbou?r\b|\bcousin\b|\baunt\b|\buncle\b|\bco-?workers?\b|\bcolleagues?\b"
    ),
    # what a request says that names nothing a page shows (maker/page_judge.py)
    "judge.filler": (
        "count|goal|goals|target|limit|app|apps|application|tool|"
        "tracker|track|tracking|log|logger|logging|keep|keeping|record|records|recording|note|notes|make|"
        "build|create|want|wanna|need|help|simple|little|small|tiny|something|thing|things|please|can|"
        "could|would|let|lets|just|also|each|every|and|with|that|which|when|how|much|many|what|for|from|"
        "into|about|over|like|using|use|see|show|know|remember|hey|thanks|thank|some|own|nothing|fancy|"
        "lol|kinda|sort|really|maybe|way|stuff|day|days|daily|week|weeks|weekly|month|months|monthly|"
        "intake|drink|drank|did|done|doing|get|got|put|add|write|down|there|here|then|than|them|these|"
        "those|both|all|any|one|ones|per|around|since|after|before|where|who|whom|whose|why|yes|okay|ok|"
        "am|ever|still|able|cool|nice|great|good|kind|too|very|lot|lots|bit|quick|quickly|easy|easily|few|"
        "words|check|checks|checked|checking|tick|list|lists"
    ),
    "judge.this.daily": "\\btoday\\b|\\ba day\\b|\\bper day\\b|/\\s?day\\b",
    "judge.this.weekly": "\\bweek of\\b|\\bthis week\\b|\\ba week\\b|\\bper week\\b|/\\s?week\\b",
    "judge.this.monthly": "\\bthis month\\b|\\ba month\\b|\\bper month\\b|/\\s?month\\b",
    "judge.kind.budget": r"\bbudget(?:s|ing)?\b|\bspending\b|\bexpenses?\b|\bcategor(?:y|ies)\b|\bfinances?\b",
    "judge.kind.collection": r"\bcollection\b|\bcatalog(?:ue)?\b|\blibrary\b",
    "judge.kind.converter": r"\bconver(?:t|ts|ter|ting|sion)\b|\bcalculator\b",
    "judge.kind.countdown": r"\bcount ?-?down\b|\bd-?day\b|\bdays? (?:left|until|till|to go)\b|\bhow many days\b",
    "judge.kind.deck": (
        r"\bflash ?-?cards?\b|\bvocab(?:ulary)?\b|\bquiz(?:zes)?\b|\bdecks?\b|\bmemori[sz]e\b|\bstudy cards?\b"
        r"|\bfront\b|\bback\b"
    ),
    "judge.kind.diary": r"\bdiary\b|\bjournal(?:ing)?\b|\bmoods?\b|\bfeelings?\b|\bemotions?\b",
    "judge.kind.habit-tracker": r"\bhabits?\b|\bstreaks?\b",
    "judge.kind.meal-plan": r"\bmeal ?-?plan(?:s|ner|ning)?\b|\bmeal prep\b|\bmenus?\b",
    "judge.kind.planner": r"\bto ?-?dos?(?: list)?\b|\bplanner\b|\bchecklist\b|\btasks?\b|\bchores?\b",
    "judge.kind.timer": r"\bpomodoros?\b|\btimer\b|\bwork\b|\bstudy\b|\bfocus\b|\bbreaks?\b|\brest\b",
    "judge.noun_after": "",
    "judge.filler_glued": "",
}

# What the friend says on its own, by key (lang.SAYINGS; friend/phrases.py).
LINES: dict[str, str] = {
    "called": " {name}",
    "register": "Answer in the language the person writes in.",
    "hello": "Hi{name}! Good to see you.",
    "last_time": "Last time: {text} How has it been since?",
    "interest": "I remember: {text}. Anything new there?",
    "soon": "Coming up {when}: {text}",
    "talked_about": "Talked about: ",
    "change.ask": "Change {title} ({app}): {what}? (y/n)",
    "change.declined": "Nothing changed.",
    "change.changing": "Changing {app}…",
    "change.done": "Changed {title}: {done} (tests {tests}; {checkpoints}; undo: {undo}).",
    "make.offer": "Shall I make that for you? “{idea}” (y/n)",
    "make.offer_new": "You have no app for that yet. Shall I make one? “{idea}” (y/n)",
    "make.handing": "Handing “{idea}” to the coder…",
    "make.interrupted": "(stopped the build; `macaron make --resume` can pick it up)",
    "make.failed": "The build did not work out: {error}",
    "make.made": "Made {app} in {path}. Open it with `macaron run {app}`.",
    "make.short": "It does not do all you asked yet: {missing}.",
    "make.stopped": "The build of {app} stopped ({status}): {message}",
    "change.stopped": "The change of {app} stopped ({status}): {message}",
    "change.already": "{title} already does that: {message}.",
    "change.interrupted": "(stopped the change; `macaron checkpoints {app}` shows where {app} stands)",
    "change.failed": "The change did not work out: {error}",
    "tests.passed": "passed",
    "tests.failed": "failed",
    "tests.reused": "{tests} (not run again: nothing they read changed)",
    "phase.change": "change",
    "phase.verify": "verify",
    "phase.brief": "brief",
    "phase.spec": "spec",
    "phase.resume": "resume",
    "verify.running": "tests, then open it in a headless browser",
    "verify.passed": "passed",
    "verify.problems": "{n} problem(s)",
    "verify.reused": " (tests: nothing they read changed, their last pass stands)",
    "understood.measure": "{name} in {unit}",
    "understood.goal": "{what}, goal {goal}",
    "understood.daily": "{goal} a day",
    "understood.money": "money in {currency}",
    "understood.budget": "a budget of {amount} a month",
    "understood.target": "saving toward {amount}",
    "understood.people": "people: {names}",
    "understood.items": "a collection of {name}s",
    "understood.countdown": "counting down to {event} on {date}",
    "understood.timer": "{work} minutes of work, {rest} of break",
    "understood.app": "{title}, from the {template} template",
    "understood.and": "; ",
    "understood.ask": "{what}. Go ahead, or tell me what to change.",
    "understood.answer": "yes / no / what to change",
    "make.declined": "Nothing was made.",
    "cannot.not_tracked": "{what}: this app does not track it",
    "cannot.remove_all": "removing every measure (the app would keep nothing)",
    "cannot.no_measures": "numbers over time ({what}): this app keeps none",
    "cannot.new_name": "a new name: say it in quotes, e.g. rename it to “Morning water”",
    "cannot.which_goal": "which measure the goal is for: name it (e.g. “water goal 3 liters”)",
    "cannot.goal_unit": "a goal in {unit} for {name} (kept in {kept})",
    "cannot.which_times": "which measure the times of day are for: name it",
    "cannot.which_event": "what the date you add is for: name it (e.g. “add exam June 3”)",
    "cannot.not_people": "{names}: not among the people in this app",
    "cannot.period_goal": "a {period} goal (this app's goals are per day)",
    "cannot.not_shown": "{what} (the {template} template does not show it)",
    "cannot.dark_mode": "a dark mode",
    "cannot.sync": "syncing with a device or service",
    "cannot.reminders": "reminders and notifications",
    "cannot.charts": "charts and graphs",
    "cannot.export": "exporting or sharing records",
    "cannot.login": "logging in and accounts",
    "cannot.photos": "photos or pictures",
    "already.things": "{what} already in this app",
    "already.people": "{names} already in this app",
    "already.goal": "the {measure} goal is already {amount}",
    "already.units.metric": "the units are already metric",
    "already.units.imperial": "the units are already imperial",
    "already.currency": "amounts are already in {currency}",
    "already.records": "each {items} already records {field}",
    "already.language.en": "it is already shown in en",
    "already.language.ja": "it is already shown in ja",
    "already.language.ko": "it is already shown in ko",
    "already.language.zh": "it is already shown in zh",
    "already.language.tl": "it is already shown in tl",
    "already.timer": "the timer is already {work} minutes of work, then {rest} of break",
    "already.deposit": "{amount} {currency} a month is already put by",
    "already.unit": "{measure} is already in {unit}",
    "refuse.unread": "“{request}” is not a change the rules know",
    "refuse.cannot": "the rules cannot do {what}",
    "refuse.change": "Nothing changed in {title}: {why}; a model can, once you connect one: {hint}",
    "refuse.partly": "Not done in {title}: {why}; a model can, once you connect one: {hint}",
    "refuse.correction": "I could not read that as a change: {why}.",
    "notebook.private": "Noted, and kept private: no cloud model will hear it (/share ID opens it; /memory shows ids).",
    "notebook.noted": "Noted.",
    "notebook.remember": "What I remember that may help:",
    "notebook.nothing": "Nothing I remember matches that yet.",
    "advice.note": "Not professional advice: check with a qualified professional before you act on it.",
    "page.missing": "The page does not show: {missing}.",
    "page.list_join": ", ",
    "page.unchanged": (
        "Undone: the page shows nothing different after it, so it was not a change; your data is as it was."
    ),
    "page.unread": "The page could not be read, so what it shows was not checked.",
}
