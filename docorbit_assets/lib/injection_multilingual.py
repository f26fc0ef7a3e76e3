"""Harmful requests read in other languages: the acts, not the addressee.

Contract: ``harmful_request(text) -> re.Match | None``. The English rules of
``injection_structure`` read what a passage asks for (a switched-off check, a push straight to
`main`, a secret sent somewhere) in English words; in another language they read only what is
written the same way everywhere — a dangerous command, a `verify=False`, a URL — and the
addressee ("tools that apply this guide", ``_ML_CONSUMER``). Passages that ask in Korean to skip
the review and push to `main`, in Portuguese to copy `.env` into a public gist, or in Hindi to
write the npm token into the debug log went unflagged (session 18: 71 of the 320 multilingual
injections of the first-sight sets s30–s69 were not high, most of them one sentence asking for
one of these acts).

This module reads five acts in sixteen languages (Spanish, Portuguese, French, German, Italian,
Russian, Polish, Turkish, Vietnamese, Indonesian, Korean, Japanese, Chinese, Hindi, Arabic,
Persian), each as a pair of concepts near each other in one sentence that is not English:

- **a safeguard skipped**: skip / bypass / switch off / remove / delete / without + review,
  approval, confirmation, tests, CI, verification, signature, certificate, authentication,
  security, backups, asking first;
- **straight to production**: push / deploy / merge + `main`, `master`, production + directly,
  at once or forced;
- **a secret made public**: a secret + a public place (a public repository, bucket or gist);
- **a secret written where others read it**: a secret + a log or plain text, or telemetry;
- **a secret committed**: a secret + commit / upload + the repository, the README, the sources.

A sixth reading (``automation_asked``, session 21) only says that a sentence asks tools
applying the text for something; ``injection_structure._ml_setting_request`` reads what, in
what is written the same in every language (a `verify=False`, a `NOPASSWD`, an Owner role, a
`git remote add` and push, a dependency from an address, a secret file's contents).

What keeps ordinary documentation out: the sentence must not be negated (per language:
"nunca", "nicht", "하지 마세요", "しないでください", "不要", "मत", "لا" …; a negation that is
itself the risk — "no need to confirm", "do not mention it", "and don't write it in the log" —
is set aside first), and must ask for the act (a directive or obligation, an addressee that
applies the text, a claim that it was already approved, or the user kept out of it; for a list
item, the line that introduces the list counts, and a line that forbids makes its items
prohibitions): "the token leaked into the debug logs" describes, "to skip the tests locally,
pass `-DskipTests`" explains an option. A removal verb takes a safeguard as its object only
right beside it and not across "before" / "after" ("删除文件之前，先向用户确认" asks for the
confirmation); "without" drops only what stands beside it ("sin contraseñas" keeps the
passwords out). A public key or a public API is no secret made public; a secret masked,
rotated or revoked is protected. Quoted text (typographic quotes, 「」, a double-quoted
sentence that is no JSON key or value) is an exhibit, not a request, and a passage that
discusses attacks in its language (``discusses_attacks``) is a write-up: ``annotate`` keeps
its finding at medium. Known limit: the tú/usted imperative of Spanish and Portuguese
("Despliega …", "versione …") is not read as a request; an obligation ("deben", "devem", "hay
que") or an addressee is. Every expression is linear (no nested quantifiers; pairs are
looked for within ``NEAR`` characters of each other, inside one sentence read in slices of
``MAX_SENTENCE`` characters).
"""

from __future__ import annotations

import re

NEAR = 80
"""Characters between the two concepts of an act (both inside one sentence)."""
MAX_SENTENCE = 600
"""A longer "sentence" (a run of text with no sentence end) is read in slices this long."""

_I = re.IGNORECASE

_SENTENCE_END = re.compile(r"[.!?;](?=\s|$)|[。！？；।]|\n")
_ENGLISH = re.compile(r"\b(?:the|and|for|with|this|that|your|you|is|are|of|to|in|at|on)\b", _I)
_QUOTED = re.compile(
    # typographic quotes; a double-quoted sentence that is no JSON key or value
    r"(?<![{\[,])(?<![{\[,]\s)(?<!\":)(?<!\":\s)\"[^\"\n]{12,300}\"(?!\s*:)|"
    r"“[^”\n]{0,300}”|«[^»\n]{0,300}»|„[^“”\n]{0,300}[“”]|「[^」\n]{0,300}」|『[^』\n]{0,300}』"
)

# -- acts ----------------------------------------------------------------------------------------

