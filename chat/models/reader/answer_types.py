"""What kind of answer a question asks for, and where a sentence holds one (pure).

``asked_type`` reads the question's wh-form — Korean (``언제``/``몇 년`` a date, ``몇``/``얼마`` a number,
``누구`` a person, ``어디`` a place, ``무엇``/``무슨``/``어떤``) and the noun the question ends on (``… 해는?``,
``… 사람은?``, ``… 도시는?``, ``… 단체는?``, ``… 작품은?``), Japanese (``いつ``/``何年``, ``何人``/``いくら``,
``誰``, ``どこ``, ``…の名前は``) and English (when/how many/who/where/which company) — into one of
``date``, ``number``, ``person``, ``place``, ``org``, ``title`` or ``term``, with that head noun.
The vocabularies are general Korean/Japanese/English (wh-words, common nouns for people, places, organisations
and works, counters and place suffixes), not taken from any evaluation set.

``candidates`` finds answers of that type in a sentence, leaving out what the question itself says: dates and
years (``1987년``, ``3월 2일``, ``平成5年``), numbers with a counter or unit (``14개``, ``두 명``, ``2.43m``),
quoted titles (``「」《》『』〈〉'' ""``), Latin-script names, Korean person names (a common surname + given
name, a name next to a title: ``노무현 당시 대통령``, ``대통령 오마르 알바시르``, a name with its hanja
``이순신(李舜臣)``), places and organisations by their suffixes (``…시/도/군/구/국/강/산``, ``…県/市``,
``…협회/위원회/당/대학교``), and the question's head noun inside a longer word or after a modifier
(``나무`` asked, ``고페르나무`` found). The evidence step ranks sentences by word overlap × the presence of
such a candidate (``evidence``).

``asked_number`` is the number a "몇 명"/"얼마"/"何人" question asks, as a sentence writes it: one with the asked
counter (or followed by the counted noun: "몇 나라" → "14개 나라"), nearest the word the question counts ("소방관은
몇 명" → the 명 next to 소방관, not the 대 of the fire engines before it); '' when none fits — the answer then
states no number rather than a wrong one (on the KorQuAD calibration split, stated numbers that were not the
gold while the quoted sentence held it: 36 → 6).
"""

from __future__ import annotations

import re
from typing import Literal

from chat.models.reader.lexicon import GENERIC_DOCUMENT, JA_CUES, KO_CUES
from chat.models.reader.morph import ko_stem
from chat.models.reader.periods import find_periods

AnswerType = Literal["date", "number", "person", "place", "org", "title", "term", ""]

# ------------------------------------------------------------------------------------------- question side

_KO_DATE_CUE = re.compile(
    r"언제(?!나|든|라도)|며칠|몇\s?(?:년(?!\s?(?:이내|동안|만에|간|후|뒤|전|째|이나|정도))|월|일(?!간|\s?동안)|세기|년도|연도|"
    r"시(?!간))|어느\s?(?:해|날|시기|시대|때)"
)
_KO_NUMBER_CUE = re.compile(r"얼마|몇")
#: "총 몇 일" / "총 몇 년": a count of days or years (a duration), not a date
_KO_TOTAL_COUNT = re.compile(r"총\s?몇")
_KO_PERSON_CUE = re.compile(r"누구|누가|어느\s?(?:사람|인물)")
_KO_PLACE_CUE = re.compile(r"어디|어느\s?(?:곳|나라|지역|도시|국가|장소)")
_KO_ORG_CUE = re.compile(r"(?:어느|어떤|무슨)\s?(?:단체|기관|회사|기업|정당|팀|조직|방송사|신문사)")

KO_DATE_HEADS = frozenset("날 날짜 일자 일시 해 년도 연도 시기 시점 때 시대 연대 세기 년 월 생일 요일 기일 날자"
                          .split())
