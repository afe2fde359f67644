"""Lines a person types into `macaron chat` with no model connected (notebook mode), in
en, ja, ko, zh and tl, written as people type (lower case, run-on, typos, mixed scripts)
before the notebook's rules were written (issue 53). bench/notebook_privacy.py feeds them
through the real notebook path and prints its figures.

Every third line of each group (HELD_OUT) was never looked at while tuning the rules: its
figures are printed apart, as the honest estimate.

  PRIVATE_SAID  a line that says, in words, that it is private (anywhere in the line)
  SENSITIVE     health, money, a relationship in crisis: private by default
  FACTS         a plain statement about the person's life, with a question that should find it
  REQUESTS      asking to make an app, or to change one: never a fact about the person
"""

from __future__ import annotations

# (line, language)
PRIVATE_SAID: list[tuple[str, str]] = [
    ("this stays between us but i'm thinking of quitting my job in march", "en"),
    ("dont tell anyone ok, my sister is pregnant again", "en"),
    ("i applied to culinary school, keep it to yourself pls", "en"),
    ("between you and me i still havent paid back marco", "en"),
    ("promise you wont tell, i'm interviewing at another company on friday", "en"),
    ("its a secret but im planning a surprise party for lena on the 14th", "en"),
    ("private: my brother got fired last week", "en"),
    ("ここだけの話、来月会社辞めるつもり", "ja"),
    ("内緒だけど、彼氏と別れようか迷ってる", "ja"),
    ("実は転職活動してるんだ、誰にも言わないでね", "ja"),
    ("秘密なんだけど妹が結婚するらしい", "ja"),
    ("ゆうたには内緒で誕生日プレゼント買った", "ja"),
    ("これオフレコでお願い、部長の異動が決まった", "ja"),
    ("誰にも言わないでほしいんだけど 母が入院してる", "ja"),
    ("비밀인데 나 다음달에 이직해", "ko"),
    ("아무한테도 말하지 마, 민수랑 헤어졌어", "ko"),
    ("우리끼리 얘기인데 팀장님 곧 그만둔대", "ko"),
    ("이건 비밀이야 언니 임신했어", "ko"),
    ("너만 알고 있어 나 대학원 지원했어", "ko"),
    ("엄마한테는 말하지 마 나 차 샀어", "ko"),
    ("别告诉别人，我在准备辞职", "zh"),
    ("这个是私密的 我和女朋友在考虑分手", "zh"),
    ("我跟你说个秘密，我弟弟要结婚了", "zh"),
    ("你别跟别人说啊 我偷偷在学日语准备去日本工作", "zh"),
    ("只有你知道就好，我爸下个月退休", "zh"),
    ("保密哦 我在给小美准备生日惊喜", "zh"),
    ("sikreto lang natin to ha, lilipat na ako ng trabaho", "tl"),
    ("huwag mong sabihin kay mama pero nag resign na ako", "tl"),
    ("atin atin lang to, buntis si ate", "tl"),
    ("wag mo ipagsabi, may utang ako kay tito ben", "tl"),
    ("secret lang, nag-apply ako sa canada", "tl"),
    ("sa atin lang 'to, hiwalay na kami ni paolo", "tl"),
    ("just between us, jake and i are seeing a couples counselor", "en"),
]

SENSITIVE: list[tuple[str, str]] = [
    ("started sertraline 50mg every morning last week", "en"),
    ("the doctor said i have type 2 diabetes", "en"),
    ("i take metformin 500 mg twice a day for my blood sugar", "en"),
    ("my salary is 85k a year", "en"),
    ("mortgage payment is $1,840 a month, ouch", "en"),
    ("i owe about 12000 on my credit cards", "en"),
    ("i get paid 2,300 every two weeks", "en"),
    ("me and dana are fighting all the time, i think we might split up", "en"),
    ("got diagnosed with adhd at 34 lol", "en"),
    ("毎晩ロキソニン飲んでる、腰痛がひどくて", "ja"),
    ("うつ病って診断された", "ja"),
    ("月給は手取り28万くらい", "ja"),
    ("住宅ローンが毎月9万円", "ja"),
    ("奨学金の返済がまだ300万残ってる", "ja"),
    ("夫とうまくいってなくて離婚も考えてる", "ja"),
    ("고혈압 약 아침마다 먹고 있어 암로디핀 5mg", "ko"),
    ("공황장애 진단 받았어", "ko"),
    ("연봉 4200이야", "ko"),
    ("대출 이자가 한 달에 80만원 나가", "ko"),
    ("카드빚이 500만원 있어", "ko"),
    ("남편이랑 계속 싸워서 이혼 생각 중이야", "ko"),
    ("医生说我有甲状腺结节", "zh"),
    ("我每天吃两次二甲双胍控制血糖", "zh"),
    ("我月薪一万五", "zh"),
    ("房贷每个月还六千", "zh"),
    ("欠了信用卡三万块", "zh"),
    ("跟老公冷战一个月了 可能要离婚", "zh"),
    ("umiinom ako ng losartan 50mg araw araw para sa high blood", "tl"),
    ("na-diagnose ako ng anxiety noong isang taon", "tl"),
    ("sweldo ko 25k kada kinsenas", "tl"),
    ("may utang ako sa bangko na 200k", "tl"),
    ("lagi kaming nag-aaway ng asawa ko, baka maghiwalay na kami", "tl"),
    ("hulog sa bahay 15k a month", "tl"),
]