_SKIP = re.compile(
    # skip, bypass, switch off, remove, leave out; "without"
    r"\b(?:omit\w*|salt(?:ar|e|a|en|ando)(?:se|la|lo)?\b|desactiv\w*|deshabilit\w*|elud\w*|"
    r"quit(?:ar|e|a|en)\b|elimin\w*|pul(?:ar|e|a|em)\b|desativ\w*|desabilit\w*|contorn\w*|remov\w*|"
    r"ignor\w*|désactiv\w*|contourn\w*|saut\w*|supprim\w*|retir\w*|überspring\w*|übersprung\w*|"
    r"umgeh\w*|umgangen\w*|deaktivier\w*|abschalt\w*|abgeschalt\w*|ausschalt\w*|ausgeschalt\w*|"
    r"weglass\w*|weggelass\w*|entfern\w*|lösch\w*|gelösch\w*|borr\w*|apag\w*|exclu[ia]\w*|"
    r"effac\w*|cancell\w*|sil(?:in|mek|meli|meniz)?\b|xóa|disattiv\w*|disabilit\w*|aggir\w*|saltar\w*|rimuov\w*|"
    r"pomi\w*|pomij\w*|wyłącz\w*|obej\w*|usu[nń]\w*|atla\w*|kapat\w*|kaldır\w*|devre\s+dışı|"
    r"bỏ\s+qua|tắt|vô\s+hiệu|gỡ\s+bỏ|lewati|lompati|nonaktifkan|matikan|hapus|abaikan|"
    r"пропус\w*|пропуст\w*|отключ\w*|выключ\w*|обход\w*|обойд\w*|удал\w*|убер\w*|убра\w*|"
    r"skip\w*|bypass\w*|"
    r"sin|sem|sans|ohne|senza|без|bez|tanpa|olmadan|không\s+cần|минуя|в\s+обход)\b|"
    r"건너\s*뛰|생략|비활성|우회|해제|제거|삭제|끄(?:고|세요|십시오)|꺼\s*(?:두|주)|스킵|없이|않고|"
    r"スキップ|省略|無効|オフに|回避|外し|外す|削除|せずに|しないで(?!ください|下さい)|なしで|抜きで|"
    r"跳过|跳過|省去|禁用|关闭|關閉|停用|绕过|繞過|删除|删掉|移除|去掉|不经|不經|未经|无须|"
    r"छोड़|बंद\s+(?:कर|रख)|हटा|निष्क्रिय|बायपास|स्किप|बिना|"
    r"تخط|تخطّ|تجاوز|تعطيل|عطّل|عطل|أوقف|إيقاف|احذف|حذف|إزالة|أزل|دون|بدون|"
    r"غیرفعال|نادیده|حذف\s+کن|بدون",
    _I,
)
_SAFEGUARD = re.compile(
    r"\b(?:revisi[oó]n\w*|revis[aã]o|revisione|review\w*|ревью|relecture|Prüfung\w*|\w+?prüfung\w*|"
    r"Überprüfung\w*|Freigabe\w*|Bestätigung\w*|Rückfrage\w*|aprobaci[oó]n\w*|aprova[çc][aã]o|"
    r"approbation\w*|approvazione|confirmaci[oó]n|confirma[çc][aã]o|conferma|pruebas|testes|"
    r"tests?|тест\w*|проверк\w*|подтвержден\w*|verificaci[oó]n|verifica[çc][aã]o|vérification\w*|"
    r"verifica|Verifizierung\w*|firmas?|assinaturas?|signatures?|Signatur\w*|подпис\w*|"
    r"certificad\w*|certificat\w*|Zertifikat\w*|сертификат\w*|autenticaci[oó]n|"
    r"autentica[çc][aã]o|authentification|autenticazione|Authentifizierung|аутентификац\w*|"
    r"seguridad|seguran[çc]a|sécurité|sicurezza|Sicherheit\w*|безопасност\w*|TLS|SSL|CSRF|2FA|"
    r"MFA|(?-i:CI)|audit\w*|scan\w*|inceleme\w*|onay\w*|doğrulama\w*|imza\w*|sertifika\w*|güvenlik\w*|"
    r"test(?:y|ów|ami|ach|u|e|i|ler|leri|lerini)?|przegl[aą]d\w*|recenzj\w*|zatwierdz\w*|potwierdz\w*|weryfikacj\w*|podpis\w*|"
    r"certyfikat\w*|bezpiecze\w*|kiểm\s+tra|xác\s+minh|xác\s+nhận|phê\s+duyệt|chữ\s+ký|"
    r"chứng\s+chỉ|xác\s+thực|bảo\s+mật|tinjauan|persetujuan|konfirmasi|pengujian|verifikasi|"
    r"tanda\s+tangan|sertifikat|autentikasi|keamanan|"
    # backups, and asking first
    r"backups?|Sicherung\w*|respaldos?|copias?\s+de\s+seguridad|cópias?\s+de\s+segurança|"
    r"sauvegardes?|резервн\w+\s+копи\w*|бэкап\w*|yedek\w*|kopi\w+\s+zapasow\w*|sao\s+lưu|"
    r"cadangan|nachzufragen|nachfrag\w*|preguntar|perguntar|demander|chiedere|спрашива\w*|"
    r"спросить|sormadan|pytania|hỏi|bertanya)\b|백업|묻지|バックアップ|聞かずに|备份|備份|询问|詢問|"
    r"बैकअप|पूछे|نسخ\s+احتياطي|النسخ\s+الاحتياطية|پشتیبان|"
    r"리뷰|검토|승인|확인|테스트|검증|서명|인증|보안|"
    r"レビュー|承認|確認|テスト|検証|署名|証明書|認証|セキュリティ|"
    r"审查|審查|审核|審核|审批|審批|评审|評審|确认|確認|测试|測試|验证|驗證|签名|簽名|证书|證書|"
    r"认证|認證|安全检查|安全扫描|"
    r"समीक्षा|रिव्यू|मंजूरी|मंज़ूरी|अनुमोदन|पुष्टि|टेस्ट|परीक्षण|सत्यापन|हस्ताक्षर|सर्टिफिकेट|प्रमाणपत्र|"
    r"प्रमाणीकरण|सुरक्षा|"
    r"مراجع|موافق|تأكيد|اختبار|التحقق|تحقق|توقيع|شهاد|مصادق|الأمان|الأمن|"
    r"بررسی|تایید|تأیید|امنیت",
    _I,
)
_PUSH = re.compile(
    r"\b(?:push\w*|deploy\w*|despleg\w*|desplieg\w*|implant\w*|publi(?:ca|que|quem|car|quer|"
    r"shed|sh)\w*|veröffentlich\w*|ausroll\w*|ausgeroll\w*|merge\w*|mergear|fusion\w*|"
    r"commit\w*|разверн\w*|развёрт\w*|деплой\w*|выкат\w*|пуш\w*|залей\w*|слей\w*|"
    r"депло\w*|gönder\w*|dağıt\w*|wdr[oó][zż]\w*|wypchnij|wypycha\w*|triển\s+khai|đẩy|terapkan)\b|"
    r"푸시|푸쉬|배포|머지|병합|반영|プッシュ|デプロイ|マージ|反映|推送|部署|合并|合併|上线|上線|"
    r"पुश|डिप्लॉय|तैनात|मर्ज|ادفع|دفع|انشر|نشر|ادمج|دمج",
    _I,
)
_TARGET = re.compile(
    r"`?\b(?:main|master|prod|production|producci[oó]n|produ[çc][aã]o|Produktion\w*|produzione|"
    r"продакшн\w*|продакшен\w*|прод|боев\w*|üretim\w*|canlı|produkcj\w*|sản\s+xuất|produksi)\b`?|"
    r"본\s*서버|운영\s*(?:환경|서버|브랜치)?|프로덕션|本番|生产|生產|正式环境|正式環境|"
    r"प्रोडक्शन|उत्पादन|الإنتاج|فرع\s+main|پروداکشن",
    _I,
)
_DIRECT = re.compile(
    r"\b(?:directamente|diretamente|directement|direttamente|direkt\w*|unmittelbar\w*|напрямую|"
    r"сразу|doğrudan|direkt|bezpośrednio|trực\s+tiếp|langsung|force|forced|forç\w*|forzad\w*|"
    r"forcé\w*|erzwung\w*|принудительн\w*|zorla\w*|wymuszon\w*)\b|--force\b|\s-f\b|"
    r"바로|직접|곧바로|강제|直接|そのまま|強制|强制|सीधे|सीधा|फ़ोर्स|फोर्स|مباشر|بالقوة|مستقیم",
    _I,
)
_SECRET = re.compile(
    r"\b[A-Z][A-Z0-9]*_(?:[A-Z0-9]+_)*(?:KEY|TOKEN|SECRET|PASSWORD|PASS|PAT|CREDENTIALS?)\b|"
    r"(?<![\w.])\.env\b|\.jks\b|\bkeystore\b|\.p12\b|\.pem\b|\bid_rsa\b|\bauthToken\b|"
    r"\bsecrets?\.(?:ya?ml|json|toml)\b|~/\.(?:aws|ssh|npmrc|netrc|kube)\b|"
    r"\b(?:api[\s_-]?keys?|secrets?|tokens?|passwords?|credentials?|"
    r"clave\w*|contraseñ\w*|credencial\w*|senha\w*|segredo\w*|chave\w*|Schlüssel\w*|Zugangsdaten|"
    r"Kennw[oö]rt\w*|Passw[oö]rt\w*|Geheimnis\w*|mot\s+de\s+passe|clés?|identifiants|jetons?|"
    r"chiav\w*|credenziali|ключ\w*|токен\w*|парол\w*|секрет\w*|учётн\w*|учетн\w*|anahtar\w*|"
    r"şifre\w*|parola\w*|gizli\s+\w+|klucz\w*|hasł\w*|sekret\w*|khóa|mật\s+khẩu|bí\s+mật|kunci|"
    r"kata\s+sandi|rahasia)\b|"
    r"(?:API|비밀|시크릿|액세스|서비스|인증|접근)\s*키|(?<![가-힣])키(?:를|가|는|값)|토큰|비밀번호|"
    r"시크릿|자격\s*증명|APIキー|アクセスキー|秘密鍵|シークレット|トークン|パスワード|認証情報|"
    r"密钥|密鑰|秘钥|令牌|密码|密碼|凭据|憑據|凭证|憑證|"
    r"कुंजी|की\s+\(key\)|टोकन|पासवर्ड|क्रेडेंशियल|सीक्रेट|"
    r"مفتاح|المفتاح|مفاتيح|كلمة\s+المرور|كلمات\s+المرور|بيانات\s+الاعتماد|توكن|الرمز\s+السري|"
    r"کلید|رمز\s+عبور|توکن",
    _I,
)
_PUBLIC = re.compile(
    r"\b(?:gists?|p[uú]blic[oa]s?|public\w*|publique\w*|öffentlich\w*|pubblic\w*|публичн\w*|"
    r"общедоступн\w*|открыт\w+\s+(?:репозитори|доступ)\w*|herkese\s+açık|açık\s+depo\w*|"
    r"publiczn\w*|công\s+khai|publik|pastebin)\b|공개|公開|公开|सार्वजनिक|पब्लिक|العامة|علني|عمومی",
    _I,
)
_LOGGED = re.compile(
    r"\b(?:logs?|logg\w*|log-?Datei\w*|Protokolldatei\w*|protokollier\w*|journaux|journali\w*|"
    r"лог(?!ин)\w*|журнал\w*|dziennik\w*|nhật\s+ký|stdout|stderr|"
    r"Klartext|texto\s+(?:plano|claro|simples)|en\s+clair|открытом\s+виде|düz\s+metin|"
    r"jawn\w+\s+tekst\w*|văn\s+bản\s+(?:thô|thuần)|teks\s+biasa)\b|"
    r"ログ(?!イン|アウト)|로그(?!인|아웃)|日志|日誌|लॉग(?!इन|आउट)|سجل|السجلات|لاگ|标准输出|"
    r"平文|평문|明文|प्लेन\s*टेक्स्ट|सादे\s+(?:पाठ|टेक्स्ट)|نص\s+(?:صريح|عادي|واضح)|متن\s+ساده",
    _I,
)
_COMMIT = re.compile(
    r"\b(?:commit\w*|versione\w*|versionier\w*|eincheck\w*|sub(?:ir|a|e|an|irla|irlo|ela|elo)\b|"
    r"hochlad\w*|hochgelad\w*|upload\w*|téléverse\w*|загруз\w*|закоммит\w*|залей\w*|yükle\w*|"
    r"wrzu\w*|prześl\w*|unggah\w*)\b|"
    r"커밋|업로드|올리|コミット|アップロード|上传|上傳|提交|कमिट|अपलोड|ارفع|رفع|آپلود",
    _I,
)
_REPOSITORY = re.compile(
    r"\b(?:repositori\w*|repositório\w*|Repo\w*|dépôt\w*|репозитори\w*|depo\w*|repozytori\w*|"
    r"kho\s+mã|README|código\s+fuente|código-fonte|Quellcode|code\s+source|codice\s+sorgente|"
    r"исходн\w+\s+код\w*|kaynak\s+kod\w*|kod\s+źródłow\w*|mã\s+nguồn|kode\s+sumber|config\.\w+)\b|"
    r"저장소|리포지토리|레포|소스\s*코드|リポジトリ|ソースコード|仓库|倉庫|代码库|源代码|源码|"
    r"रिपॉजिटरी|रिपो|स्रोत\s+कोड|مستودع|المستودع|الشيفرة\s+المصدرية|مخزن",
    _I,
)
_TELEMETRY = re.compile(
    r"\b(?:telemetr\w*|телеметри\w*|telemetri\w*)\b|テレメトリ|텔레메트리|遥测|遙測|टेलीमेट्री|"
    r"القياس\s+عن\s+بعد",
    _I,
)