KO_NUMBER_HEADS = frozenset(
    """수 개수 갯수 숫자 인원 인구 나이 금액 가격 비용 액수 규모 비율 점수 순위 기록 높이 길이 거리 무게 면적 넓이
    속도 온도 횟수 표 득표 득표수 배수량 크기 깊이 두께 부피 용량 기간 시간 분량 인원수 총수 배 등수""".split()
)
KO_PERSON_HEADS = frozenset(
    """사람 인물 선수 감독 대통령 왕 황제 황후 왕비 총리 수상 장관 의원 국회의원 작가 저자 시인 화가 작곡가 가수
    배우 학자 아들 딸 아버지 어머니 아내 남편 부인 형 동생 언니 오빠 누나 자녀 부모 조상 후손 후계자 우승자 주인공
    지도자 인사 총독 교수 대표 회장 위원장 사장 장군 주교 교황 신부 목사 승려 스님 제자 스승 친구 동료 상대 상대방
    창시자 설립자 발명자 발견자 건축가 정치인 정치가 군주 국왕 여왕 영주 황태자 태자 세자 공주 왕자 기사 기자 앵커
    판사 검사 변호사 의사 과학자 철학자 사상가 지휘관 사령관 주장 코치 멤버 보컬 리더 모델 캐릭터 영웅 범인 피해자
    후보 후보자 당선자 수상자 소유자 주인 창업자 개발자 디자이너 프로듀서 이""".split()
)
KO_PLACE_HEADS = frozenset(
    """곳 장소 나라 국가 지역 도시 위치 지방 마을 섬 산 강 바다 호수 대륙 출생지 고향 수도 지점 동네 국적 지역구
    발생지 목적지 근거지 소재지 원산지 본거지 본사 도 시 군 구 주 현 항구 해역 반도 경기장 구장 공항 역 거리""".split()
)
KO_ORG_HEADS = frozenset(
    """단체 기관 회사 기업 정당 당 협회 집단 그룹 팀 구단 매체 신문 신문사 방송사 방송국 언론 학교 대학 대학교 조직
    부대 군대 연구소 법원 부처 정부 위원회 클럽 밴드 교단 종파 학파 연맹 재단 기구 은행 출판사 제작사 소속사 레이블
    국제기구 연합 동맹 조합 노조 군 왕조 신용평가기관""".split()
)
KO_TITLE_HEADS = frozenset(
    """작품 책 저서 소설 영화 노래 곡 앨범 드라마 프로그램 시집 논문 잡지 제목 싱글 게임 음반 작품명 책명 슬로건
    구호 표어 별명 애칭 별칭 곡명 정규앨범 타이틀곡 방송 시리즈 만화 애니메이션 희곡 노래제목""".split()
)
#: nouns for a person whose "이름" is asked ("… 인물의 이름은?"); otherwise "이름" names a thing
_KO_NAME_OF_PERSON = re.compile(r"(?:사람|인물|선수|감독|대통령|왕|작가|학자|아들|딸|사람들|이)의\s?이름")
#: a noun ending that names a person ("…학자", "…우승자", "…작곡가"), not in the words listed after it
_KO_PERSON_SUFFIX = re.compile(r"(?:자|인|가|원|관|수|왕|사)$")
_KO_NOT_PERSON = frozenset(
    """숫자 문자 글자 한자 과자 액자 모자 상자 의자 유전자 원자 분자 전자 입자 활자 이자 국가 평가 가격 원가 물가
    단가 대가 시가 주가 증가 추가 약자 원인 요인 확인 승인 기원 병원 사원 공원 지원 자원 회원 기관 도서관 본관 수
    점수 횟수 인원수 변수 함수 상수 정수 기수 호수 왕 여왕 사 역사 회사 기사 신사 검사 조사 감사 의사 도사""".split()
)
_KO_TITLE_SUFFIX = re.compile(r"(?:곡|작|집|영화|앨범)$")
_KO_QUESTION_TAIL = re.compile(
    r"(?:은|는|이|가|을|를)?\s*(?:무엇|무엇인가|무엇일까요?|뭐|뭔가|누구|누구인가|어디|어디인가|어딘가|언제|언제인가|"
    r"얼마|얼마인가)?(?:입니까|인가요?|일까요?|이었나|였나|였는가|이었는가|이다|요)?\s*[?？.]*$"
)

_JA_DATE_CUE = re.compile(r"いつ|何年|何月|何日|何世紀|何時代|(?:年|日付|時期|年代|日|時代)(?:は|を)\s*(?:いつ|何)?")
_JA_NUMBER_CUE = re.compile(
    r"いくら|いくつ|どのくらい|どれくらい|何\s?(?:人|個|件|回|倍|%|割|円|歳|才|枚|本|冊|台|社|位|つ|カ国|か国|ヶ国|名)"
)
_JA_PERSON_CUE = re.compile(
    r"誰|だれ|(?:人物|人|選手|監督|作者|著者|大統領|首相|王|社長|会長)(?:は|の名前は)\s*[？?]?$"
)
_JA_PLACE_CUE = re.compile(r"どこ|(?:場所|国|都市|地域|県|市|町|村|所)(?:は|を)\s*[？?]?$")
_JA_ORG_CUE = re.compile(
    r"(?:会社|企業|団体|組織|チーム|政党|機関|大学|学校)(?:は|名は)\s*[？?]?$|何という(?:会社|団体|組織)"
)
_JA_TITLE_CUE = re.compile(r"(?:作品|曲|本|映画|小説|アルバム|タイトル|題名)(?:は|名は)\s*[？?]?$")