# (line, a question in the same language that should find it, language)
FACTS: list[tuple[str, str, str]] = [
    ("my sister mia lives in lisbon now", "where does mia live?", "en"),
    ("dani loves rock climbing", "what does dani like?", "en"),
    ("we're going to kyoto in april for cherry blossoms", "when is the kyoto trip?", "en"),
    ("tom and lily are getting married next june", "when are tom and lily getting married?", "en"),
    ("i play badminton every thursday night", "what sport do i play on thursdays?", "en"),
    ("my dog is called biscuit, hes a corgi", "what's my dog's name?", "en"),
    ("grandma's birthday is on oct 3", "when is grandma's birthday?", "en"),
    ("ben works as a nurse at st marys", "what does ben do for work?", "en"),
    ("i hate cilantro, tastes like soap", "what food do i hate?", "en"),
    ("田中さんはラーメンが大好き", "田中さんの好きな食べ物は？", "ja"),
    ("兄は札幌に住んでる", "兄はどこに住んでる？", "ja"),
    ("来年の3月に沖縄旅行に行く予定", "沖縄旅行はいつ？", "ja"),
    ("ゆみは来月結婚する", "ゆみはいつ結婚する？", "ja"),
    ("毎朝ジョギングしてる", "朝は何してる？", "ja"),
    ("猫の名前はモチ", "猫の名前は？", "ja"),
    ("父の誕生日は5月12日", "父の誕生日はいつ？", "ja"),
    ("さくらちゃんはピアノの先生やってる", "さくらちゃんの仕事は？", "ja"),
    ("最近ボルダリングにハマってる", "最近ハマってることは？", "ja"),
    ("지수는 부산에 살아", "지수 어디 살아?", "ko"),
    ("민호는 축구를 엄청 좋아해", "민호가 좋아하는 거 뭐야?", "ko"),
    ("다음주 토요일에 제주도 여행 가", "제주도 여행 언제 가?", "ko"),
    ("동생이 10월에 결혼해", "동생 결혼 언제야?", "ko"),
    ("나 요즘 기타 배우고 있어", "요즘 뭐 배우고 있어?", "ko"),
    ("우리 강아지 이름은 콩이야", "강아지 이름이 뭐야?", "ko"),
    ("엄마 생일은 8월 20일이야", "엄마 생일 언제야?", "ko"),
    ("서연이는 간호사로 일해", "서연이 직업이 뭐야?", "ko"),
    ("나는 매운 음식 못 먹어", "내가 못 먹는 음식은?", "ko"),
    ("我姐姐住在上海", "我姐姐住在哪里？", "zh"),
    ("小王特别喜欢打篮球", "小王喜欢什么运动？", "zh"),
    ("我们五月去成都旅游", "我们什么时候去成都？", "zh"),
    ("李明下个月结婚", "李明什么时候结婚？", "zh"),
    ("我每周三晚上去游泳", "我周三晚上做什么？", "zh"),
    ("我家的猫叫咪咪", "我的猫叫什么？", "zh"),
    ("奶奶的生日是九月九号", "奶奶生日是哪天？", "zh"),
    ("阿杰在银行上班", "阿杰在哪里上班？", "zh"),
    ("我不吃香菜", "我不吃什么？", "zh"),
    ("si ate joy nakatira sa cebu", "saan nakatira si ate joy?", "tl"),
    ("mahilig si carlo sa basketball", "ano ang hilig ni carlo?", "tl"),
    ("pupunta kami sa boracay sa may", "kailan kami pupunta sa boracay?", "tl"),
    ("ikakasal si ana sa disyembre", "kailan ikakasal si ana?", "tl"),
    ("nag gigym ako tuwing umaga", "ano ginagawa ko tuwing umaga?", "tl"),
    ("ang pangalan ng aso ko ay bantay", "ano pangalan ng aso ko?", "tl"),
    ("birthday ni lola sa june 5", "kailan birthday ni lola?", "tl"),
    ("nurse si kuya sa dubai", "ano trabaho ni kuya?", "tl"),
    ("ayoko ng ampalaya", "anong gulay ayaw ko?", "tl"),
]