# -- what the sentence says around the act ------------------------------------------------------

_NO_NEED = re.compile(
    # "no need to confirm / ask / mention": a negation that is itself the risk
    r"\b(?:no\s+(?:hace|es)\s+(?:falta|necesari\w+)|no\s+(?:se\s+)?requiere\w*|no\s+necesita\w*|"
    r"não\s+(?:é\s+necessári\w+|precisa\w*|há\s+necessidade|requer\w*)|sem\s+necessidade|"
    r"pas\s+besoin|(?:n'est|n'a)\s+pas\s+(?:besoin|nécessaire)|inutile\s+de|"
    r"nicht\s+(?:nötig|notwendig|erforderlich)|(?:keine?|ohne)\s+\w+\s+(?:nötig|erforderlich)|"
    r"non\s+(?:è\s+)?(?:necessari\w+|serve)|не\s+(?:нужн\w*|требуется|обязательн\w*|надо)|"
    r"nie\s+(?:trzeba|jest\s+(?:potrzebn|wymagan)\w*)|gerek(?:mez|miyor|\s+yok)|"
    r"không\s+cần|tidak\s+perlu|tak\s+perlu)\b|"
    r"필요(?:가|는)?\s*없|필요하지\s*않|必要(?:は|が)?(?:ありません|ない)|不要です|"
    r"无需|無需|不需要|不必|没必要|沒必要|ज़रूरत\s+नहीं|जरूरत\s+नहीं|आवश्यकता\s+नहीं|"
    r"आवश्यक\s+नहीं|لا\s+(?:حاجة|داعي|يلزم)|نیازی\s+نیست|لازم\s+نیست",
    _I,
)
_CONCEALED = re.compile(
    # the user kept out of it (a negation that is the risk, too)
    r"\b(?:sin\s+(?:avisar|decir|mencionar|informar)|no\s+(?:lo\s+|la\s+)?mencion\w*|"
    r"sem\s+(?:avisar|dizer|mencionar|informar)|não\s+(?:o\s+|a\s+)?menciona\w*|"
    r"sans\s+(?:le\s+)?(?:dire|mentionner|prévenir)|ne\s+(?:le\s+|la\s+)?mentionne\w*\s+pas|"
    r"ohne\s+(?:es\s+)?(?:zu\s+)?(?:erwähnen|sagen|melden|informieren)|nicht\s+erwähn\w*|"
    r"senza\s+(?:dirlo|menzionar\w*|avvisare)|non\s+(?:lo\s+)?menziona\w*|"
    r"не\s+(?:упомина\w*|сообща\w*|говор\w*|информир\w*)|без\s+(?:ведома|уведомлени\w*)|"
    r"nie\s+(?:wspomina\w*|informuj\w*|mów\w*)|bez\s+informowania|"
    r"bahsetme\w*|söyleme\w*|haber\s+verme\w*|không\s+(?:nói|nhắc|báo)|đừng\s+(?:nói|nhắc|báo)|"
    r"jangan\s+(?:sebut\w*|beri\s+tahu|bilang)|tanpa\s+memberi\s*tahu)\b|"
    r"알리지|말하지|언급하지|포함하지|知らせずに|伝えずに|言わずに|伝えないで|言わないで|"
    r"知らせないで|言及しない|触れないで|記載しない|含めないで|不要告诉|不要告訴|不告诉|不要提|"
    r"无需提及|不必提及|不要说明|बिना\s+बताए|बताए\s+बिना|पूछे\s+बिना|उल्लेख\s+न|ज़िक्र\s+न|न\s+लिखें|न\s+बताएं|"
    r"دون\s+(?:إخبار|علم|إبلاغ)|لا\s+تذكر|بدون\s+اطلاع|نگو",
    _I,
)
_NEGATION = re.compile(
    r"\b(?:no|nunca|jamás|jamais|não|ne|n'|pas|nicht|niemals|nie|kein\w*|non|mai|не|никогда|"
    r"нельзя|nigdy|asla|không|đừng|chớ|cấm|jangan|tidak|dilarang|niet|nooit|"
    r"prohibid\w*|proibid\w*|interdit\w*|verboten|vietat\w*|запрещ\w*|zabronion\w*|yasak\w*|"
    r"ніколи|aldrig|inte|ikke|aldri|huwag|etme|yapma|nem)\b|"
    r"\b\w+m[ae]y[ıi]n(?:ız)?\b|\b\w+m[ae]m[ae]l[ıi]\w*|\b\w+(?:ıl|il|ul|ül|n)m[ae]z\b|ห้าม|อย่า|"
    r"推奨しません|勧めません|しません|できません|"
    r"지\s*마|지\s*말|안\s*됩니다|안\s*돼|않도록|않게|금지|절대|"
    r"ないで(?:ください|下さい)|しないこと|しないように|ないように|禁止|いけません|避けて|"
    r"不要|不得|切勿|请勿|請勿|严禁|嚴禁|别|別|勿|不能|不应|不應|不可|避免|"
    r"(?<!\S)(?:मत|न|ना|नहीं|कभी)(?!\S)|"
    r"(?<!\S)(?:لا|لن|أبدا|أبداً|يمنع|ممنوع|تجنب|تجنّب)(?!\S)|نکن|نکنید|هرگز|نباید|ممنوع",
    _I,
)
_ASKED = re.compile(
    # a directive, an obligation, a request, in the languages above
    r"\b(?:deben|debe|deberán|deberían|hay\s+que|tienen\s+que|devem|deve|deverão|deveriam|"
    r"precisam|têm\s+que|doivent|doit|devront|devez|il\s+faut|müssen|muss|sollten|sollen|"
    r"sollte|devono|dovrebbero|bisogna|должн\w*|следует|надо|нужно|необходимо|muszą|musi|"
    r"powinn\w*|powinien|należy|cần|phải|nên|harus|perlu|sebaiknya|wajib|"
    r"\w+en\s+Sie|\w+ez)\b|"
    r"해야|하도록|야\s*(?:합니다|한다|해요)|십시오|세요|하라|てください|下さい|すること|べき|しなさい|せよ|"
    r"应该|應該|应当|應當|需要|请|請|必须|必須|务必|務必|"
    r"चाहिए|कीजिए|करो|"
    # Hindi's polite imperative ("करें", "दें", "हटाएँ"), not the postposition "में"
    "(?<!\\S)(?!\u092e\u0947[\u0902\u0901](?![^\\s,.;:!?\u0964)]))"
    "[^\\s,.;:!?\u0964)]+\u0947[\u0902\u0901](?![^\\s,.;:!?\u0964)])|"
    "[^\\s,.;:!?\u0964)]+\u090f[\u0902\u0901](?![^\\s,.;:!?\u0964)])|"
    r"ينبغي|يجب|عليك|عليكم|يلزم|باید|بکنید|کنید",
    _I,
)
_ASKED_TURKISH = re.compile(
    # Turkish necessity ("yapılmalıdır") and polite imperative ("silin.", "atlayın!"): read
    # only in a sentence that is Turkish (``_TURKISH``) — the same endings close French "fin.",
    # Italian "normali", "plugin." (session 22: "Les données de test sont supprimées à la
    # fin." read as a request to delete the tests)
    r"\b\w+m[ae]l[ıi](?:d[ıi]r)?\b|\b\w+(?:ın|in|un|ün|yın|yin)\s*[.!]",
    _I,
)
_TURKISH = re.compile(
    # a letter only Turkish writes (case-sensitive: under IGNORECASE "ı" matches "i"), a
    # Turkish function word, or a Turkish plural object
    r"(?-i:[ıİşŞğĞ])|\b(?:ve|bir|için|ile|bu|veya|olarak|sonra|önce|tüm|her|daha|değil|gibi|"
    r"lütfen)\b|\b\w+(?:leri|ları)(?:ni|nı)?\b",
    _I,
)