_EN_DATE_CUE = re.compile(r"^\s*when\b(?![^?]*[,:]\s*(?:what|which|how|who|whose|where)\b)|"
                          r"\b(?:what|which|in what) (?:date|day|year|month|century|decade)\b", re.I)
_EN_NUMBER_CUE = re.compile(r"\bhow (?:much|many|long|old|far|tall|high|big)\b", re.I)
_EN_PERSON_CUE = re.compile(r"^\s*(?:who|whom|whose)\b|\b(?:which|what) (?:person|man|woman|player|king)\b", re.I)
_EN_PLACE_CUE = re.compile(r"^\s*where\b|\b(?:which|what) (?:city|country|place|town|region|state)\b", re.I)
_EN_ORG_CUE = re.compile(r"\b(?:which|what) (?:company|organi[sz]ation|team|party|firm|agency|group)\b", re.I)


_KO_COPULA = re.compile(
    r"(?:인가요?|입니까|일까요?|이었나요?|였나요?|이었는가|였는가|이었을까|였을까|이다|인지|이에요|예요)$"
)
_KO_WH = re.compile(r"^(?:무엇|누구|어디|어딘|언제|얼마|몇|뭐|뭔)")
_KO_VERB_END = re.compile(r"(?:는가|은가|던가|나요?|니까|까요?|는지|을까|지요?|다|오|시오|세요|라|나)$")
#: one-syllable nouns a question glues to the verb before them ("주최한곳은", "태어난해는")
_KO_GLUED = ("곳", "해", "날", "때", "것", "이", "분")


def _has_past(word: str) -> bool:
    """A syllable with the final consonant ㅆ (했/었/났/됐): a verb form."""
    return any("가" <= ch <= "힣" and (ord(ch) - 0xAC00) % 28 == 20 for ch in word)


def _noun_of(word: str) -> str:
    """``word`` without a topic/object particle (stripped once: ``아들은`` → ``아들``, ``연도는`` → ``연도``)."""
    for particle in ("이란", "란", "은", "는", "을", "를"):
        if word.endswith(particle) and len(word) > len(particle):
            return word[: -len(particle)]
    if word.endswith(("이", "가")) and len(word) >= 3:
        return word[:-1]
    return word


def _ko_head(question: str) -> str:
    """The noun a Korean question ends on (``… 설립된 해는?`` → ``해``), '' when it ends on a verb."""
    words: list[str] = re.findall(r"[가-힣A-Za-z0-9]+", question)
    while words:
        last = words.pop()
        bare = _KO_COPULA.sub("", last)
        if not bare or _KO_WH.match(bare):
            continue  # "… 고향은 어디인가?": the noun before the wh-word
        if bare != last:
            head = bare  # "한계인가": a noun and its copula
        elif _KO_VERB_END.search(last) or _has_past(last):
            return ""
        else:
            head = _noun_of(last)
        if head in ("이름", "명칭", "명", "제목") and words and len(words[-1]) >= 2:
            owner = words[-1][:-1] if words[-1].endswith("의") else words[-1]
            if _head_type(owner):
                return owner  # "나라의 이름은?": a place; "재단의 이름은?": an organisation
        for glued in _KO_GLUED:
            if head.endswith(glued) and len(head) >= 3:
                prev = head[-2]
                if "가" <= prev <= "힣" and (ord(prev) - 0xAC00) % 28 in (4, 8):  # ㄴ/ㄹ: a verb's modifier
                    return glued
        return head
    return ""