REQUESTS: list[tuple[str, str]] = [
    ("make my recipes app dark", "en"),
    ("can you make me an app to track my runs", "en"),
    ("add a notes field to my books list", "en"),
    ("change the water goal to 3 liters", "en"),
    ("build me a chore chart for me and tom", "en"),
    ("make the font bigger in my budget app", "en"),
    ("レシピアプリをダークモードにして", "ja"),
    ("家計簿アプリ作って", "ja"),
    ("水分記録の目標を2リットルに変えて", "ja"),
    ("読書リストに著者の欄を追加して", "ja"),
    ("가계부 앱 만들어 줘", "ko"),
    ("물 마시기 앱 목표를 2리터로 바꿔 줘", "ko"),
    ("운동 기록 앱에 메모 칸 추가해 줘", "ko"),
    ("내 레시피 앱 다크 모드로 해 줘", "ko"),
    ("帮我做一个记账的app", "zh"),
    ("把我的喝水app目标改成两升", "zh"),
    ("给我的读书清单加一个评分", "zh"),
    ("我的菜谱app改成深色模式", "zh"),
    ("gawan mo ako ng app para sa gastos ko", "tl"),
    ("palitan mo yung goal ng water app ko sa 3 liters", "tl"),
    ("lagyan mo ng notes yung recipe app ko", "tl"),
    ("gawin mong dark mode yung budget app ko", "tl"),
]


def held_out(index: int) -> bool:
    """Every third line of a group (the third, sixth, …): never tuned on."""
    return index % 3 == 2


# Written after the rules, and never tuned on: the honest estimate of lines nobody has seen
# (the held-out third above was read while the rules were first written).
FRESH_PRIVATE_SAID: list[tuple[str, str]] = [
    ("ok this is just between the two of us, i'm pregnant", "en"),
    ("pls keep this quiet but my dad lost his job", "en"),
    ("絶対誰にも言わないで、来年留学する", "ja"),
    ("ここだけの話だけど課長が辞めるって", "ja"),
    ("이거 비밀로 해줘 나 회사 그만둘 거야", "ko"),
    ("아무에게도 얘기하지 말아줘 우리 이사 가", "ko"),
    ("这事你别往外说 我要换工作了", "zh"),
    ("跟你说个秘密 我下个月结婚", "zh"),
    ("huwag mo sanang ikwento kahit kanino, buntis ako", "tl"),
    ("sikreto 'to ha, mag-aabroad na ako", "tl"),
]
FRESH_SENSITIVE: list[tuple[str, str]] = [
    ("my rent is 2100 and i'm behind two months", "en"),
    ("been on lithium since the bipolar diagnosis", "en"),
    ("血圧の薬を毎朝飲んでる", "ja"),
    ("カードローンが50万ある", "ja"),
    ("우울증 약 먹기 시작했어", "ko"),
    ("이번 달 월급이 280 들어왔어", "ko"),
    ("我有焦虑症 在吃药", "zh"),
    ("老婆要跟我离婚", "zh"),
    ("may diabetes ako, nag-iinsulin na", "tl"),
    ("ang sahod ko ay 18k kada buwan", "tl"),
]
FRESH_FACTS: list[tuple[str, str, str]] = [
    ("my cousin raj just moved to toronto", "where did raj move?", "en"),
    ("sophie is into pottery these days", "what is sophie into?", "en"),
    ("娘のピアノの発表会は12月5日", "発表会はいつ？", "ja"),
    ("健太はサッカー部に入った", "健太は何部？", "ja"),
    ("우리 아빠는 낚시를 좋아해", "아빠가 좋아하는 거 뭐야?", "ko"),
    ("하은이는 다음달에 캐나다로 유학 가", "하은이 어디로 유학 가?", "ko"),
    ("我女儿在学钢琴", "我女儿在学什么？", "zh"),
    ("老张住在杭州", "老张住在哪？", "zh"),
    ("si miguel ay guro sa maynila", "ano trabaho ni miguel?", "tl"),
    ("pupunta si lola sa amin sa pasko", "kailan pupunta si lola?", "tl"),
]
FRESH_REQUESTS: list[tuple[str, str]] = [
    ("put a sleep column in my mood tracker", "en"),
    ("could you build something to log my plants watering", "en"),
    ("体重アプリの単位をポンドにして", "ja"),
    ("가계부에 교통비 항목 넣어 줘", "ko"),
    ("帮我把习惯打卡app的提醒关掉", "zh"),
    ("dagdagan mo ng category yung gastos app ko", "tl"),
]