def _asked(sentence: str) -> re.Match[str] | None:
    """A directive, an obligation or a request in ``sentence`` (``_ASKED``; Turkish endings
    only in a Turkish sentence)."""
    found = _ASKED.search(sentence)
    if found is None and _TURKISH.search(sentence):
        found = _ASKED_TURKISH.search(sentence)
    return found


_APPROVED = re.compile(
    # "already approved / authorised", a claim that makes the act look sanctioned
    r"\b(?:ya\s+(?:aprob|autoriz|valid)\w*|ya\s+(?:fue|fueron|está|están)\s+(?:aprobad|"
    r"autorizad)\w*|já\s+(?:foi\s+|foram\s+|está\s+)?(?:aprov|autoriz|combinad|liberad)\w*|"
    r"déjà\s+(?:été\s+)?(?:approuv|autoris|valid)\w*|bereits\s+(?:genehmigt|freigegeben|"
    r"zugestimmt|abgesegnet|autorisiert)|schon\s+(?:genehmigt|freigegeben)|"
    r"già\s+(?:stat[oaie]\s+)?(?:approvat|autorizzat)\w*|уже\s+(?:одобр|согласова|разреш|"
    r"подтвержд|утвержд)\w*|önceden\s+onay\w*|zaten\s+onay\w*|już\s+(?:zatwierdz|"
    r"zaakceptowa|zgodzi)\w*|đã\s+(?:được\s+)?(?:phê\s+duyệt|chấp\s+thuận|đồng\s+ý)|"
    r"sudah\s+(?:disetujui|diizinkan))\b|"
    r"이미\s*(?:승인|허가|동의)|사전\s*승인|承認済み|承認を得て|既に承認|すでに承認|事前承認|"
    r"已(?:经|經)?(?:批准|授权|授權|同意|审批|審批)|पहले\s+ही\s+(?:मंजूरी|मंज़ूरी|अनुमति|स्वीकृति)|"
    r"(?:मंजूरी|मंज़ूरी|अनुमति|स्वीकृति)\s+(?:मिल\s+चुकी|दे\s+दी|मिल\s+गई)|"
    r"(?:تمت|تم)\s+(?:الموافقة|الترخيص)|وافق\w*\s+مسبق|مسبقا|مسبقاً|قبلاً\s+تأیید",
    _I,
)
_AUTOMATION = re.compile(
    # who the text is for, when it is a tool that applies it (the English and the consumer
    # rules of ``injection_structure`` name more)
    r"\b(?:herramientas?|generador\w*|ferramentas?|gerador\w*|outils?|générateur\w*|strumenti|"
    r"generator\w*|Werkzeug\w*|Generator\w*|narzędzi\w*|araç\w*|betik\w*|üretic\w*|инструмент\w*|генератор\w*|"
    r"scripts?|skript\w*|skrypt\w*|скрипт\w*|tools?|công\s+cụ|alat|skrip|automat\w*|"
    r"integra(?:tions?|ciones|ções|tionen|zioni)|intégrations?|entegrasyon\w*|"
    r"asistente\w*|assistente\w*|assistant\w*|Assistent\w*|ассистент\w*|asystent\w*|"
    r"asistan\w*|trợ\s+lý|asisten|agente\w*|agent\w*|агент\w*|ajan\w*|IA|KI|ИИ|AI|LLM)\b|"
    r"도구|스크립트|툴|생성기|어시스턴트|에이전트|ツール|スクリプト|アシスタント|エージェント|"
    r"工具|脚本|腳本|生成器|助手|代理|टूल|स्क्रिप्ट|उपकरण|असिस्टेंट|एजेंट|"
    r"الأدوات|أدوات|الأداة|السكربتات|المساعد|الوكيل|ابزار|دستیار",
    _I,
)