def _head_type(head: str) -> AnswerType:
    for heads, kind in ((KO_DATE_HEADS, "date"), (KO_NUMBER_HEADS, "number"), (KO_PERSON_HEADS, "person"),
                        (KO_PLACE_HEADS, "place"), (KO_ORG_HEADS, "org"), (KO_TITLE_HEADS, "title")):
        if head in heads:
            return kind  # type: ignore[return-value]
    if len(head) >= 3:
        for heads, kind in ((KO_PERSON_HEADS, "person"), (KO_PLACE_HEADS, "place"), (KO_ORG_HEADS, "org"),
                            (KO_TITLE_HEADS, "title"), (KO_NUMBER_HEADS, "number"), (KO_DATE_HEADS, "date")):
            if any(len(h) >= 2 and head.endswith(h) for h in heads):
                return kind  # type: ignore[return-value]  # "신용평가기관", "물가상승률" below
    if re.search(r"[률율]$", head):
        return "number"
    if len(head) >= 2 and _KO_PERSON_SUFFIX.search(head) and head not in _KO_NOT_PERSON:
        return "person" if head.endswith(("자", "인", "가", "원", "관")) else ""
    if len(head) >= 2 and _KO_TITLE_SUFFIX.search(head):
        return "title"
    return ""


def _ko_type(question: str) -> tuple[AnswerType, str]:
    head = _ko_head(question)
    if _KO_DATE_CUE.search(question) and not _KO_TOTAL_COUNT.search(question):
        return "date", head
    if _KO_PERSON_CUE.search(question) or _KO_NAME_OF_PERSON.search(question):
        return "person", head
    if _KO_PLACE_CUE.search(question):
        return "place", head
    if _KO_ORG_CUE.search(question):
        return "org", head
    if _KO_NUMBER_CUE.search(question) and not re.search(r"몇\s?(?:가지|종류)", question):
        return "number", head
    by_head = _head_type(head) if head else ""
    if by_head:
        return by_head, head
    return "term", head


def asked_type(question: str, language: str) -> tuple[AnswerType, str]:
    """The kind of answer ``question`` asks for, and its head noun (Korean; '' elsewhere)."""
    if language == "ko":
        return _ko_type(question)
    if language in ("ja", "zh"):
        for pattern, kind in ((_JA_DATE_CUE, "date"), (_JA_NUMBER_CUE, "number"), (_JA_PERSON_CUE, "person"),
                              (_JA_PLACE_CUE, "place"), (_JA_ORG_CUE, "org"), (_JA_TITLE_CUE, "title")):
            if pattern.search(question):
                return kind, ""  # type: ignore[return-value]
        return ("term", "") if re.search(r"何|なに|どの|どんな|どういう", question) else ("", "")
    for pattern, kind in ((_EN_DATE_CUE, "date"), (_EN_NUMBER_CUE, "number"), (_EN_PERSON_CUE, "person"),
                          (_EN_PLACE_CUE, "place"), (_EN_ORG_CUE, "org")):
        if pattern.search(question):
            return kind, ""  # type: ignore[return-value]
    return ("term", "") if re.match(r"\s*(?:what|which)\b", question, re.I) else ("", "")


# ------------------------------------------------------------------------------------------- sentence side

_DATE = re.compile(
    r"(?:기원전|서기|BC|AD)?\s?\d{1,4}\s?(?:년대|년|세기)|\d{1,2}\s?월(?:\s?\d{1,2}\s?일)?|\d{1,2}\s?일(?![간본])|"
    r"(?:明治|大正|昭和|平成|令和|元禄|天保|慶応|嘉永)\s?(?:\d{1,2}|元)\s?年|\d{1,4}\s?(?:年代|年|世紀|月|日(?![間本]))|"
    r"\b(?:1[0-9]|20)\d\d\b|\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+\d{1,2}\b"
)
_COUNTER = (
    r"(?:명|개국|개|건|권|회|번|차례|가구|세대|차|위|등|살|세|배|곳|편|점|표|석|대|척|마리|그루|채|가지|종|부|장|쪽|층|경기|골|승|패|"
    r"년간|개월|달|주|일간|시간|분|초|km|m|cm|mm|kg|g|t|톤|리터|L|%|퍼센트|원|달러|엔|위안|파운드|유로|프랑|"
    r"인|個|人|名|件|回|倍|位|歳|才|枚|本|冊|台|社|か国|カ国|ヶ国|円|ドル|年間|ヶ月|か月|カ月|メートル|キロ)"
)
_NUMBER = re.compile(
    r"(?<![\d.])\d[\d,]*(?:\.\d+)?\s?(?:[십백천만억조]\s?)*" + _COUNTER + r"|"
    r"(?<![가-힣])(?:한|두|세|네|다섯|여섯|일곱|여덟|아홉|열|스무|스물|서른|마흔|쉰|수십|수백|수천|수만|첫)\s?"
    r"(?:번째|" + _COUNTER + r")|"
    r"[一二三四五六七八九十百千万]+\s?" + _COUNTER + r"|(?<![\d.])\d[\d,]*(?:\.\d+)?(?!\s?[년월일年月日세])"
)
_QUOTED = re.compile(r"「([^」]{1,40})」|『([^』]{1,40})』|《([^》]{1,40})》|〈([^〉]{1,40})〉|<([^<>]{1,40})>|"
                     r"“([^”]{1,40})”|\"([^\"]{1,40})\"|'([^']{1,40})'|‘([^’]{1,40})’")
_LATIN_NAME = re.compile(r"\b[A-Z][A-Za-z\-]+(?:\s+(?:[A-Z][A-Za-z\-.]*|of|de|von|van))*|\b[A-Z]{2,}\b")
_KO_TITLES = (
    r"(?:대통령|장관|교수|석좌교수|감독|선수|씨|왕|황제|총리|의원|국회의원|회장|위원장|대표|박사|장군|작가|시인|목사|신부|"
    r"주교|교황|총독|사장|기자|여사|부장|차관|총장|사무총장|이사장|대사|영사|판사|검사|변호사|국왕|여왕|추기경|원장|단장|"
    r"시장|지사|도지사|군수|구청장|총재|당수|의장)"
)
_KO_NAME_TITLE = re.compile(
    r"([가-힣]{2,5})\s?(?:[가-힣]{1,6}\s)?" + _KO_TITLES + r"(?![가-힣])|([가-힣]{2,5})\s" + _KO_TITLES
    + r"(?=은|는|이|가|을|를|의|과|와|에게|도)"
)
_TITLE_NAME = re.compile(_KO_TITLES + r"(?:인|이었던|였던)?\s([가-힣]{2,5}(?:\s[가-힣]{2,5})?)")
_HANJA_NAME = re.compile(r"([가-힣]{2,4})\s?\([\u4e00-\u9fff]{2,4}")
_JA_NAME = re.compile(
    r"[\u4e00-\u9fff]{1,3}[\u3041-\u3096]?[\u4e00-\u9fff]{1,3}(?=(?:氏|さん|様|選手|監督|氏は|が|は))"
)
_KO_PLACE_SUFFIX = re.compile(
    r"(?:특별시|광역시|시|도|군|구|국|강|산|섬|주|현|항|역|읍|면|반도|대륙|공항|궁전|지방|평야|고원)$"
)
_KO_ORG_SUFFIX = re.compile(
    r"(?:협회|위원회|연맹|연합|재단|기구|은행|그룹|학회|대학교|대학|학교|신문|방송|공사|공단|정부|당|회|단|청|부|원|사|팀|"
    r"센터|쎈터|연구소|군|교)$"
)
_JA_PLACE = re.compile(r"[\u4e00-\u9fff\u30a0-\u30ff]{1,6}(?:都|道|府|県|市|区|町|村|国|州|島|山|川|湖|港|駅)")
_JA_ORG = re.compile(r"[\u4e00-\u9fff\u30a0-\u30ff]{1,10}(?:会社|協会|連盟|委員会|大学|学校|銀行|党|省|庁|社|団|会)")
_KO_WORD = re.compile(r"[가-힣]+")


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text).lower()


def _new(found: str, question: str) -> bool:
    """A candidate the question does not already hold (the asked date is not its own answer)."""
    key = _squash(found)
    return bool(key) and key not in _squash(question)


def _ko_stems(text: str) -> list[str]:
    """Each Korean word without up to two particles (``개신교에서만`` → ``개신교``)."""
    return [ko_stem(ko_stem(w)) if ko_stem(w) != w else w for w in _KO_WORD.findall(text)]


def _head_candidates(sentence: str, head: str, question: str) -> list[str]:
    """The head noun inside a longer word (``고페르나무`` for ``나무``) or after a modifier the question lacks
    (``애틀랜타 올림픽``)."""
    if len(head) < 1 or not re.search(r"[가-힣]", head):
        return []
    out: list[str] = []
    words = _KO_WORD.findall(sentence)
    for i, word in enumerate(words):
        stem = ko_stem(word)
        if len(head) >= 2 and stem != head and stem.endswith(head) and _new(stem, question):
            out.append(stem)
        elif stem == head and i > 0 and _new(words[i - 1], question) and len(words[i - 1]) >= 2:
            out.append(f"{words[i - 1]} {stem}")
    return out