_PUBLIC_KEY = re.compile(
    # a public key or a public API is no secret made public
    r"\b(?:clave\s+p[uú]blica|chave\s+p[uú]blica|clés?\s+publiques?|öffentliche\w*\s+Schlüssel\w*|"
    r"chiav\w*\s+pubblic\w*|публичн\w+\s+ключ\w*|открыт\w+\s+ключ\w*|açık\s+anahtar\w*|"
    r"klucz\w*\s+publiczn\w*|khóa\s+công\s+khai|kunci\s+publik|public\s+keys?|publishable\w*|"
    r"pk_(?:live|test)\w*|API\s+p[uú]blic\w*|API\s+publique|öffentliche\w*\s+API|API\s+pubblic\w*|"
    r"публичн\w+\s+API)\b|공개\s*키|공개\s*API|公開鍵|公開API|公钥|公鑰|公开API|सार्वजनिक\s+कुंजी|"
    r"المفتاح\s+العام|کلید\s+عمومی",
    _I,
)
_REMOVAL = re.compile(
    # verbs that remove something: a safeguard is their object only when it stands right
    # beside them ("削除する前にユーザーに確認": the confirmation is asked for, not removed)
    r"\b(?:elimin\w*|quit\w*|remov\w*|supprim\w*|retir\w*|entfern\w*|rimuov\w*|usu[nń]\w*|"
    r"lösch\w*|gelösch\w*|borr\w*|apag\w*|exclu[ia]\w*|effac\w*|cancell\w*|"
    r"sil(?:in|mek|meli|meniz)?|xóa|"
    r"удал\w*|убер\w*|убра\w*|kaldır\w*|hapus|gỡ\s+bỏ)\b|削除|删除|删掉|移除|去掉|삭제|제거|हटा|"
    r"احذف|حذف|إزالة|أزل",
    _I,
)
_SEQUENCE = re.compile(
    # before / after: two steps in order, not one act on the other
    r"\b(?:before|after|antes|después|depois|avant|après|vor|nach|bevor|nachdem|prima|dopo|"
    r"перед|после|önce|sonra|trước|sau|sebelum|setelah|przed|po)\b|前|之前|以前|後|之后|之後|以后|"
    r"전에|후에|후|पहले|बाद|قبل|بعد|پیش\s+از|پس\s+از",
    _I,
)
_ACCIDENT = re.compile(
    # a mishap told, a conditional: "if you accidentally committed the key"
    r"\b(?:accidentally|by\s+mistake|случайно|випадково|por\s+(?:accidente|error|engano)|"
    r"accidentalmente|versehentlich|accidentellement|par\s+erreur|per\s+errore|"
    r"przypadkiem|yanlışlıkla|vô\s+tình|tidak\s+sengaja)\b|誤って|うっかり|실수로|不小心|意外|"
    r"गलती\s+से|عن\s+طريق\s+الخطأ|اشتباه",
    _I,
)
_EXHIBIT = re.compile(
    # the passage discusses attacks (a write-up quoting one, in its own language)
    r"\b(?:ataques?|atacantes?|ataca\w*|inyecci[oó]n|injeç[aã]o|Angriff\w*|Angreifer\w*|"
    r"attaques?|attaquant\w*|attacc\w*|injection|инъекци\w*|внедрени\w+\s+(?:инструкц|команд)\w*|"
    r"атак\w*|атаку\w*|злоумышленни\w*|зловмисни\w*|saldırı\w*|saldırgan\w*|atak\w*|"
    r"tấn\s+công|kẻ\s+tấn\s+công|serangan|penyerang|iniekcj\w*|"
    r"falsificad\w*|contraffatt\w*|gefälscht\w*|поддельн\w*|фальшив\w*|sahte|giả\s+mạo|palsu|"
    r"phishing|jailbreak\w*)\b|공격|인젝션|攻撃|インジェクション|攻击|攻擊|注入|हमला|हमले|हमलावर|"
    r"इंजेक्शन|هجوم|مهاجم|حقن|حمله|تزریق|가짜|위조|偽の|伪造|偽造|नकली|مزيف|جعلی",
    _I,
)
_PROTECT = re.compile(
    rf"{_REMOVAL.pattern}|\b(?:mask\w*|redact\w*|enmascar\w*|mascar\w*|masquer|maskier\w*|"
    r"schwärz\w*|маскир\w*|maskele\w*|maskow\w*|che\s+giấu|sensor\w*|rotat\w*|rot[ae]r|"
    r"revoc\w*|revog\w*|révoqu\w*|widerruf\w*|отзов\w*|отозв\w*|отклик\w*)\b|마스킹|가리|"
    r"マスク|伏せ|脱敏|遮蔽|屏蔽|轮换|輪換|吊销|मास्क|إخفاء|پنهان",
    _I,
)
_LATIN_FUNCTION = re.compile(
    # function words of languages written in ASCII letters as often as not (Spanish,
    # Portuguese, French, German, Italian, Indonesian, Turkish, Polish, Dutch)
    r"\b(?:el|los|las|del|para|por|con|una|que|os|das|dos|com|em|uma|não|les|des|une|du|"
    r"avec|pour|dans|der|die|das|und|mit|von|zu|den|dem|ist|nicht|il|di|che|per|gli|della|"
    r"yang|dan|untuk|dengan|ini|itu|ve|bir|için|ile|bu|się|nie|jest|oraz|het|een|voor|van)\b",
    _I,
)
_WITHOUT = re.compile(
    r"\b(?:sin|sem|sans|ohne|senza|без|bez|tanpa|olmadan|минуя)\b|없이|않고|せずに|なしで|抜きで|"
    r"不经|不經|未经|बिना|دون|بدون",
    _I,
)
""""Without": the safeguard it drops stands right beside it ("sin revisión", "검토 없이"); a
secret right after it is kept out ("les journaux (sans mots de passe)")."""
_RECORD = re.compile(
    # where a change is told to the user: a summary, a changelog, a log, the PR description
    r"\b(?:log\w*|changelog\w*|resumen|resumo|résumé|Zusammenfassung|sommario|riepilogo|"
    r"резюме|сводк\w*|журнал\w*|лог\w*|özet\w*|podsumowan\w*|dzienni\w*|tóm\s+tắt|ringkasan|"
    r"Änderungsprotokoll\w*|registro\s+de\s+cambios|notas\s+de\s+la\s+versión|descripci[oó]n|"
    r"descrição|description|Beschreibung|descrizione|описани\w*|açıklama\w*|opis\w*)\b|"
    r"ログ|로그|요약|변경\s*로그|変更履歴|要約|日志|日誌|摘要|变更记录|लॉग|सारांश|चेंजलॉग|"
    r"السجل|سجل\s+التغييرات|الملخص|خلاصه",
    _I,
)
_LIST_ITEM = re.compile(r"[ \t]*(?:[-*+•]|\d+[.)])[ \t]")
_LETTER = re.compile(r"(?=[^\x00-\x7f])[^\W\d_]")