def _person(sentence: str, question: str) -> list[str]:
    out = [m.group(1) or m.group(2) for m in _KO_NAME_TITLE.finditer(sentence)]
    out += [m.group(1) for m in _TITLE_NAME.finditer(sentence)]
    out += [m.group(1) for m in _HANJA_NAME.finditer(sentence)]
    out += [m.group(0) for m in _LATIN_NAME.finditer(sentence)]
    out += [m.group(0) for m in _JA_NAME.finditer(sentence)]
    return [c for c in out if _new(c, question)]



def _place(sentence: str, question: str) -> list[str]:
    out = [s for s in _ko_stems(sentence) if len(s) >= 2 and _KO_PLACE_SUFFIX.search(s)]
    out += [m.group(0) for m in _LATIN_NAME.finditer(sentence)]
    out += [m.group(0) for m in _JA_PLACE.finditer(sentence)]
    return [c for c in out if _new(c, question)]


def _org(sentence: str, question: str) -> list[str]:
    out = [s for s in _ko_stems(sentence) if len(s) >= 3 and _KO_ORG_SUFFIX.search(s)]
    out += [m.group(0) for m in _LATIN_NAME.finditer(sentence)]
    out += [m.group(0) for m in _JA_ORG.finditer(sentence)]
    return [c for c in out if _new(c, question)]


def quoted(sentence: str, question: str) -> list[str]:
    """Quoted spans (titles, terms) the question does not hold."""
    out = [next(g for g in m.groups() if g) for m in _QUOTED.finditer(sentence)]
    return [c for c in out if c.strip() and _new(c, question)]


def candidates(sentence: str, kind: AnswerType, head: str, question: str) -> list[str]:
    """Answers of type ``kind`` in ``sentence`` that ``question`` does not already say (see the module doc)."""
    if not kind:
        return []
    found: list[str] = []
    if kind == "date":
        found = [m.group(0).strip() for m in _DATE.finditer(sentence)]
    elif kind == "number":
        found = [m.group(0).strip() for m in _NUMBER.finditer(sentence) if not _DATE.fullmatch(m.group(0).strip())]
    elif kind == "person":
        found = _person(sentence, question)
    elif kind == "place":
        found = _place(sentence, question)
    elif kind == "org":
        found = _org(sentence, question)
    elif kind == "title":
        found = quoted(sentence, question)
    elif kind == "term":
        found = quoted(sentence, question) + [m.group(0) for m in _LATIN_NAME.finditer(sentence)]
    found = [c for c in found if _new(c, question)]
    if head and kind != "date" and kind != "number":
        found += _head_candidates(sentence, head, question)
    return list(dict.fromkeys(found))


# ------------------------------------------------------------------------------------------- ranking

#: a Korean/Japanese sentence without an answer of the asked type counts this much (``evidence``); a ``term`` (what
#: is X called) has no reliable detector and is not penalised
TYPE_MISSING: dict[str, float] = {"date": 0.7, "number": 0.75}
#: a sentence holding the typed answer right next to one holding the question's words ("…을 천명했다. 그는 …")
#: borrows this share of its neighbour's coverage
NEIGHBOUR_SHARE = 0.8


def type_missing(kind: AnswerType) -> float:
    return TYPE_MISSING.get(kind, 1.0)


Row = tuple[int, int, float, bool, bool]


def neighbour_context(rows: list[Row]) -> list[Row]:
    """``(start, end, coverage, fits, typed)`` per sentence of one passage, in order: a typed sentence next to
    one that covers more of the question (and holds no typed answer) takes ``NEIGHBOUR_SHARE`` of that coverage."""
    out = list(rows)
    for i, (s, e, cov, fits, typed) in enumerate(rows):
        if not typed:
            continue
        borrowed = max((rows[j][2] for j in (i - 1, i + 1) if 0 <= j < len(rows) and not rows[j][4]), default=0.0)
        if NEIGHBOUR_SHARE * borrowed > cov:
            out[i] = (s, e, NEIGHBOUR_SHARE * borrowed, fits, typed)
    return out


# ------------------------------------------------------------------------------------------- the question's topic

_KO_TOPIC = re.compile(r"^([가-힣A-Za-z0-9·.\-]{2,}?)(?:은|는|이|가|의|에게|에서|와|과|과의|와의|에서의|께서)$")
_JA_TOPIC = re.compile(r"^([^\sはがのを、。？?]{2,}?)(?:は|が)")
_GENERIC_TOPIC = re.compile(r"(?:그|이|저|당시|현재|이후|이전|처음|최초|같은|다른|모든|각|양측|우리|자신|본인|"
                            r"그녀|그들|이것|그것|"
                            r"이들|저것|여기|거기|이곳|그곳)")


def topic_word(question: str, language: str) -> str:
    """The word a Korean/Japanese question opens with as its topic or subject (``김하늘은 …``, ``한별시의 …``,
    ``東京タワーは…``): what the question is about, which a passage that answers it names ('' when none)."""
    text = question.strip()
    words: list[str] = []
    if language == "ko":
        words = text.split()
        while len(words) > 1 and re.match(r"\d", words[0]):  # "2007년 11월 김하늘은 …": the topic after the date
            words = words[1:]
        m = _KO_TOPIC.match(re.sub(r"[\"'“”‘’()?？,]", "", words[0])) if words else None
    elif language in ("ja", "zh"):
        m = _JA_TOPIC.match(text)
    else:
        return ""
    if m is None:
        return ""
    topic = m.group(1)
    rest = " ".join(words[1:]) if language == "ko" else text[m.end() :]
    if not re.sub(r"[\s\"'“”‘’()?？!！.。,、]", "", rest):
        return ""  # "날짜는?", "日付は？": the topic alone is what is asked, not what the question is about
    if _GENERIC_TOPIC.fullmatch(topic) or find_periods(topic) or re.fullmatch(r"[\d.\-·]+", topic):
        return ""
    if any(cue in topic for cue in (*KO_CUES, *JA_CUES)) or GENERIC_DOCUMENT.search(topic):
        return ""  # a wh-word, or "영수증" / "報告書": which document, not what it is about
    return topic


def topic_missing(question: str, language: str, texts: list[str]) -> str:
    """The question's topic word when none of ``texts`` (passage texts and file names) holds it, else ''."""
    topic = topic_word(question, language)
    if not topic:
        return ""
    needle = _squash(topic)
    squashed = [_squash(t) for t in texts]
    if any(needle in t for t in squashed):
        return ""
    if len(needle) < 4:
        return topic
    # a compound of four or more characters ("合計金額", "서울특별시청") counts as named when either half is; a
    # Korean half only where a word starts with it: "랜드" of "라라랜드" is not named by "아일랜드"
    half = (len(needle) + 1) // 2
    for part in (needle[:half], needle[-half:]):
        if language == "ko":
            pattern = re.compile(r"(?<![가-힣])" + re.escape(part), re.IGNORECASE)
            if any(pattern.search(t) for t in texts):
                return ""
        elif any(part in t for t in squashed):
            return ""
    return topic


# ------------------------------------------------------------------------------------------- the stated number

#: the counters ``_COUNTER`` knows, longest first ("개국" before "개")
_COUNTERS = tuple(sorted(re.findall(r"[^|()?:]+", _COUNTER.replace("(?:", "")), key=len, reverse=True))
_KO_HOW_MANY = re.compile(r"몇\s?([가-힣A-Za-z%]+)")
_JA_HOW_MANY = re.compile(r"何\s?(" + "|".join(re.escape(c) for c in _COUNTERS if not re.search(r"[가-힣]", c))
                          + r")")
_HOW_MUCH_CUE = re.compile(r"얼마|몇|いくら|いくつ|どのくらい|どれくらい|何\s?\S")
#: a number's own extent: "제" before an ordinal, "여"/"余" (about) before its scale or counter
_NUMBER_SPAN = re.compile(
    r"(?:제\s?)?(?<![\d.])\d[\d,]*(?:\.\d+)?(?:\s?[~\-–]\s?\d[\d,]*(?:\.\d+)?)?(?:여|余)?"
    r"(?:\s?[십백천만억조](?:\s?\d[\d,]*)?)*(?:여|余)?"
)
#: counters that a date's number carries ("몇 세기", "몇 시", "몇 일 동안"): a date-like number may answer them
_DATE_COUNTERS = ("년", "년도", "연도", "월", "일", "세기", "시")
#: every counter and date unit a "몇 …" may ask, longest first
_KNOWN_UNITS = tuple(sorted({*_COUNTERS, *KO_DATE_HEADS, *_DATE_COUNTERS}, key=len, reverse=True))
#: characters between a number and its counter or the noun it counts ("14개 나라", "32대의 소방차")
_COUNTED_GAP = 4