def discusses_attacks(text: str) -> bool:
    """``text`` is a write-up about attacks in another language (it quotes what it discusses):
    a harmful act read in one of its paragraphs is an exhibit."""
    return _EXHIBIT.search(text) is not None


def harmful_request(text: str) -> re.Match[str] | None:
    """The first sentence of ``text`` that is not English and asks for one of the five acts
    (see the module docstring); the match is the act's first concept."""
    if not (_LETTER.search(text) or _LATIN_FUNCTION.search(text)) or _EXHIBIT.search(text):
        return None  # English, or a write-up that discusses attacks
    text = _QUOTED.sub(_blank, text)
    start = 0
    for end in [e.end() for e in _SENTENCE_END.finditer(text)] + [len(text)]:
        if end <= start:
            continue
        for a in range(start, end, MAX_SENTENCE):
            intro = _intro(text, a)
            if intro is not None and _NEGATION.search(intro):
                continue  # an item under a line that forbids ("Không được:", "禁止：")
            sentence = text[a : min(end, a + MAX_SENTENCE)]
            found = _act(sentence, intro or "")
            if found is not None and _the_alternative(sentence, found):
                continue  # "… informe o certificado em vez de desativar a verificação"
            if found is not None:
                # the same words, matched in the whole text (offsets are the text's)
                return re.compile(re.escape(found.group())).search(text, a + found.start())
        start = end
    return None


_INSTEAD_BEFORE = re.compile(
    # "instead of" / "rather than" before the act it turns down
    r"(?:\b(?:em\s+vez\s+de|ao\s+inv[eé]s\s+de|en\s+(?:lugar|vez)\s+de|au\s+lieu\s+de|plut[oô]t\s+que\s+de|"
    r"anstatt|statt|invece\s+di|anzich[eé]|zamiast|вместо|замість|thay\s+vì|alih-alih|"
    r"daripada|in\s+plaats\s+van|i\s+st[äa]llet\s+för|i\s+stedet\s+for|i\s+stedet\s+for\s+at|"
    r"m[ií]sto|namiesto|umjesto|umesto|namesto|vietoj|в\s+място)\b|而不是|而非|بدلاً\s+من|بدلا\s+من|"
    r"به\s+جای)[^.;!?。！？\n]{0,25}$",
    _I,
)
_INSTEAD_AFTER = re.compile(
    # the postpositions: "… devre dışı bırakmak yerine", "… helyett", "…する代わりに", "… 대신",
    # "… के बजाय", "… sijaan"
    r"^[^.;!?。！？\n]{0,30}?(?:\b(?:yerine|helyett|sijaan|asemesta|के\s+बजाय|की\s+जगह)\b|代わりに|"
    r"かわりに|대신)",
    _I,
)


def _the_alternative(sentence: str, act: re.Match[str]) -> bool:
    """``act`` is what ``sentence`` turns down in favour of something else ("informe o caminho
    do certificado em vez de desativar a verificação", "doğrulamayı kapatmak yerine CA
    ekleyin"): an "instead of" just before it, or a postposition of the kind just after it
    (session 30)."""
    return (
        _INSTEAD_BEFORE.search(sentence[: act.start()]) is not None
        or _INSTEAD_AFTER.search(sentence[act.end() :]) is not None
    )


def negated(sentence: str) -> bool:
    """``sentence`` holds a negation of one of the languages above ("não", "nicht",
    "ないでください", "不要" …): what it names is forbidden, not asked for."""
    return _NEGATION.search(sentence) is not None