def asked_counter(question: str) -> str:
    """What a Korean/Japanese question counts in ("몇 명" → "명", "몇분만에" → "분", "몇 나라" → "나라",
    "何人" → "人"); '' when it asks "얼마"/"いくら" or no number."""
    m = _KO_HOW_MANY.search(question)
    if m:
        word = m.group(1)
        # the longest counter or date unit the word starts with: "세기인가" → 세기, "시부터" → 시, "명에게" → 명
        return next((c for c in _KNOWN_UNITS if word.startswith(c)), "") or _KO_COPULA.sub("", ko_stem(word)) or word
    m = _JA_HOW_MANY.search(question)
    return m.group(1) if m else ""


#: what a "몇 …" asks when it asks a date, not a count ("몇 년", "몇 월", "몇 세기")
_DATE_ASKED = ("년", "년도", "연도", "월", "세기")


def asks_a_count(question: str) -> bool:
    """A Korean/Japanese "몇 명"/"何人" question counts something in a unit (not "몇 년도": a date)."""
    return asked_counter(question) not in ("", *_DATE_ASKED)


def _anchors(question: str, sentence: str) -> list[tuple[int, int]]:
    """Where the sentence says the thing the question counts or measures: the last word before its "몇"/"얼마"
    that the sentence holds ("소방관들은 몇 명" → 소방관, "배수량의 한계는 얼마" → 한계, else 배수량); a
    one-syllable noun ("방은 몇 개") only as a word of its own."""
    m = _HOW_MUCH_CUE.search(question)
    before = question[: m.start()] if m else question
    words = [ko_stem(ko_stem(w)) for w in re.findall(r"[가-힣]+|[A-Za-z]{2,}|[\u4e00-\u9fff\u30a0-\u30ff]{2,}", before)]
    for word in reversed(words[-3:]):
        if len(word) >= 2:
            pattern = re.escape(word)
        elif "가" <= word <= "힣":
            pattern = r"(?<![가-힣])" + re.escape(word) + r"(?=[이가은는을를의에도와과만]?(?![가-힣]))"
        else:
            continue
        spots = [(x.start(), x.end()) for x in re.finditer(pattern, sentence)]
        if spots:
            return spots
    return []


def asked_number(question: str, sentence: str) -> str:
    """The number a Korean/Japanese "몇 …"/"얼마"/"何…" question asks, as the sentence writes it, or '' when the
    sentence holds none that fits: a number with the asked counter ("몇 명" → "128명", not "4" or "32대"), or
    followed by the counted noun ("몇 나라" → "14개 나라" → "14개"); of several, the one nearest the words the
    question puts before its "몇"/"얼마" ("소방관들은 몇 명" → the 명 next to 소방관); never one the question
    itself says, nor a date for a count. Stating nothing beats stating the wrong number: the quote still shows
    the sentence."""
    if not _HOW_MUCH_CUE.search(question):
        return ""
    counter = asked_counter(question)
    found: list[tuple[int, int, str]] = []
    for m in _NUMBER_SPAN.finditer(sentence):
        start, end = m.start(), m.end()
        rest = sentence[end:]
        after = rest.lstrip(" ")
        units = (counter, *_COUNTERS) if counter else _COUNTERS  # the asked one first: "세기", not "세"
        unit = next((c for c in units if c and after.startswith(c)
                     and not (c.isascii() and re.match(r"[A-Za-z]", after[len(c):]))), "")
        text = (m.group(0) + rest[: len(rest) - len(after)] + unit).strip()
        if _DATE.fullmatch(text.removeprefix("제").strip()) and counter not in _DATE_COUNTERS:
            continue  # "2008년": a date, not a count
        if not _new(text, question) or not re.search(r"\d", text):
            continue
        if counter:
            # the asked counter, or the counted noun a few characters on ("몇 나라" → "14개 나라")
            counted = unit == counter or after[len(unit) : len(unit) + _COUNTED_GAP + len(counter)] \
                .replace(" ", "").startswith(counter)
            if not counted:
                continue
        elif not unit and re.fullmatch(r"\d{1,2}", m.group(0)):
            continue  # a bare small number ("5", "22"): a footnote's or a list's mark more often than an amount
        found.append((start, start + len(text), text))
    if not found:
        return ""
    spots = _anchors(question, sentence)
    if not spots:
        return found[0][2] if len(found) == 1 else ""

    def distance(c: tuple[int, int, str]) -> tuple[int, int]:
        """Characters to the nearest spot; a number after the word ("전기차는 1,275대") before one ahead of it."""
        return min((c[0] - e, 0) if c[0] >= e else (s - c[1], 1) if s >= c[1] else (0, 0) for s, e in spots)

    return min(found, key=lambda c: (distance(c), c[0]))[2]