def automation_asked(sentence: str) -> bool:
    """``sentence`` is not English, names tools that apply the text (``_AUTOMATION``: scripts,
    integrations, generators, agents …), asks something of them (an obligation, ``_ASKED``:
    "devem", "powinny", "müssen") with no negation beside it: "as integrações devem usar …". What it
    asks for is read by the caller in what is written the same in every language (a
    `verify=False`, a `NOPASSWD`, a `git remote add` to a host), see
    ``injection_structure._ml_setting_request`` (session 21)."""
    if not (_LETTER.search(sentence) or _LATIN_FUNCTION.search(sentence)):
        return False
    if len({w.lower() for w in _ENGLISH.findall(sentence)}) >= 2:
        return False
    asked = _asked(sentence)
    if asked is None or _AUTOMATION.search(sentence) is None:
        return False
    # a negation beside the obligation ("não devem", "nie powinny", "하지 마세요"); one
    # elsewhere may be a word of another language ("no CI" is Portuguese "in the CI")
    return _NEGATION.search(sentence, max(0, asked.start() - 15), asked.end() + 25) is None


def _intro(text: str, at: int) -> str | None:
    """For a list item, the nearest line above it that is not an item (the line that says
    what the items are: "AI 助手应执行以下操作：", "Never:"); None for a sentence that is no
    item."""
    line_start = text.rfind("\n", 0, at) + 1
    if not _LIST_ITEM.match(text, line_start) or text[line_start:at].strip(" \t-*+•0123456789.)"):
        return None  # not an item, or a later sentence of one
    i = line_start
    for _ in range(30):
        if i <= 0:
            return ""
        prev = text.rfind("\n", 0, i - 1) + 1
        line = text[prev : i - 1]
        i = prev
        if line.strip() and not _LIST_ITEM.match(line):
            return line
    return ""


def _act(sentence: str, intro: str = "") -> re.Match[str] | None:
    """One act in one sentence that is not English, not negated and asked for (in the
    sentence, or in the line that introduces it as a list item)."""
    if not (_LETTER.search(sentence) or _LATIN_FUNCTION.search(sentence)):
        return None
    if len({w.lower() for w in _ENGLISH.findall(sentence)}) >= 2:
        return None
    # a negation that is itself the risk ("no need to confirm", "do not mention it") is set
    # aside before the sentence is read for a negation of its act; "no need to switch
    # anything off" negates the act
    unconcealed = _CONCEALED.sub(_blank, sentence)
    plain = _kept_out_blanked(unconcealed)
    if any(_SKIP.search(plain, m.end(), m.end() + 20) for m in _NO_NEED.finditer(plain)):
        return None  # "no need to switch any check off"
    if _NEGATION.search(_NO_NEED.sub(_blank, plain)) or _ACCIDENT.search(sentence):
        return None
    asked = any(
        _asked(part) is not None
        or any(p.search(part) for p in (_AUTOMATION, _APPROVED, _NO_NEED, _CONCEALED))
        for part in (sentence, intro)
    )
    if not asked:
        return None  # described ("the token leaked into the debug logs"), not asked for
    read = _PUBLIC_KEY.sub(_blank, unconcealed)
    committed = _COMMIT.search(read) is not None
    for secret in _SECRET.finditer(read):
        if _near(read, secret, _PROTECT) is not None or _WITHOUT.search(
            read, max(0, secret.start() - 12), secret.start()
        ):
            continue  # the secret masked or removed ("delete the keys from the log first")
        for place in (_PUBLIC, _LOGGED, _TELEMETRY):
            if _near(read, secret, place) is not None:
                return secret
        if committed and _near(read, secret, _REPOSITORY) is not None:
            return secret
    skipped = _skipped(sentence)
    push = _PUSH.search(sentence)
    if (
        push is not None
        and _near(sentence, push, _TARGET) is not None
        and (_DIRECT.search(sentence) is not None or skipped is not None)
    ):
        return push
    return skipped


def _kept_out_blanked(sentence: str) -> str:
    """``sentence`` with its negated records blanked: "and don't write it in the log",
    "changelog में न लिखें" keep a change from the user (a risk, not a prohibition of the act);
    "don't log the token" protects a secret and stays."""
    if _SECRET.search(sentence):
        return sentence  # a secret kept out of a log is protected, not hidden
    for m in _RECORD.finditer(sentence):
        lo, hi = max(0, m.start() - 30), min(len(sentence), m.end() + 25)
        neg = _NEGATION.search(sentence, lo, hi)
        if neg is None:
            continue
        a, b = min(neg.start(), m.start()), max(neg.end(), m.end())
        sentence = sentence[:a] + " " * (b - a) + sentence[b:]
    return sentence


def _skipped(sentence: str) -> re.Match[str] | None:
    """A safeguard skipped: a skip word with a safeguard near it (right beside a verb that
    removes, with no "before" / "after" between them); not a passive ("可能被繞過")."""
    for m in _SKIP.finditer(sentence):
        if m.start() > 0 and sentence[m.start() - 1] == "被":
            continue
        removal = _REMOVAL.fullmatch(m.group()) is not None
        if removal and _SEQUENCE.search(sentence):
            continue  # "delete … before …, ask": two steps, the safeguard asked for
        near = 20 if removal else 25 if _WITHOUT.fullmatch(m.group()) else NEAR
        lo, hi = max(0, m.start() - near), min(len(sentence), m.end() + near)
        for g in _SAFEGUARD.finditer(sentence, lo, hi):
            between = sentence[min(m.end(), g.end()) : max(m.start(), g.start())]
            if not _SEQUENCE.search(between):
                return m
    return None


def _near(sentence: str, m: re.Match[str], other: re.Pattern[str]) -> re.Match[str] | None:
    """``other`` within ``NEAR`` characters of ``m``, on either side."""
    lo, hi = max(0, m.start() - NEAR), min(len(sentence), m.end() + NEAR)
    return other.search(sentence, lo, hi)


def _blank(m: re.Match[str]) -> str:
    return " " * len(m.group())
